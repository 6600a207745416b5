import fc from 'fast-check';
import type { Response } from 'supertest';
import { createAdmin } from '../support/admins';
import { taskBody } from '../support/tasks';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { credentials, problems, truncate } from './answers';
import { FuzzRequest, KnownIds, requestsFor } from './requests';
import { loadOpenApi, Operation } from '../support/openapi-schemas';

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

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s',
    async (_name, { path, method, op }) => {
      const f = await fixtures();
      await fc.assert(
        fc.asyncProperty(requestsFor(doc, method, op, f.known), async (r) => {
          const res = await send(method, path, op, r, f);
          const found = problems(doc, op, res);
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
