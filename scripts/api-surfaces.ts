import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * docs/api-surfaces.md from openapi/openapi.json: every operation, grouped by area, with its handler.
 * `npm run api-surfaces` writes it; `test/system/api-surfaces.e2e-spec.ts` renders it again and fails when the
 * committed page differs, so the page cannot drift from the document (which `npm run openapi:check` keeps equal to
 * the running routes).
 *
 * A /v1 route and its /api/v1 namesake share a row only when the same handler serves both (their operationIds differ
 * by the `_api` suffix alone); where the reference form has its own handler (its own body or credentials) each gets
 * its own row, so the table never shows two operations as one.
 */

interface Operation {
  operationId?: string;
  summary?: string;
}

export interface OpenApiPaths {
  paths: Record<string, Record<string, unknown>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Matched against the path without its /v1 or /api/v1 prefix, first prefix wins: the more specific ones come first
 * (a worker's /worker/tasks route is a worker task, not an agent task).
 */
const AREAS: readonly [string, string][] = [
  ['/sandbox', 'Sandbox (sandbox mode only)'],
  ['/admin', 'Operators'],
  ['/agent/api-keys', 'Agent API key'],
  ['/oauth', 'OAuth grants'],
  ['/agent/stats', 'Statistics'],
  ['/agent/transactions', 'Transactions'],
  ['/agent/webhooks', 'Events'],
  ['/agent/events', 'Events'],
  ['/agent/payments', 'Payments'],
  ['/agent', 'Agent account'],
  ['/tasks', 'Agent tasks'],
  ['/worker/tasks', 'Worker tasks'],
  ['/worker/assignments', 'Worker tasks'],
  ['/worker/messages', 'Worker tasks'],
  ['/worker/availability', 'Matching'],
  ['/worker/balance', 'Worker money'],
  ['/worker/earnings', 'Worker money'],
  ['/worker', 'Worker account'],
  ['/upload', 'Uploads'],
  ['/payment/alipay', 'Payment callbacks'],
  ['/payment', 'Payments'],
  ['/webhooks', 'Payment callbacks'],
  ['/api/webhooks', 'Payment callbacks'],
  ['/ws', 'Events'],
];

const ORDER = [
  'System',
  'Agent account',
  'Agent API key',
  'OAuth grants',
  'Agent tasks',
  'Transactions',
  'Statistics',
  'Payments',
  'Payment callbacks',
  'Worker account',
  'Worker tasks',
  'Matching',
  'Uploads',
  'Worker money',
  'Events',
  'Operators',
  'Sandbox (sandbox mode only)',
];

const INTRO = [
  '# API surfaces',
  '',
  'Every operation the service serves, grouped by area, with the controller method that handles it. Generated',
  'from [`openapi/openapi.json`](../openapi/openapi.json) by `npm run api-surfaces`; a test',
  '(`test/system/api-surfaces.e2e-spec.ts`) fails when this page differs from what the document gives, and the',
  'route-table test (`test/system/routes.e2e-spec.ts`) asserts the same set.',
  '',
  'Where the spec gives one operation on both forms, one handler serves `/v1` and `/api/v1` and the two share a',
  'row. Where the reference form differs in verb, path, body or credentials (task create and cancel, the',
  'reference payment endpoints with `X-API-Secret`) it has its own handler over the same service, and its own row.',
  '',
  'Besides these, `/mcp` (`POST`, and `GET` / `DELETE` answered 405) is the MCP server for LLM agents',
  '(`McpController`, [mcp.md](mcp.md)): a protocol endpoint, not a REST operation, so it is not in the OpenAPI',
  'document; the route table lists it.',
  '',
];

interface Row {
  area: string;
  method: string;
  where: string;
  handler: string;
  summary: string;
}

function bare(path: string): string {
  return path.replace(/^\/(api\/)?v1(?=\/)/, '');
}

function areaOf(path: string): string {
  const rest = bare(path);
  return AREAS.find(([key]) => rest === key || rest.startsWith(`${key}/`))?.[1] ?? 'System';
}

/** `AgentTasks_list_api` -> `AgentTasksController.list` (Nest's operationId is controller, method). */
function handler(op: Operation): string {
  const id = (op.operationId ?? '').replace(/_api$/, '');
  const cut = id.indexOf('_');
  return cut < 0 ? id : `${id.slice(0, cut)}Controller.${id.slice(cut + 1)}`;
}

/** Path order without the prefix, the /v1 form before the /api/v1 one, then the method. */
function compare(a: [string, string], b: [string, string]): number {
  const keys = ([method, path]: [string, string]): string[] => [
    bare(path),
    path.startsWith('/api/') ? '1' : '0',
    method,
  ];
  const [x, y] = [keys(a), keys(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

function rows(doc: OpenApiPaths): Row[] {
  const ops = new Map<string, Operation>();
  const keys: [string, string][] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      ops.set(`${method.toUpperCase()} ${path}`, op as Operation);
      keys.push([method.toUpperCase(), path]);
    }
  }
  const seen = new Set<string>();
  const out: Row[] = [];
  for (const [method, path] of keys.sort(compare)) {
    if (seen.has(`${method} ${path}`)) continue;
    const op = ops.get(`${method} ${path}`)!;
    const twin = path.startsWith('/v1/') ? `/api${path}` : null;
    const twinOp = twin ? ops.get(`${method} ${twin}`) : undefined;
    let where = `\`${path}\``;
    if (twinOp && handler(twinOp) === handler(op)) {
      seen.add(`${method} ${twin}`);
      where = `\`${path}\` and \`${twin}\``;
    }
    const summary = (op.summary ?? '').replaceAll('|', '/');
    out.push({ area: areaOf(path), method, where, handler: `\`${handler(op)}\``, summary });
  }
  return out;
}

/** The page, exactly as committed. */
export function renderApiSurfaces(doc: OpenApiPaths): string {
  const all = rows(doc);
  const extra = [...new Set(all.map((r) => r.area))].filter((a) => !ORDER.includes(a)).sort();
  const out = [...INTRO];
  for (const name of [...ORDER, ...extra]) {
    const group = all.filter((r) => r.area === name);
    if (group.length === 0) continue;
    out.push(`## ${name}`, '', '| Method | Path | Handler | What it does |', '|---|---|---|---|');
    out.push(...group.map((r) => `| ${r.method} | ${r.where} | ${r.handler} | ${r.summary} |`), '');
  }
  return out.join('\n');
}

if (require.main === module) {
  // Compiled, this runs from dist/scripts/.
  const root = join(__dirname, '..', '..');
  const doc = JSON.parse(readFileSync(join(root, 'openapi', 'openapi.json'), 'utf8')) as OpenApiPaths;
  writeFileSync(join(root, 'docs', 'api-surfaces.md'), renderApiSurfaces(doc));
  console.log(`docs/api-surfaces.md: ${rows(doc).length} rows`);
}
