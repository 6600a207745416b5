import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { Test as Request } from 'supertest';
import { createAgent, createWorker, type TestAgent, uniqueKey } from '../support/actors';
import { createAdmin } from '../support/admins';
import type { TestApp } from '../support/app';
import {
  cashier,
  createQrOrder,
  type PaymentRig,
  referenceAuth,
  startPaymentRig,
} from '../support/payment-rig';
import { accept, createTask, submit, taskBody } from '../support/tasks';
import { waitForOrder } from '../support/waiters';
import { moneyHandlers } from './money-handlers';

/**
 * Exactly-once money writes, driven by the list in docs/architecture.md ("Money routes"):
 * - the list is complete: every route served by a handler whose calls reach idempotentTransaction is on it, and
 *   nothing else is;
 * - a route marked `@Claims()` has a handler that takes the request's claims with `@Claims()` and hands them to the
 *   call that leads to idempotentTransaction;
 * - for each route, one request with an Idempotency-Key stores its answer in the transaction that wrote the
 *   route's journals (an audit trigger records each write of the key with its transaction), the answer kept under
 *   the key is the answer the client got, and a repeat replays it and moves no money.
 * A handler that drops `@Claims()` (handing its service no claims) fails twice: the handler check, and its answer
 * then stored by the interceptor after the commit, in a transaction of its own.
 */
jest.setTimeout(120_000);

interface MoneyRoute {
  route: string;
  claims: boolean;
  journals: string[];
}

const ARCHITECTURE = join(__dirname, '..', '..', 'docs', 'architecture.md');

