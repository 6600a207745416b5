import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Legwork } from '@legwork/sdk';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { CORE_TOOLS, createLegworkMcpServer, SANDBOX_TOOLS } from './index';

/**
 * The MCP tools' input schemas, as a host lists them, against the API requests the tools make (openapi/openapi.json):
 * every argument is an API field (or is listed below as the tool's own, with why), with the same type, enum and
 * bounds, and every field the API requires is required by the tool. A bound restated by hand in a tool, or an API
 * change the tool did not follow, fails here. Formats other than uuid are left to the API (deadline_at's rules are
 * more than a format).
 */
// The two documents are read as plain JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const doc = JSON.parse(readFileSync(join(__dirname, '../../../openapi/openapi.json'), 'utf8')) as Json;

type Source = { body: string } | { params: string };
interface ToolSpec {
  /** Where the tool's arguments go: a request body schema, or an operation's parameters ('POST /v1/...'). */
  sources: Source[];
  /** A tool argument sent under another name. */
  renamed?: Record<string, string>;
  /** Arguments of the tool's own, and why they are not API fields. */
  own?: Record<string, string>;
  /** Whether the API's required fields are required by the tool (not for tools whose actions need different ones). */
  required?: false;
}

const TOOLS: Record<string, ToolSpec> = {
  get_account: { sources: [] },
  quote_task: { sources: [{ body: 'CreateTaskRequest' }] },
  create_task: {
    sources: [{ body: 'CreateTaskRequest' }, { params: 'POST /v1/tasks/create' }],
  },
  list_tasks: { sources: [{ params: 'GET /v1/tasks' }] },
  get_task: { sources: [{ params: 'GET /v1/tasks/{task_id}' }] },
  wait_for_task: {
    sources: [{ params: 'GET /v1/tasks/{task_id}' }],
    own: {
      since: 'a cursor the tool compares with the task’s event ids itself',
      timeout_s: 'how long the tool long-polls',
    },
  },
  get_results: { sources: [{ params: 'GET /v1/tasks/{task_id}/result' }] },
  review_submission: {
    sources: [{ params: 'POST /v1/tasks/{task_id}/feedback' }, { body: 'TaskFeedbackRequest' }],
    renamed: { accept: 'accept_result' },
  },
  send_message: {
    sources: [{ params: 'POST /v1/tasks/{task_id}/messages' }, { body: 'AgentSendMessageRequest' }],
    renamed: { idempotency_key: 'Idempotency-Key' },
  },
  cancel_task: { sources: [{ params: 'POST /v1/tasks/{task_id}/cancel' }] },
  create_top_up: {
    sources: [{ body: 'RechargeRequest' }, { params: 'POST /v1/payment/recharge' }],
    renamed: { idempotency_key: 'Idempotency-Key' },
  },
  sandbox_workers: {
    sources: [
      { body: 'CreateSandboxWorkerRequest' },
      { body: 'UpdateSandboxWorkerRequest' },
      { params: 'GET /v1/sandbox/workers/{worker_id}' },
    ],
    own: { action: 'which of the five calls the tool makes' },
    required: false,
  },
  sandbox_clock: {
    sources: [
      { body: 'CreateTestClockRequest' },
      { body: 'AdvanceTestClockRequest' },
      { params: 'GET /v1/sandbox/clocks/{clock_id}' },
    ],
    own: { action: 'which of the five calls the tool makes' },
    required: false,
  },
};

function lookup(ref: string): Json {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Json, key) => node[key.replace(/~1/g, '/')] as Json, doc);
}

/** A schema with its $ref and one-element allOf resolved (the siblings, such as nullable, kept). */
function resolve(schema: Json): Json {
  if (schema.$ref) return resolve(lookup(schema.$ref as string));
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
    const { allOf, ...rest } = schema;
    return { ...resolve((allOf as Json[])[0]), ...rest };
  }
  return schema;
}

interface ApiField {
  schema: Json;
  required: boolean;
  /** A path parameter: the API checks its form itself (UuidParam), so the tool may say uuid where it says string. */
  inPath: boolean;
}

