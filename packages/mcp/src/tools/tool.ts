import { LegworkError, type Legwork } from '@legwork/sdk';
import type { McpServer } from '@modelcontextprotocol/server';

/** What a tool may need besides the client: whether the key is a sandbox key, and the process's leaving signal. */
export interface ToolOptions {
  /** Whether the key is a sandbox key (`lw_test_`). */
  sandbox: boolean;
  /**
   * Aborted when the process is leaving (the service's drain): a wait_for_task in progress then answers at once
   * (timed_out), so the client calls again, through another instance.
   */
  stopping?: AbortSignal;
}

/**
 * One tool's file exports one of these (the official MCP servers' `registerXTool(server)`): it registers the tool on
 * the server, calling the API through the client, which already holds the agent's key (credentials are never tool
 * arguments).
 */
export type RegisterTool = (server: McpServer, client: Legwork, options: ToolOptions) => void;

/** The annotations of a tool that reads and changes nothing. */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** The annotations of a sandbox tool: it adds, changes and removes the agent's own test fixtures. */
export const SANDBOX_FIXTURES = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** A field an action of a multi-action tool needs: a validation_error tool error when it is missing. */
export function need<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined) {
    throw new LegworkError(`${field} is required for action ${action}.`, {
      status: 400,
      code: 'validation_error',
    });
  }
  return value;
}
