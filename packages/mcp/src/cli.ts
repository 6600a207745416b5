#!/usr/bin/env node
import { Legwork } from '@legwork/sdk';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createLegworkMcpServer } from './catalogue';
import { isSandboxKey } from './index';

/**
 * legwork-mcp: Legwork's MCP server over stdio, for hosts that start a local process (Claude Desktop, Claude Code,
 * Cursor, VS Code). Configured by LEGWORK_API_KEY and LEGWORK_BASE_URL (default http://localhost:8000), and
 * LEGWORK_PHOTO_ORIGINS (originsOf, below); stdout is
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
  const photoOrigins = [new URL(baseUrl).origin, ...originsOf(process.env.LEGWORK_PHOTO_ORIGINS)];
  const handle = serveStdio(() =>
    createLegworkMcpServer({ client, sandbox: isSandboxKey(apiKey), photoOrigins }),
  );
  const stop = () => void handle.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.error(
    `legwork-mcp: serving ${isSandboxKey(apiKey) ? 'sandbox' : 'live'} tools for ${baseUrl} on stdio`,
  );
}

/**
 * LEGWORK_PHOTO_ORIGINS: more origins proof photos come from, comma-separated, for the review card's image policy:
 * the service's S3 bucket when it stores uploads there (its /uploads links redirect to the bucket). The service's
 * own /mcp knows its storage and needs none of this.
 */
function originsOf(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => new URL(s).origin);
}

main();