/** The API fields a tool's arguments go to, by name (a name in two sources appears twice). */
function apiFields(sources: Source[]): [string, ApiField][] {
  return sources.flatMap((source): [string, ApiField][] => {
    if ('body' in source) {
      const schema = resolve(doc.components.schemas[source.body] as Json);
      const required = (schema.required ?? []) as string[];
      return Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([name, s]) => [
        name,
        { schema: resolve(s), required: required.includes(name), inPath: false },
      ]);
    }
    const [verb, path] = source.params.split(' ');
    const operation = doc.paths[path][verb.toLowerCase()] as Json;
    return ((operation.parameters ?? []) as Json[])
      .map(resolve)
      .map((p): [string, ApiField] => [
        p.name as string,
        { schema: resolve(p.schema as Json), required: p.required === true, inPath: p.in === 'path' },
      ]);
  });
}

const BOUNDS = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern'] as const;
/** zod writes these for any integer; the API writes nothing for an unbounded one. */
const SAFE_INTEGER = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/** The schema's non-null form, and whether null is allowed (zod: type arrays or anyOf with null; the API: nullable). */
function nonNull(schema: Json): { schema: Json; nullable: boolean } {
  if (Array.isArray(schema.anyOf)) {
    const others = (schema.anyOf as Json[]).filter((s) => s.type !== 'null');
    if (others.length === 1) return { schema: { ...others[0], ...schema, anyOf: undefined }, nullable: true };
  }
  if (Array.isArray(schema.type)) {
    const types = (schema.type as string[]).filter((t) => t !== 'null');
    return { schema: { ...schema, type: types[0] }, nullable: types.length < schema.type.length };
  }
  return { schema, nullable: schema.nullable === true };
}

/** What differs between a tool argument's schema and the API field's: one line each, empty when they agree. */
export function differences(at: string, toolSchema: Json, api: ApiField, checkRequired = true): string[] {
  const { schema: tool } = nonNull(toolSchema);
  const { schema: field } = nonNull(api.schema);
  if (tool.type !== field.type) return [`${at}: type ${tool.type}, the API says ${field.type}`];
  const out: string[] = [];
  const toolEnum = JSON.stringify(((tool.enum ?? []) as unknown[]).slice().sort());
  const apiEnum = JSON.stringify(((field.enum ?? []) as unknown[]).slice().sort());
  if (toolEnum !== apiEnum) out.push(`${at}: enum ${toolEnum}, the API says ${apiEnum}`);
  for (const bound of BOUNDS) {
    const mine = tool[bound] as unknown;
    const theirs = field[bound] as unknown;
    if (mine === theirs || (theirs === undefined && SAFE_INTEGER.has(mine as number))) continue;
    // zod spells the uuid format out as a pattern too.
    if (bound === 'pattern' && theirs === undefined && tool.format === 'uuid') continue;
    out.push(`${at}: ${bound} ${String(mine)}, the API says ${String(theirs)}`);
  }
  if (field.format === 'uuid' ? tool.format !== 'uuid' : tool.format === 'uuid' && !api.inPath)
    out.push(`${at}: format ${tool.format}, the API says ${field.format}`);
  if (field.type === 'array')
    out.push(...differences(`${at}[]`, tool.items as Json, item(field), checkRequired));
  if (field.type === 'object') out.push(...objectDifferences(at, tool, field, checkRequired));
  return out;
}

const item = (array: Json): ApiField => ({
  schema: resolve(array.items as Json),
  required: true,
  inPath: false,
});

/** An object argument: typed where the API types it, open where the API takes any JSON. */
function objectDifferences(at: string, tool: Json, field: Json, checkRequired: boolean): string[] {
  const toolProps = (tool.properties ?? {}) as Record<string, Json>;
  const apiProps = (field.properties ?? {}) as Record<string, Json>;
  if (Object.keys(apiProps).length === 0)
    return Object.keys(toolProps).length === 0 ? [] : [`${at}: typed, the API takes any JSON`];
  if (Object.keys(toolProps).length === 0) return [`${at}: any JSON, the API types it`];
  const required = (field.required ?? []) as string[];
  const fields = Object.entries(apiProps).map(([name, s]): [string, ApiField] => [
    name,
    { schema: resolve(s), required: required.includes(name), inPath: false },
  ]);
  return argumentDifferences(at, tool, fields, {}, {}, checkRequired);
}

