import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { firstValueFrom, throwError } from 'rxjs';
import { IdempotencyInterceptor } from '../../src/idempotency/idempotency.interceptor';
import { IdempotencyKeys } from '../../src/idempotency/idempotency-keys';
import { IdempotencyStore } from '../../src/idempotency/idempotency.store';
import { createAgent, createWorker, fundAgent, TestAgent, uniqueKey } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { agentBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, createTask, feedback, HOUR, submit, SURFACES, taskBody } from '../support/tasks';

/** Body idempotency_key on creation and the Idempotency-Key header on every agent write. */
describe('idempotency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function taskCount(agent: TestAgent): Promise<number> {
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM tasks WHERE agent_id = $1`,
      [agent.id],
    );
    return n;
  }

  /** Whether the header key's stored answer was written by the transaction that last wrote `table`'s row `id`. */
  async function committedWith(agent: TestAgent, key: string, table: string, id: string): Promise<boolean> {
    const [row]: { same_tx: boolean }[] = await t.db.query(
      `SELECT k.xmin = r.xmin AS same_tx FROM idempotency_keys k, ${table} r
        WHERE k.agent_id = $1 AND k.scope = 'request' AND k.key = $2 AND r.id = $3`,
      [agent.id, key, id],
    );
    return row.same_tx;
  }

  async function holdCount(agent: TestAgent): Promise<number> {
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM ledger_journals WHERE agent_id = $1 AND kind = 'escrow_hold'`,
      [agent.id],
    );
    return n;
  }

  describe('body idempotency_key', () => {
    it.each(Object.values(SURFACES))(
      'a repeat on $name returns the original 201, even after the task moved on',
      async (surface) => {
        const agent = await createAgent(t, { balanceCents: 20_000 });
        const body = taskBody(t, { idempotency_key: uniqueKey() });
        const first = await surface.create(t).set('Authorization', agent.key).send(body).expect(201);
        expect(first.headers['idempotent-replayed']).toBeUndefined();
        await accept(t, await createWorker(t), first.body.task_id);
        const again = await surface.create(t).set('Authorization', agent.key).send(body).expect(201);
        expect(again.body).toEqual(first.body);
        expect(again.body.status).toBe('pending');
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(await taskCount(agent)).toBe(1);
        expect(await agentBalance(t, agent.id)).toBe(15_000);
      },
    );

    it('the same key with a different body is 409 idempotency_conflict and charges nothing', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const key = uniqueKey();
      await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .send(taskBody(t, { idempotency_key: key }))
        .expect(201);
      const res = await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .send(taskBody(t, { idempotency_key: key, budget_cents: 6000 }));
      expectError(res, 409, 'idempotency_conflict');
      expect(await taskCount(agent)).toBe(1);
      expect(await agentBalance(t, agent.id)).toBe(15_000);
    });

    it('keys are scoped to the agent', async () => {
      const [a, b] = [
        await createAgent(t, { balanceCents: 5000 }),
        await createAgent(t, { balanceCents: 5000 }),
      ];
      const body = taskBody(t, { idempotency_key: uniqueKey() });
      const ra = await SURFACES.v1.create(t).set('Authorization', a.key).send(body).expect(201);
      const rb = await SURFACES.v1.create(t).set('Authorization', b.key).send(body).expect(201);
      expect(ra.body.task_id).not.toBe(rb.body.task_id);
    });

    it('50 identical concurrent creations with one key: one task, one hold', async () => {
      const agent = await createAgent(t, { balanceCents: 100_000 });
      const body = taskBody(t, { idempotency_key: uniqueKey() });
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? SURFACES.v1 : SURFACES.api).create(t).set('Authorization', agent.key).send(body),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
      expect(new Set(results.map((r) => r.body.task_id as string)).size).toBe(1);
      expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(49);
      expect(await taskCount(agent)).toBe(1);
      expect(await holdCount(agent)).toBe(1);
      expect(await agentBalance(t, agent.id)).toBe(95_000);
    });
  });

  describe('body idempotency_key in the idempotency store', () => {
    const create = (agent: TestAgent, body: Record<string, unknown>, header?: string) => {
      const req = SURFACES.v1.create(t).set('Authorization', agent.key);
      if (header !== undefined) req.set('Idempotency-Key', header);
      return req.send(body);
    };

    async function storedKeys(
      agent: TestAgent,
    ): Promise<{ scope: string; key: string; status_code: number }[]> {
      return t.db.query(
        `SELECT scope, key, status_code FROM idempotency_keys WHERE agent_id = $1 ORDER BY scope, key`,
        [agent.id],
      );
    }

    it('the answer commits with the task under the body key, kept for good (no expiry)', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const key = uniqueKey();
      const res = await create(agent, taskBody(t, { idempotency_key: key })).expect(201);
      const [row]: { status_code: number; response: unknown; expires_at: string; same_tx: boolean }[] =
        await t.db.query(
          `SELECT k.status_code, k.response, k.expires_at::text, k.xmin = t.xmin AS same_tx
             FROM idempotency_keys k, tasks t
            WHERE k.agent_id = $1 AND k.scope = 'task' AND k.key = $2 AND t.id = $3`,
          [agent.id, key, res.body.task_id],
        );
      expect(row).toEqual({ status_code: 201, response: res.body, expires_at: 'infinity', same_tx: true });
    });

    it('a refused creation (402) leaves the body key free: once funded, the same key creates the task', async () => {
      const agent = await createAgent(t, { balanceCents: 1000 });
      const body = taskBody(t, { idempotency_key: uniqueKey() });
      expectError(await create(agent, body), 402, 'insufficient_balance');
      await fundAgent(t, agent.id, 10_000);
      const res = await create(agent, body).expect(201);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(await taskCount(agent)).toBe(1);
    });

    it('a repeat replays its task even once the deadline it asked for has passed', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const body = taskBody(t, { idempotency_key: uniqueKey() });
      const first = await create(agent, body).expect(201);
      t.clock.advance(25 * HOUR);
      try {
        const again = await create(agent, body).expect(201);
        expect(again.body).toEqual(first.body);
        expect(again.headers['idempotent-replayed']).toBe('true');
      } finally {
        t.clock.advance(-25 * HOUR);
      }
    });

    it('the conflict names the task the key created', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const key = uniqueKey();
      const first = await create(agent, taskBody(t, { idempotency_key: key })).expect(201);
      const res = await create(agent, taskBody(t, { idempotency_key: key, budget_cents: 6000 }));
      expectError(res, 409, 'idempotency_conflict');
      expect(res.body.error.task_id).toBe(first.body.task_id);
    });

    it("with both keys: one task; the answer is stored under both, in the task's transaction", async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const [header, key] = [uniqueKey('hdr'), uniqueKey('body')];
      const body = taskBody(t, { idempotency_key: key });
      const first = await create(agent, body, header).expect(201);
      expect(await storedKeys(agent)).toEqual([
        { scope: 'request', key: header, status_code: 201 },
        { scope: 'task', key, status_code: 201 },
      ]);
      const again = await create(agent, body, header).expect(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await taskCount(agent)).toBe(1);
    });

    it('with both keys: a new header key over a used body key answers the task the body key made', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const body = taskBody(t, { idempotency_key: uniqueKey() });
      const first = await create(agent, body).expect(201);
      const header = uniqueKey('hdr');
      const viaHeader = await create(agent, body, header).expect(201);
      expect(viaHeader.body).toEqual(first.body);
      expect(viaHeader.headers['idempotent-replayed']).toBe('true');
      // The header key now stores that answer: its own repeat replays it too.
      const again = await create(agent, body, header).expect(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await taskCount(agent)).toBe(1);
      expect(await agentBalance(t, agent.id)).toBe(15_000);
    });

    it('with both keys: the header key guards its exact request, so another body key under it is 409', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const header = uniqueKey('hdr');
      await create(agent, taskBody(t, { idempotency_key: uniqueKey() }), header).expect(201);
      const res = await create(agent, taskBody(t, { idempotency_key: uniqueKey() }), header);
      expectError(res, 409, 'idempotency_conflict');
      expect(await taskCount(agent)).toBe(1);
    });

    it('with both keys: 20 concurrent requests, each its own header key, one body key: one task', async () => {
      const agent = await createAgent(t, { balanceCents: 100_000 });
      const body = taskBody(t, { idempotency_key: uniqueKey() });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => create(agent, body, uniqueKey('hdr'))),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
      expect(new Set(results.map((r) => r.body.task_id as string)).size).toBe(1);
      expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
      expect(await taskCount(agent)).toBe(1);
      expect(await holdCount(agent)).toBe(1);
      // Every header key stored the one answer.
      const rows: { n: number }[] = await t.db.query(
        `SELECT count(*)::int AS n FROM idempotency_keys WHERE agent_id = $1 AND scope = 'request' AND status_code = 201`,
        [agent.id],
      );
      expect(rows[0].n).toBe(20);
    });
  });

  describe('Idempotency-Key header', () => {
    it('a repeated creation replays status and body with Idempotent-Replayed: true', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const key = uniqueKey();
      const body = taskBody(t);
      const first = await SURFACES.api
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send(body);
      expect(first.status).toBe(201);
      const again = await SURFACES.api
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send(body);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await taskCount(agent)).toBe(1);
    });

    it('the same key with a different body or path is 409 idempotency_conflict', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const key = uniqueKey();
      const body = taskBody(t);
      await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send(body)
        .expect(201);
      const otherBody = await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send({ ...body, title: 'Another' });
      expectError(otherBody, 409, 'idempotency_conflict');
      const otherPath = await SURFACES.api
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send(body);
      expectError(otherPath, 409, 'idempotency_conflict');
      expect(await taskCount(agent)).toBe(1);
    });

    it('4xx answers are stored and replayed (a 402 stays a 402 for that key)', async () => {
      const agent = await createAgent(t, { balanceCents: 1000 });
      const key = uniqueKey();
      const body = taskBody(t);
      const first = await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send(body);
      expectError(first, 402, 'insufficient_balance');
      await fundAgent(t, agent.id, 10_000);
      const again = await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send(body);
      expect(again.status).toBe(402);
      // The same error, with the request_id of the request that got it.
      expect(again.body).toEqual({
        error: { ...first.body.error, request_id: again.headers['x-request-id'] },
      });
      expect(again.body.error.request_id).not.toBe(first.body.error.request_id);
      expect(again.headers['idempotent-replayed']).toBe('true');
      // A new key runs the request again.
      await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', uniqueKey())
        .send(taskBody(t))
        .expect(201);
    });

    it('applies to cancellation on both surfaces: a repeat replays the first answer instead of a 409', async () => {
      for (const surface of Object.values(SURFACES)) {
        const agent = await createAgent(t, { balanceCents: 5000 });
        const taskId = (await surface.create(t).set('Authorization', agent.key).send(taskBody(t)).expect(201))
          .body.task_id as string;
        const key = uniqueKey();
        const first = await surface
          .cancel(t, taskId)
          .set('Authorization', agent.key)
          .set('Idempotency-Key', key)
          .expect(200);
        const again = await surface
          .cancel(t, taskId)
          .set('Authorization', agent.key)
          .set('Idempotency-Key', key)
          .expect(200);
        expect(again.body).toEqual(first.body);
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(await agentBalance(t, agent.id)).toBe(5000);
        expect(await committedWith(agent, key, 'tasks', taskId)).toBe(true);
      }
    });

    it('a review commits its answer with its effect (the handler passes the claim on)', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const worker = await createWorker(t);
      const taskId = await createTask(t, agent);
      expect((await submit(t, worker, await accept(t, worker, taskId))).status).toBe(200);
      const key = uniqueKey();
      const first = await feedback(t, agent, taskId, { accept_result: true })
        .set('Idempotency-Key', key)
        .expect(200);
      expect(await committedWith(agent, key, 'task_feedback', first.body.feedback_id as string)).toBe(true);
      const again = await feedback(t, agent, taskId, { accept_result: true })
        .set('Idempotency-Key', key)
        .expect(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('50 identical concurrent creations with one header key: one task, one hold', async () => {
      const agent = await createAgent(t, { balanceCents: 100_000 });
      const key = uniqueKey();
      const body = taskBody(t);
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          SURFACES.v1.create(t).set('Authorization', agent.key).set('Idempotency-Key', key).send(body),
        ),
      );
      const created = results.filter((r) => r.status === 201);
      // Repeats wait for the first to finish and replay it; a repeat that out-waits the bound gets 409 in progress.
      for (const r of results.filter((x) => x.status !== 201)) {
        expect(r.body.error).toMatchObject({ code: 'idempotency_conflict', in_progress: true });
      }
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.body.task_id as string)).size).toBe(1);
      expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
      expect(await taskCount(agent)).toBe(1);
      expect(await holdCount(agent)).toBe(1);
      expect(await agentBalance(t, agent.id)).toBe(95_000);
    });

    it('validation: an over-long key is 400 on the Idempotency-Key field', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const res = await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', 'k'.repeat(256))
        .send(taskBody(t));
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
      expect(await taskCount(agent)).toBe(0);
    });

    it('is ignored on worker requests (the header is for agent writes)', async () => {
      const agent = await createAgent(t, { balanceCents: 10_000 });
      const w = await createWorker(t);
      const ids = [
        (await SURFACES.v1.create(t).set('Authorization', agent.key).send(taskBody(t)).expect(201)).body
          .task_id,
        (await SURFACES.v1.create(t).set('Authorization', agent.key).send(taskBody(t)).expect(201)).body
          .task_id,
      ] as string[];
      const key = uniqueKey();
      for (const id of ids) {
        await t.http
          .post(`/v1/worker/tasks/${id}/accept`)
          .set('Authorization', w.bearer)
          .set('Idempotency-Key', key)
          .expect(200);
      }
      for (const id of ids) await SURFACES.v1.cancel(t, id).set('Authorization', agent.key).expect(200);
    });

    it('keys expire after 24 hours: the purge removes them and the key runs again', async () => {
      const agent = await createAgent(t, { balanceCents: 10_000 });
      const key = uniqueKey();
      const body = taskBody(t, { deadline_at: new Date(t.clock.now().getTime() + 72 * HOUR).toISOString() });
      await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send(body)
        .expect(201);
      t.clock.advance(24 * HOUR + 1000);
      const store = t.app.get(IdempotencyStore);
      expect(await store.purgeExpired()).toBeGreaterThanOrEqual(1);
      const rows: unknown[] = await t.db.query(`SELECT 1 FROM idempotency_keys WHERE agent_id = $1`, [
        agent.id,
      ]);
      expect(rows).toHaveLength(0);
      const again = await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .set('Idempotency-Key', key)
        .send(body);
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await taskCount(agent)).toBe(2);
    });

    it('a response carrying a credential shown once is never stored; a repeat is 409, not a second rotation', async () => {
      const agent = await createAgent(t);
      const key = uniqueKey();
      const rotate = () =>
        t.http
          .post('/v1/agent/api-keys')
          .set('Authorization', agent.bearer)
          .set('Idempotency-Key', key)
          .send({ name: 'CI key' });
      const first = await rotate().expect(201);
      expect(first.body.api_key).toMatch(/^lw_test_/);
      const rows: { response: unknown }[] = await t.db.query(
        `SELECT response FROM idempotency_keys WHERE agent_id = $1 AND key = $2`,
        [agent.id, key],
      );
      expect(JSON.stringify(rows[0].response)).not.toContain(first.body.api_key);
      expect(JSON.stringify(rows[0].response)).not.toContain(first.body.api_secret);
      const again = await rotate();
      expectError(again, 409, 'idempotency_conflict');
      // Not rotated a second time: the key from the first answer still works.
      await t.http.get('/v1/tasks').set('Authorization', `Bearer ${first.body.api_key}`).expect(200);
    });

    it('a server error is not stored: the key is released so a retry runs again', async () => {
      const agent = await createAgent(t);
      const interceptor = new IdempotencyInterceptor(t.app.get(IdempotencyKeys));
      const key = uniqueKey();
      const req = {
        method: 'POST',
        originalUrl: '/v1/tasks/create',
        body: { a: 1 },
        actor: { kind: 'agent', id: agent.id },
        header: (name: string) => (name.toLowerCase() === 'idempotency-key' ? key : undefined),
      };
      const res = { statusCode: 201, status: jest.fn(), setHeader: jest.fn() };
      const context = {
        getType: () => 'http',
        switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
      } as unknown as ExecutionContext;
      const failing: CallHandler = { handle: () => throwError(() => new Error('database went away')) };
      await expect(firstValueFrom(interceptor.intercept(context, failing))).rejects.toThrow(
        'database went away',
      );
      const rows: unknown[] = await t.db.query(
        `SELECT 1 FROM idempotency_keys WHERE agent_id = $1 AND key = $2`,
        [agent.id, key],
      );
      expect(rows).toHaveLength(0);
    });
  });
});
