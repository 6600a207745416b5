import fc from 'fast-check';
import type { Response } from 'supertest';
import { ERRORS, ErrorCode } from '../../src/common/errors/error-catalog';
import { createAdmin } from '../support/admins';
import { taskBody } from '../support/tasks';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { AuthKind, FuzzRequest, KnownIds, requestsFor } from './requests';
import { loadOpenApi, Operation, validate } from '../support/openapi-schemas';

/**
 * Property-based requests for every operation in openapi/openapi.json: path parameters, query strings and bodies
 * from the documented schemas, plus mutations (wrong types, missing fields, huge strings, unicode and NUL bytes,
 * extra fields, malformed JSON, other content types), with valid, missing, foreign and garbage credentials.
 * Every answer must be: not a 5xx (unless that 5xx is documented for the operation, e.g. a provider being down);
 * (provider callbacks answer in the provider's protocol, so there only an unhandled error counts)
 * a status documented for the operation or a generic 4xx from the error list; JSON; for 4xx the error envelope
 * {error: {code, message, request_id, ...}} with a code from the error catalogue whose status is the answer's and
 * only context fields the error schema declares; for 2xx a body that matches the documented response schema.
 *
 * CI runs a fixed seed and FUZZ_RUNS=20 per operation. Longer: FUZZ_RUNS=500 FUZZ_SEED=$RANDOM npx jest test/fuzz
 * (FUZZ_OPS=substring limits the operations; FUZZ_SHRINK=1 shrinks a failure to a minimal request).
 */
const doc = loadOpenApi();
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const ONLY = process.env.FUZZ_OPS;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const GENERIC_4XX = new Set<number>(
  Object.values(ERRORS)
    .map((e) => e.status)
    .filter((s) => s >= 400 && s < 500),
);
const ERROR_SCHEMA = { $ref: '#/components/schemas/ErrorEnvelope' };
const ERROR_FIELDS = new Set(Object.keys(doc.components.schemas.ErrorBody.properties ?? {}));

const operations = Object.entries(doc.paths)
  .flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  )
  .filter((o) => !ONLY || `${o.method.toUpperCase()} ${o.path}`.includes(ONLY));

interface Fixtures {
  agent: TestAgent;
  worker: TestWorker;
  other: TestAgent;
  adminBearer: string;
  known: KnownIds;
}