/** Every argument of an object schema against the API fields it goes to. */
function argumentDifferences(
  at: string,
  tool: Json,
  fields: [string, ApiField][],
  renamed: Record<string, string>,
  own: Record<string, string>,
  checkRequired: boolean,
): string[] {
  const props = (tool.properties ?? {}) as Record<string, Json>;
  const toolRequired = (tool.required ?? []) as string[];
  const out: string[] = [];
  for (const [arg, schema] of Object.entries(props)) {
    if (own[arg]) continue;
    const name = renamed[arg] ?? arg;
    const matches = fields.filter(([n]) => n === name).map(([, f]) => f);
    if (matches.length === 0) out.push(`${at}.${arg}: not a field of the API request`);
    for (const f of matches) out.push(...differences(`${at}.${arg}`, schema, f, checkRequired));
  }
  if (checkRequired) {
    const byApiName = Object.fromEntries(Object.entries(renamed).map(([arg, name]) => [name, arg]));
    for (const [name, f] of fields) {
      const arg = byApiName[name] ?? name;
      if (f.required && !toolRequired.includes(arg)) out.push(`${at}.${arg}: optional, the API requires it`);
    }
  }
  return out;
}

async function listedTools(sandbox: boolean) {
  const server = createLegworkMcpServer({
    client: new Legwork({ apiKey: 'lw_test_unused', baseUrl: 'http://127.0.0.1:9' }),
    sandbox,
    photoOrigins: ['http://127.0.0.1:9'],
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'schema-spec', version: '1' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}

describe('the MCP tools against the API', () => {
  it('lists its core tools to any key and the sandbox tools to a sandbox key, one file each', async () => {
    expect((await listedTools(false)).map((t) => t.name)).toEqual(CORE_TOOLS);
    expect((await listedTools(true)).map((t) => t.name)).toEqual([...CORE_TOOLS, ...SANDBOX_TOOLS]);
    expect(Object.keys(TOOLS).sort()).toEqual([...CORE_TOOLS, ...SANDBOX_TOOLS].sort());
  });

  it.each(Object.entries(TOOLS))(
    '%s takes what the API takes: types, enums, bounds, required',
    async (name, spec) => {
      const tool = (await listedTools(true)).find((t) => t.name === name)!;
      const schema = tool.inputSchema as Json;
      const args = Object.keys((schema.properties ?? {}) as object);
      // The table names only arguments the tool has.
      expect(
        [...Object.keys(spec.renamed ?? {}), ...Object.keys(spec.own ?? {})].filter((a) => !args.includes(a)),
      ).toEqual([]);
      const fields = apiFields(spec.sources);
      expect(
        argumentDifferences(name, schema, fields, spec.renamed ?? {}, spec.own ?? {}, spec.required ?? true),
      ).toEqual([]);
    },
  );

  it('notices a drift: a bound, an enum, a type, a field the API does not have, a required field left optional', () => {
    const [[, maxWorkers]] = apiFields([{ body: 'CreateTaskRequest' }]).filter(([n]) => n === 'max_workers');
    expect(differences('max_workers', { type: 'integer', minimum: 1, maximum: 100 }, maxWorkers)).toEqual([
      'max_workers: maximum 100, the API says 10',
    ]);
    expect(differences('max_workers', { type: 'number', minimum: 1, maximum: 10 }, maxWorkers)).toEqual([
      'max_workers: type number, the API says integer',
    ]);
    const fields = apiFields([{ body: 'TaskFeedbackRequest' }]);
    const review = {
      type: 'object',
      properties: {
        accept_result: { type: 'boolean' },
        reason_code: { type: 'string', enum: ['poor_quality', 'other'] },
        tip_cents: { type: 'integer' },
      },
      required: [],
    };
    expect(argumentDifferences('review', review, fields, {}, {}, true)).toEqual([
      expect.stringMatching(/^review\.reason_code: enum/),
      'review.tip_cents: not a field of the API request',
      'review.accept_result: optional, the API requires it',
    ]);
  });
});
