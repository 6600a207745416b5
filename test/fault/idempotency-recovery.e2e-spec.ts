import { Client } from 'pg';
import type { AgentActor } from '../../src/common/actor';
import { PERMISSIONS } from '../../src/common/actor';
import type { KeyRef } from '../../src/idempotency/idempotency-context';
import { requestHash } from '../../src/idempotency/canonical-json';
import { CLAIM_LEASE_MS, IdempotencyStore } from '../../src/idempotency/idempotency.store';
import type { CreateTaskRequest } from '../../src/task/dtos/create-task.dto';
import { TaskCreationService } from '../../src/task/services/task-creation.service';
import { createAgent, TestAgent, uniqueKey } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { databaseUrl } from '../support/databases';
import { agentBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { taskBody } from '../support/tasks';

/**
 * Recovery of Idempotency-Key claims after a crash, in process (the kill -9 test does it for real): a claim left in
 * progress by a dead process is taken over by the next repeat; a live owner's claim is not; and token fencing lets
 * only one of an original and its takeover commit an effect.
 */
describe('idempotency claims after a crash', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const PATH = '/v1/tasks/create';

  /** A claim as a process that is gone (or alive: pass this instance's lease key) would have left it. */
  async function leftBehind(agent: TestAgent, key: string, body: unknown, owner: string): Promise<void> {
    await t.db.query(
      `INSERT INTO idempotency_keys (agent_id, key, request_hash, created_at, expires_at, owner, claim_token)
       VALUES ($1, $2, $3, $4, $4::timestamptz + interval '24 hours', $5, gen_random_uuid())`,
      [agent.id, key, requestHash('POST', PATH, body), t.clock.now(), owner],
    );
  }

  async function tasksOf(agent: TestAgent): Promise<number> {
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM tasks WHERE agent_id = $1`,
      [agent.id],
    );
    return n;
  }

  const DEAD_OWNER = '1234567890123';

  const ref = (agent: TestAgent, key: string): KeyRef => ({ agentId: agent.id, scope: 'request', key });

  it('a claim whose process died is taken over by the retry, which runs once', async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const key = uniqueKey();
    const body = taskBody(t);
    await leftBehind(agent, key, body, DEAD_OWNER);
    const res = await t.http
      .post(PATH)
      .set('Authorization', agent.key)
      .set('Idempotency-Key', key)
      .send(body);
    expect(res.status).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    const again = await t.http
      .post(PATH)
      .set('Authorization', agent.key)
      .set('Idempotency-Key', key)
      .send(body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(res.body);
    expect(await tasksOf(agent)).toBe(1);
    expect(await agentBalance(t, agent.id)).toBe(15_000);
  });

  it('the answer is stored in the same transaction as the task (no separate write afterwards)', async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const key = uniqueKey();
    const res = await t.http
      .post(PATH)
      .set('Authorization', agent.key)
      .set('Idempotency-Key', key)
      .send(taskBody(t))
      .expect(201);
    const [row]: { status_code: number; response: unknown; xmin_task: string; xmin_key: string }[] =
      await t.db.query(
        `SELECT k.status_code, k.response, t.xmin::text AS xmin_task, k.xmin::text AS xmin_key
           FROM idempotency_keys k, tasks t WHERE k.agent_id = $1 AND k.key = $2 AND t.id = $3`,
        [agent.id, key, res.body.task_id],
      );
    expect(row.status_code).toBe(201);
    expect(row.response).toEqual(res.body);
    expect(row.xmin_key).toBe(row.xmin_task);
  });

  it("another live process's claim is not taken over; once that process is gone, it is", async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const key = uniqueKey();
    const body = taskBody(t);
    const other = new Client({ connectionString: databaseUrl(t.databaseName) });
    await other.connect();
    const otherKey = '987654321987654';
    await other.query('SELECT pg_advisory_lock($1)', [otherKey]);
    await leftBehind(agent, key, body, otherKey);
    const store = t.app.get(IdempotencyStore);
    const hash = requestHash('POST', PATH, body);
    expect(await store.claim(ref(agent, key), hash)).toMatchObject({ status_code: null });
    await other.end();
    expect(await store.claim(ref(agent, key), hash)).toEqual({ token: expect.any(String) });
    expect(await tasksOf(agent)).toBe(0);
  });

  it("this process's own claim whose release failed is taken over by the next repeat, not before", async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const key = uniqueKey();
    const body = taskBody(t);
    const hash = requestHash('POST', PATH, body);
    const store = t.app.get(IdempotencyStore);
    const claim = await store.claim(ref(agent, key), hash);
    expect(claim).toEqual({ token: expect.any(String) });
    // Still executing: a repeat waits.
    expect(await store.claim(ref(agent, key), hash)).toMatchObject({ status_code: null });
    // Its request failed and the release did not reach the database: the claim is given up.
    store.settleLater((claim as { token: string }).token, async () => undefined, 'release');
    expect(await store.claim(ref(agent, key), hash)).toEqual({ token: expect.any(String) });
  });

  it('a live claim past the lease is taken over (a hung request)', async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const key = uniqueKey();
    const body = taskBody(t);
    const other = new Client({ connectionString: databaseUrl(t.databaseName) });
    await other.connect();
    await other.query('SELECT pg_advisory_lock($1)', ['987654321987655']);
    try {
      await leftBehind(agent, key, body, '987654321987655');
      t.clock.advance(CLAIM_LEASE_MS + 1000);
      const claim = await t.app.get(IdempotencyStore).claim(ref(agent, key), requestHash('POST', PATH, body));
      expect(claim).toEqual({ token: expect.any(String) });
    } finally {
      await other.end();
    }
  });

  it('an abandoned claim is not taken over by a different body: 409 idempotency_conflict', async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const key = uniqueKey();
    await leftBehind(agent, key, taskBody(t), DEAD_OWNER);
    const res = await t.http
      .post(PATH)
      .set('Authorization', agent.key)
      .set('Idempotency-Key', key)
      .send(taskBody(t, { budget_cents: 7000 }));
    expectError(res, 409, 'idempotency_conflict');
    expect(await tasksOf(agent)).toBe(0);
  });

  it('fencing: an original whose claim was taken over cannot commit its effect', async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    const key = uniqueKey();
    const body = taskBody(t);
    const hash = requestHash('POST', PATH, body);
    const store = t.app.get(IdempotencyStore);
    const original = await store.claim(ref(agent, key), hash);
    expect(original).toEqual({ token: expect.any(String) });
    // The original looked dead to someone: its claim was taken over (a new token).
    await t.db.query(
      `UPDATE idempotency_keys SET claim_token = gen_random_uuid() WHERE agent_id = $1 AND key = $2`,
      [agent.id, key],
    );
    const actor: AgentActor = {
      kind: 'agent',
      id: agent.id,
      scheme: 'api_key',
      keyId: agent.keyId,
      permissions: PERMISSIONS,
      limits: { perMinute: 1000, perDay: 100_000 },
    };
    const claim = { ref: ref(agent, key), token: (original as { token: string }).token, successStatus: 201 };
    await expect(
      t.app.get(TaskCreationService).create(actor, body as unknown as CreateTaskRequest, [claim]),
    ).rejects.toMatchObject({ code: 'idempotency_conflict' });
    expect(await tasksOf(agent)).toBe(0);
    expect(await agentBalance(t, agent.id)).toBe(20_000);
  });
});