describe('API fuzzing from openapi/openapi.json', () => {
  let t: TestApp;
  let count = 0;

  beforeAll(async () => {
    t = await createTestApp({
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      WORKER_RATE_LIMIT_PER_MINUTE: '100000',
      JOBS_IN_PROCESS: 'false',
    });
  });
  afterAll(async () => {
    await t.close();
    console.log(
      `fuzzed ${operations.length} operations with ${count} requests (seed ${SEED}, ${RUNS} runs each)`,
    );
  });

  /** Fresh accounts per operation, so one operation's destructive requests (key rotation, ...) cannot starve another. */
  async function fixtures(): Promise<Fixtures> {
    const agent = await createAgent(t, { balanceCents: 10_000_000 });
    const other = await createAgent(t, { balanceCents: 1_000 });
    const worker = await createWorker(t);
    const admin = await createAdmin(t);
    const create = () => t.http.post('/v1/tasks/create').set('Authorization', agent.key).send(taskBody(t));
    const open = (await create()).body.task_id as string;
    const taken = (await create()).body.task_id as string;
    const accepted = await t.http
      .post(`/v1/worker/tasks/${taken}/accept`)
      .set('Authorization', worker.bearer);
    const assignment = accepted.body.assignment_id as string;
    const known: KnownIds = {
      task_id: [open, taken],
      assignment_id: [assignment],
      key_id: [agent.keyId],
      id: [agent.id],
    };
    return { agent, worker, other, adminBearer: admin.bearer, known };
  }

  function credentials(op: Operation, kind: AuthKind, f: Fixtures): Record<string, string> {
    const bySchema: Record<string, Record<string, string>> = {
      api_key: { Authorization: f.agent.key },
      agent_jwt: { Authorization: f.agent.bearer },
      worker_jwt: { Authorization: f.worker.bearer },
      admin_jwt: { Authorization: f.adminBearer },
      api_secret: { 'X-API-Secret': f.agent.apiSecret },
    };
    const requirements = op.security ?? [];
    const pick = (i: number): Record<string, string> =>
      Object.assign({}, ...Object.keys(requirements[i] ?? {}).map((s) => bySchema[s] ?? {}));
    switch (kind) {
      case 'valid':
        return requirements.length ? pick(0) : {};
      case 'alternative':
        return requirements.length ? pick(requirements.length - 1) : { Authorization: f.other.key };
      case 'none':
        return {};
      case 'other_actor': {
        const schemes = new Set(requirements.flatMap((r) => Object.keys(r)));
        if (!schemes.has('worker_jwt')) return { Authorization: f.worker.bearer };
        return { Authorization: f.other.key };
      }
      case 'garbage':
        return { Authorization: 'Bearer lw_test_not-a-real-key' };
    }
  }

  async function send(
    method: string,
    path: string,
    op: Operation,
    r: FuzzRequest,
    f: Fixtures,
  ): Promise<Response> {
    let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(r.path[name] ?? 'x'));
    if (r.query.length)
      url += `?${r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
    let req = t.http[method as 'get'](url);
    for (const [k, v] of Object.entries(credentials(op, r.auth, f))) req = req.set(k, v);
    if (r.idempotencyKey !== undefined) req = req.set('Idempotency-Key', r.idempotencyKey);
    if (r.body.kind === 'json')
      req = req.set('Content-Type', 'application/json').send(JSON.stringify(r.body.value));
    else if (r.body.kind === 'raw') req = req.set('Content-Type', r.body.contentType).send(r.body.text);
    count++;
    return req;
  }

  function problems(op: Operation, res: Response): string[] {
    const out: string[] = [];
    // Provider notifications answer in the provider's own protocol (WeChat Pay: 4xx/5xx {"code":"FAIL"} makes it
    // deliver again); only an unhandled error is a failure there.
    if (op.tags?.includes('provider callbacks')) {
      const code = (res.body as { error?: { code?: string } } | undefined)?.error?.code;
      return code === 'internal_error' ? ['unhandled error in a provider callback'] : [];
    }
    const documented = op.responses[String(res.status)];
    if (res.status >= 500 && !documented) out.push(`undocumented server error ${res.status}`);
    if (!documented && !GENERIC_4XX.has(res.status)) out.push(`status ${res.status} is not documented`);
    const type = String(res.headers['content-type'] ?? '');
    if (res.status === 204) return res.text ? [...out, '204 with a body'] : out;
    if (res.status >= 400) {
      if (!type.includes('application/json'))
        return [...out, `error answered as ${type || 'no content type'}`];
      const error = (res.body as { error?: { code?: unknown; message?: unknown } }).error;
      const code = String(error?.code);
      if (!error || typeof error.message !== 'string')
        return [...out, 'no {error: {code, message}} envelope'];
      if (!(code in ERRORS)) out.push(`error code ${code} is not in the error catalogue`);
      else if (ERRORS[code as ErrorCode].status !== res.status)
        out.push(`error code ${code} answered with status ${res.status}`);
      // The envelope matches the error schema, and every context field is one the schema declares.
      out.push(...validate(doc, ERROR_SCHEMA, res.body).slice(0, 5));
      const undeclared = Object.keys(error).filter((k) => !ERROR_FIELDS.has(k));
      if (undeclared.length) out.push(`error fields not in the schema: ${undeclared.join(', ')}`);
      return out;
    }
    const content = documented?.content;
    if (!content) return out;
    const json = content['application/json'];
    if (!json) {
      const types = Object.keys(content);
      if (!types.some((t) => type.startsWith(t)))
        out.push(`answered ${type}, documented ${types.join(', ')}`);
      return out;
    }
    if (!type.includes('application/json'))
      return [...out, `answered ${type || 'no content type'}, documented JSON`];
    return [...out, ...validate(doc, json.schema, res.body).slice(0, 5)];
  }

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s',
    async (_name, { path, method, op }) => {
      const f = await fixtures();
      await fc.assert(
        fc.asyncProperty(requestsFor(doc, method, op, f.known), async (r) => {
          const res = await send(method, path, op, r, f);
          const found = problems(op, res);
          if (found.length) {
            throw new Error(
              `${method.toUpperCase()} ${path} -> ${res.status}: ${found.join('; ')}\n` +
                `request: ${JSON.stringify({ ...r, body: truncate(r.body) })}\nresponse: ${truncate(res.text)}`,
            );
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: !process.env.FUZZ_SHRINK },
      );
    },
    120_000,
  );
});

function truncate(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s && s.length > 600 ? `${s.slice(0, 600)}… (${s.length} chars)` : s;
}
