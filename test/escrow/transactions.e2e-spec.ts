import { randomUUID } from 'node:crypto';
import { inTransaction } from '../../src/database/transaction';
import { Ledger } from '../../src/escrow/services/ledger';
import { createTestApp, TestApp } from '../support/app';
import { createAgent, fundAgent, TestAgent } from '../support/actors';
import { atTime, seedTask } from '../support/seed-tasks';

interface Expected {
  type: 'payment' | 'refund' | 'deposit';
  direction: 'credit' | 'debit';
  amount: number;
  task_id: string | null;
  order_id: string | null;
  at: Date;
}

type Row = Expected & { transaction_id: string; created_at: string };

const DAY = 86_400_000;

describe('transaction history', () => {
  let t: TestApp;
  let agent: TestAgent;
  let other: TestAgent;
  /** Visible movements of `agent`, most recent first (ties: the later posting first). */
  let expected: Expected[];
  /** Midnight UTC, 40 days ago: seeded history lies in the past, at known instants. */
  let base: number;
  let failedTaskId: string;
  let cancelledTaskId: string;
  const at = (day: number, hour = 12) => new Date(base + day * DAY + hour * 3_600_000);
  const isoDay = (day: number) => at(day, 0).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await createTestApp();
    const now = t.clock.now();
    base = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 40 * DAY;
    agent = await createAgent(t);
    other = await createAgent(t, { balanceCents: 999 });
    const ledger = t.app.get(Ledger);
    const list: Expected[] = [];
    const push = (e: Omit<Expected, 'task_id' | 'order_id'> & Partial<Expected>) =>
      list.push({ task_id: null, order_id: null, ...e });

    await atTime(t, at(0, 9), () => fundAgent(t, agent.id, 200000));
    push({ type: 'deposit', direction: 'credit', amount: 200000, at: at(0, 9) });

    const pending = await seedTask(t, agent.id, { status: 'pending', budgetCents: 3000, createdAt: at(1) });
    push({ type: 'payment', direction: 'debit', amount: 3000, task_id: pending.id, at: at(1) });

    // A completed task: the hold is a payment; the release only touches escrow, so it is no row.
    const done = await seedTask(t, agent.id, { status: 'completed', budgetCents: 5000, createdAt: at(2) });
    push({ type: 'payment', direction: 'debit', amount: 5000, task_id: done.id, at: at(2) });

    // Three slots refunded in one transaction share one instant (keyset ties are broken by id).
    const failed = await seedTask(t, agent.id, {
      status: 'failed',
      budgetCents: 2000,
      maxWorkers: 3,
      createdAt: at(3),
    });
    failedTaskId = failed.id;
    push({ type: 'payment', direction: 'debit', amount: 6000, task_id: failed.id, at: at(3) });
    for (let i = 0; i < 3; i++)
      push({ type: 'refund', direction: 'credit', amount: 2000, task_id: failed.id, at: at(3, 13) });

    // Cancelling an accepted slot: the agent's 70 % is a refund; the worker's 30 % is not the agent's movement.
    const cancelled = await seedTask(t, agent.id, {
      status: 'cancelled',
      budgetCents: 2000,
      createdAt: at(4),
    });
    cancelledTaskId = cancelled.id;
    push({ type: 'payment', direction: 'debit', amount: 2000, task_id: cancelled.id, at: at(4) });
    push({ type: 'refund', direction: 'credit', amount: 1400, task_id: cancelled.id, at: at(4, 13) });

    // A paid order credits the balance; refunding it to the payer is a refund that debits the balance.
    const orderId = `ord_${randomUUID()}`;
    await atTime(t, at(5, 10), () =>
      inTransaction(t.db, (em) =>
        ledger.deposit(em, {
          agentId: agent.id,
          amountCents: 8000,
          provider: 'alipay',
          orderId,
          taskId: pending.id,
          description: 'Order paid',
        }),
      ),
    );
    push({
      type: 'deposit',
      direction: 'credit',
      amount: 8000,
      order_id: orderId,
      task_id: pending.id,
      at: at(5, 10),
    });
    await atTime(t, at(6, 10), () =>
      inTransaction(t.db, (em) =>
        ledger.refundToPayer(em, {
          agentId: agent.id,
          refundId: `rfd_${randomUUID()}`,
          amountCents: 3000,
          provider: 'alipay',
          orderId,
        }),
      ),
    );
    push({ type: 'refund', direction: 'debit', amount: 3000, order_id: orderId, at: at(6, 10) });
    expected = list.reverse();
  });
  afterAll(() => t.close());

  const strip = (r: Row): Expected => ({
    type: r.type,
    direction: r.direction,
    amount: r.amount,
    task_id: r.task_id,
    order_id: r.order_id,
    // The test clock keeps running while a fixture posts, so a journal lands a few ms after its nominal instant.
    at: new Date(Math.floor(Date.parse(r.created_at) / 1000) * 1000),
  });
  const offsetPage = (a: TestAgent, query: Record<string, string | number> = {}) =>
    t.http.get('/v1/agent/transactions').query(query).set('Authorization', a.bearer);
  const cursorPage = (a: TestAgent, query: Record<string, string | number> = {}) =>
    t.http
      .get('/api/v1/payment/transactions')
      .query(query)
      .set('Authorization', a.key)
      .set('X-API-Secret', a.apiSecret);

  describe('GET /v1/agent/transactions (offset pages, JWT only)', () => {
    it('lists every movement of the available balance, most recent first, in the documented shape', async () => {
      const res = await offsetPage(agent).expect(200);
      expect(res.body).toMatchObject({ total: expected.length, skip: 0, limit: 20, has_more: false });
      expect(res.body.data.map(strip)).toEqual(expected);
      for (const row of res.body.data) {
        expect(Object.keys(row).sort()).toEqual(
          [
            'amount',
            'created_at',
            'currency',
            'description',
            'direction',
            'order_id',
            'status',
            'task_id',
            'transaction_id',
            'type',
          ].sort(),
        );
        expect(row).toMatchObject({
          currency: 'CNY',
          status: 'completed',
          transaction_id: expect.stringMatching(/^txn_\d+$/),
        });
      }
    });

    it('signed amounts add up to the available balance', async () => {
      const res = await offsetPage(agent, { limit: 100 }).expect(200);
      const sum = res.body.data.reduce(
        (s: number, r: Row) => s + (r.direction === 'credit' ? r.amount : -r.amount),
        0,
      );
      const balance = await t.http.get('/v1/payment/balance').set('Authorization', agent.key).expect(200);
      expect(sum).toBe(balance.body.balance_cents);
    });

    it('skip/limit pages walk the whole list once', async () => {
      const seen: Row[] = [];
      for (let skip = 0; ; skip += 3) {
        const res = await offsetPage(agent, { skip, limit: 3 }).expect(200);
        expect(res.body).toMatchObject({ total: expected.length, skip, limit: 3 });
        seen.push(...res.body.data);
        expect(res.body.has_more).toBe(skip + 3 < expected.length);
        if (!res.body.has_more) break;
      }
      expect(seen.map(strip)).toEqual(expected);
      expect(new Set(seen.map((r) => r.transaction_id)).size).toBe(expected.length);
      const beyond = await offsetPage(agent, { skip: 50 }).expect(200);
      expect(beyond.body).toMatchObject({ data: [], total: expected.length, has_more: false });
    });

    it('start_date/end_date: bare dates cover whole UTC days; date-times are inclusive instants', async () => {
      const days = await offsetPage(agent, { start_date: isoDay(3), end_date: isoDay(4) }).expect(200);
      const inDays = expected.filter((e) => e.at >= at(3, 0) && e.at < at(5, 0));
      expect(inDays).toHaveLength(6);
      expect(days.body.total).toBe(6);
      expect(days.body.data.map(strip)).toEqual(inDays);

      // Exact instants of two rows as bounds: both ends are included.
      const all: Row[] = (await offsetPage(agent, { limit: 100 }).expect(200)).body.data;
      const firstRefund = all.filter((r) => r.type === 'refund' && r.task_id === failedTaskId).at(-1)!;
      const cancelHold = all.find((r) => r.type === 'payment' && r.task_id === cancelledTaskId)!;
      const instants = await offsetPage(agent, {
        start_date: firstRefund.created_at,
        end_date: cancelHold.created_at,
      }).expect(200);
      expect(instants.body.data.map(strip)).toEqual(
        expected.filter((e) => e.at >= at(3, 13) && e.at <= at(4, 12)),
      );
      expect(instants.body.total).toBe(4);

      const open = await offsetPage(agent, { start_date: isoDay(5) }).expect(200);
      expect(open.body.total).toBe(2);
      const until = await offsetPage(agent, { end_date: isoDay(0) }).expect(200);
      expect(until.body.total).toBe(1);
      const offset = await offsetPage(agent, { start_date: `${isoDay(6)}T18:00:00+08:00` }).expect(200);
      expect(offset.body.total).toBe(1); // 18:00 +08:00 is 10:00 UTC: the payer refund is included
    });

    it.each([
      [{ skip: -1 }, 'skip'],
      [{ skip: 'x' }, 'skip'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ limit: 2.5 }, 'limit'],
      [{ start_date: 'yesterday' }, 'start_date'],
      [{ start_date: '2024-02-30' }, 'start_date'],
      [{ end_date: '2024-01-01T25:00:00Z' }, 'end_date'],
      [{ start_date: '2024-03-02', end_date: '2024-03-01' }, 'start_date'],
      [{ page: 2 }, 'page'],
    ])('refuses %j with 400 validation_error on %s', async (query, field) => {
      const res = await offsetPage(agent, query).expect(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('is for console sessions: an API key is 403; another agent sees only its own rows', async () => {
      const res = await t.http.get('/v1/agent/transactions').set('Authorization', agent.key).expect(403);
      expect(res.body.error.code).toBe('forbidden');
      const mine = await offsetPage(other).expect(200);
      expect(mine.body.total).toBe(1);
      expect(mine.body.data[0]).toMatchObject({ type: 'deposit', amount: 999 });
      const stranger = await createAgent(t);
      expect((await offsetPage(stranger).expect(200)).body).toEqual({
        data: [],
        total: 0,
        skip: 0,
        limit: 20,
        has_more: false,
      });
    });
  });

  describe('GET /api/v1/payment/transactions (cursor pages, X-API-Secret)', () => {
    it('walks the list with starting_after in the same order as the offset pages', async () => {
      const seen: Row[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const res = await cursorPage(agent, {
          limit: 4,
          ...(cursor ? { starting_after: cursor } : {}),
        }).expect(200);
        seen.push(...res.body.data);
        expect(res.body.has_more).toBe(seen.length < expected.length);
        expect(res.body.next_cursor).toBe(res.body.has_more ? res.body.data.at(-1).transaction_id : null);
        if (!res.body.has_more) break;
        cursor = res.body.next_cursor;
      }
      expect(seen.map(strip)).toEqual(expected);
      const first = await cursorPage(agent).expect(200);
      expect(first.body).toMatchObject({ has_more: false, next_cursor: null });
      expect(first.body.data).toHaveLength(expected.length);
    });

    it('rows posted at the same instant keep a stable order (newest id first) across cursor pages', async () => {
      const tied = await createAgent(t);
      const instant = at(7);
      const now = jest.spyOn(t.clock, 'now').mockReturnValue(instant);
      try {
        for (const amount of [101, 102, 103, 104, 105]) await fundAgent(t, tied.id, amount);
      } finally {
        now.mockRestore();
      }
      const amounts: number[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 6; i++) {
        const res = await cursorPage(tied, {
          limit: 1,
          ...(cursor ? { starting_after: cursor } : {}),
        }).expect(200);
        amounts.push(...res.body.data.map((r: Row) => r.amount));
        expect(res.body.data.every((r: Row) => r.created_at === instant.toISOString())).toBe(true);
        if (!res.body.has_more) break;
        cursor = res.body.next_cursor;
      }
      expect(amounts).toEqual([105, 104, 103, 102, 101]);
      const offsets = await offsetPage(tied, { skip: 1, limit: 3 }).expect(200);
      expect(offsets.body.data.map((r: Row) => r.amount)).toEqual([104, 103, 102]);
    });

    it('filters by type and status', async () => {
      for (const type of ['payment', 'refund', 'deposit'] as const) {
        const res = await cursorPage(agent, { type, limit: 100 }).expect(200);
        expect(res.body.data.map(strip)).toEqual(expected.filter((e) => e.type === type));
      }
      expect((await cursorPage(agent, { type: 'all', status: 'completed' })).body.data).toHaveLength(
        expected.length,
      );
      for (const status of ['pending', 'failed']) {
        const res = await cursorPage(agent, { status }).expect(200);
        expect(res.body).toEqual({ data: [], has_more: false, next_cursor: null });
      }
      const refunds = await cursorPage(agent, { type: 'refund', limit: 2 }).expect(200);
      const next = await cursorPage(agent, {
        type: 'refund',
        limit: 10,
        starting_after: refunds.body.next_cursor,
      }).expect(200);
      expect([...refunds.body.data, ...next.body.data].map(strip)).toEqual(
        expected.filter((e) => e.type === 'refund'),
      );
    });

    it.each([
      [{ type: 'withdrawal' }, 'type'],
      [{ status: 'done' }, 'status'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ starting_after: 'txn_999999999' }, 'starting_after'],
      [{ starting_after: 'nonsense' }, 'starting_after'],
    ])('refuses %j with 400 validation_error on %s', async (query, field) => {
      const res = await cursorPage(agent, query).expect(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it("another agent's transaction_id is not a cursor, and their rows are not mine", async () => {
      const theirs = await cursorPage(other).expect(200);
      expect(theirs.body.data).toHaveLength(1);
      const res = await cursorPage(agent, { starting_after: theirs.body.data[0].transaction_id }).expect(400);
      expect(res.body.error.details[0].field).toBe('starting_after');
    });

    it('needs the secret (401 invalid_credentials) and payment:read (403)', async () => {
      const res = await t.http
        .get('/api/v1/payment/transactions')
        .set('Authorization', agent.key)
        .expect(401);
      expect(res.body.error.code).toBe('invalid_credentials');
      const limited = await createAgent(t, { permissions: ['task:read'] });
      const denied = await cursorPage(limited).expect(403);
      expect(denied.body.error).toMatchObject({
        code: 'insufficient_permissions',
        required_permission: 'payment:read',
      });
      // A JWT works as the bearer with the agent's secret.
      await t.http
        .get('/api/v1/payment/transactions')
        .set('Authorization', agent.bearer)
        .set('X-API-Secret', agent.apiSecret)
        .expect(200);
    });
  });
});