/** The rows of the "Money routes" table: `| \`METHOD /path\` | claim | \`kind\`, ... |`. */
function documentedRoutes(): MoneyRoute[] {
  const doc = readFileSync(ARCHITECTURE, 'utf8');
  const section = doc.split(/^### Money routes$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => /^\| `[A-Z]+ \//.test(line))
    .map((line) => {
      const [route, claim, journals] = line.split('|').slice(1, 4);
      return {
        route: route.trim().replace(/`/g, ''),
        claims: claim.includes('`@Claims()`'),
        journals: [...journals.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]),
      };
    });
}

/** Every route Nest serves, by the handler serving it (`ClassName.method`), paths as the document writes them. */
function routesByHandler(app: INestApplication): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const prefixes = [Reflect.getMetadata(PATH_METADATA, metatype) as string | string[]].flat();
      const proto = metatype.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const paths = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat();
        const served = prefixes.flatMap((prefix) =>
          paths.map((path) => `${RequestMethod[method]} ${join2(prefix, path)}`),
        );
        routes.set(`${metatype.name}.${name}`, [
          ...(routes.get(`${metatype.name}.${name}`) ?? []),
          ...served,
        ]);
      }
    }
  }
  return routes;
}

function join2(prefix: string, path: string): string {
  const joined = `/${[prefix, path]
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  return joined.replace(/:([A-Za-z_]+)/g, '{$1}');
}

/** How to make one request of a route with a key: what it needs set up first, and what it answers. */
interface Driver {
  status: number;
  /** The key's namespace among the agent's keys (the header's, or an operator credit's). */
  scope: 'request' | 'admin_credit';
  prepare(t: TestApp, agent: TestAgent): Promise<(key: string) => Request>;
}

/** A request of `method` to `path` with these headers and body, made with a given key (the same body each time). */
function keyed(
  t: TestApp,
  method: 'post' | 'delete',
  path: string,
  headers: Record<string, string>,
  body?: object,
): (key: string) => Request {
  return (key) => {
    const req = t.http[method](path).set(headers).set('Idempotency-Key', key);
    return body ? req.send(body) : req;
  };
}

const asAgent = (agent: TestAgent) => ({ Authorization: agent.key });

/** A task with one submitted result, ready for a verdict. */
async function submittedTask(t: TestApp, agent: TestAgent): Promise<string> {
  const taskId = await createTask(t, agent);
  const worker = await createWorker(t);
  const res = await submit(t, worker, await accept(t, worker, taskId));
  if (res.status !== 200) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body)}`);
  return taskId;
}

/** A completed Alipay top-up of the agent's, paid at the sandbox's cashier. */
async function paidOrder(rig: PaymentRig, agent: TestAgent): Promise<string> {
  const order = await createQrOrder(rig, agent, 'alipay', 5000);
  await cashier(order.qr, 'pay');
  await waitForOrder(rig.t, order.id, 'completed');
  return order.id;
}

function drivers(rig: PaymentRig): Record<string, Driver> {
  const verdict = { accept_result: true, rating: 5, quality_score: 4.5 };
  const agentRoute = (status: number, prepare: Driver['prepare']): Driver => ({
    status,
    scope: 'request',
    prepare,
  });
  return {
    'POST /v1/tasks/create': agentRoute(201, async (t, agent) =>
      keyed(t, 'post', '/v1/tasks/create', asAgent(agent), taskBody(t)),
    ),
    'POST /api/v1/tasks': agentRoute(201, async (t, agent) =>
      keyed(t, 'post', '/api/v1/tasks', asAgent(agent), taskBody(t)),
    ),
    'POST /v1/tasks/{task_id}/cancel': agentRoute(200, async (t, agent) =>
      keyed(t, 'post', `/v1/tasks/${await createTask(t, agent)}/cancel`, asAgent(agent)),
    ),
    'DELETE /api/v1/tasks/{task_id}': agentRoute(200, async (t, agent) =>
      keyed(t, 'delete', `/api/v1/tasks/${await createTask(t, agent)}`, asAgent(agent)),
    ),
    'POST /v1/tasks/{task_id}/feedback': agentRoute(200, async (t, agent) =>
      keyed(t, 'post', `/v1/tasks/${await submittedTask(t, agent)}/feedback`, asAgent(agent), verdict),
    ),
    'POST /api/v1/tasks/{task_id}/feedback': agentRoute(200, async (t, agent) =>
      keyed(t, 'post', `/api/v1/tasks/${await submittedTask(t, agent)}/feedback`, asAgent(agent), verdict),
    ),
    'POST /v1/payment/refund': agentRoute(200, async (t, agent) =>
      keyed(t, 'post', '/v1/payment/refund', asAgent(agent), {
        order_id: await paidOrder(rig, agent),
        refund_amount_cents: 1500,
        refund_reason: 'other',
      }),
    ),
    'POST /api/v1/payment/refund': agentRoute(200, async (t, agent) =>
      keyed(t, 'post', '/api/v1/payment/refund', referenceAuth(agent), {
        order_id: await paidOrder(rig, agent),
        amount: 1500,
        reason: 'quality_issue',
      }),
    ),
    'POST /v1/admin/agents/{id}/credit': {
      status: 201,
      scope: 'admin_credit',
      prepare: async (t, agent) =>
        keyed(
          t,
          'post',
          `/v1/admin/agents/${agent.id}/credit`,
          { Authorization: (await createAdmin(t)).bearer },
          {
            amount_cents: 2500,
            reason: 'Bank transfer received',
          },
        ),
    },
  };
}

/**
 * Records every write of an idempotency key (the claim, the answer stored with the effect, a later final answer)
 * with the transaction that made it: the key's own row keeps only its last writer (xmin).
 */
async function installKeyAudit(t: TestApp): Promise<void> {
  await t.db.query(`
    CREATE TABLE idempotency_key_writes (
      seq bigserial PRIMARY KEY, agent_id uuid, scope text, key text, status_code integer, response jsonb,
      tx xid8 NOT NULL DEFAULT pg_current_xact_id())`);
  await t.db.query(`
    CREATE FUNCTION record_idempotency_key_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO idempotency_key_writes (agent_id, scope, key, status_code, response)
      VALUES (NEW.agent_id, NEW.scope, NEW.key, NEW.status_code, NEW.response);
      RETURN NULL;
    END $$`);
  await t.db.query(`CREATE TRIGGER record_idempotency_key_write AFTER INSERT OR UPDATE ON idempotency_keys
                    FOR EACH ROW EXECUTE FUNCTION record_idempotency_key_write()`);
}

describe('exactly-once money routes (docs/architecture.md, "Money routes")', () => {
  const documented = documentedRoutes();
  let rig: PaymentRig;
  let t: TestApp;
  beforeAll(async () => {
    rig = await startPaymentRig();
    t = rig.t;
    await installKeyAudit(t);
  });
  afterAll(() => rig.close());

  it('the list reads as a table of routes, claims and journal kinds', () => {
    expect(documented.length).toBeGreaterThanOrEqual(9);
    for (const r of documented) {
      expect(r.route).toMatch(/^(POST|PUT|PATCH|DELETE) \/\S+$/);
      expect(r.journals.length).toBeGreaterThan(0);
    }
  });

  it('names every route whose handler reaches idempotentTransaction, and each @Claims() route hands its claim on', () => {
    const handlers = moneyHandlers();
    const routes = routesByHandler(t.app);
    const served = handlers.flatMap((h) => (routes.get(h.handler) ?? []).map((route) => ({ route, ...h })));
    expect(served.map((s) => s.route).sort()).toEqual(documented.map((d) => d.route).sort());
    const dropped = documented
      .filter((d) => d.claims)
      .map((d) => served.find((s) => s.route === d.route)!)
      .filter((s) => !s.claims || !s.passesClaims)
      .map((s) => `${s.route} (${s.handler}): ${s.claims ? 'does not hand on' : 'takes no'} @Claims()`);
    expect(dropped).toEqual([]);
  });

  describe.each(documented)('$route', ({ route, journals }) => {
    it('stores its answer in the transaction that writes its journals; a repeat replays it and moves nothing', async () => {
      const driver = drivers(rig)[route];
      if (!driver)
        throw new Error(`${route} is a money route with no request in this spec: add one to drivers()`);
      const agent = await createAgent(t, { balanceCents: 100_000 });
      const send = await driver.prepare(t, agent);
      const [{ last }]: { last: string }[] = await t.db.query(
        `SELECT COALESCE(max(id), 0)::text AS last FROM ledger_journals`,
      );
      const journalsMade = async (): Promise<{ kind: string; tx: string }[]> =>
        t.db.query(
          `SELECT kind, xmin::text AS tx FROM ledger_journals WHERE id > $1 AND agent_id = $2 ORDER BY id`,
          [last, agent.id],
        );
      const key = uniqueKey('exactly-once');

      const res = await send(key);
      expect(res.status).toBe(driver.status);
      expect(res.headers['idempotent-replayed']).toBeUndefined();

      const made = await journalsMade();
      expect(made.length).toBeGreaterThan(0);
      expect(made.filter((j) => !journals.includes(j.kind))).toEqual([]);
      const writes: { status_code: number | null; response: unknown; tx: string }[] = await t.db.query(
        `SELECT status_code, response, tx::text AS tx FROM idempotency_key_writes
          WHERE agent_id = $1 AND scope = $2 AND key = $3 ORDER BY seq`,
        [agent.id, driver.scope, key],
      );
      const answered = writes.filter((w) => w.status_code !== null);
      expect(answered.length).toBeGreaterThan(0);
      // xmin is a 32-bit transaction id; the audit keeps the full 64-bit one (epoch above it).
      const firstAnswerTx = (BigInt(answered[0].tx) % 2n ** 32n).toString();
      expect(made.map((j) => j.tx)).toEqual(made.map(() => firstAnswerTx));
      // What stays under the key is what the client got (a refund's final answer follows the provider's).
      expect(answered.at(-1)).toMatchObject({ status_code: driver.status, response: res.body });

      const again = await send(key);
      expect(again.status).toBe(driver.status);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(res.body);
      expect(await journalsMade()).toEqual(made);
    });
  });
});
