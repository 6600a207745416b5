#!/usr/bin/env node
import { Legwork } from '@legwork/sdk';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createLegworkMcpServer } from './catalogue';
import { isSandboxKey } from './index';

/**
 * legwork-mcp: Legwork's MCP server over stdio, for hosts that start a local process (Claude Desktop, Claude Code,
 * Cursor, VS Code). Configured by LEGWORK_API_KEY and LEGWORK_BASE_URL (default http://localhost:8000); stdout is
 * the protocol channel, so everything else goes to stderr.
 */
function main(): void {
  const apiKey = process.env.LEGWORK_API_KEY;
  if (!apiKey) {
    console.error('legwork-mcp: set LEGWORK_API_KEY to an agent API key (lw_test_... or lw_live_...).');
    process.exit(1);
  }
  const baseUrl = process.env.LEGWORK_BASE_URL ?? 'http://localhost:8000';
  const client = new Legwork({ apiKey, baseUrl });
  const handle = serveStdio(() => createLegworkMcpServer({ client, sandbox: isSandboxKey(apiKey) }));
  const stop = () => void handle.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.error(
    `legwork-mcp: serving ${isSandboxKey(apiKey) ? 'sandbox' : 'live'} tools for ${baseUrl} on stdio`,
  );
}

main();
