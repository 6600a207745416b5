import { randomUUID } from 'node:crypto';
import { GrantTokens } from '../../src/auth/grant-tokens';
import { periodBounds } from '../../src/escrow/spend-periods';
import { createAgent, type TestAgent } from '../support/actors';
import { createTestApp, type TestApp } from '../support/app';
import { agentBalance } from '../support/balances';
import { taskBody } from '../support/tasks';

/**
 * Spend caps on an API key (product-decisions §21): counted = the totals of the tasks the key created in the China
 * time day or month, less refunds later made on them; a creation passes when counted + total <= cap, checked in the
 * escrow hold's transaction; otherwise 402 spend_cap_exceeded with its body and nothing changes.
 */
describe('spend caps on API keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function setCaps(agent: TestAgent, body: Record<string, unknown>) {
    const res = await t.http
      .patch(`/v1/agent/api-keys/${agent.keyId}`)
      .set('Authorization', agent.bearer)
      .send(body);
    expect(res.status).toBe(200);
    return res.body;
  }

  const create = (agent: TestAgent, over: Record<string, unknown> = {}) =>
    t.http.post('/v1/tasks/create').set('Authorization', agent.key).send(taskBody(t, over));

  async function tasksOf(agentId: string): Promise<number> {
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM tasks WHERE agent_id = $1`,
      [agentId],
    );
    return n;
  }

  it('20 concurrent creations against a cap covering 5: exactly 5 succeed, 15 are 402 with the body', async () => {
    const agent = await createAgent(t, { balanceCents: 100_000 });
    await setCaps(agent, { spend_caps: { daily_cents: 5_000 } });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(agent, { budget_cents: 1_000, title: `Task ${i}` })),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(15);
    const resetsAt = periodBounds('daily', t.clock.now()).resetsAt.toISOString();
    for (const r of refused) {
      expect(r.status).toBe(402);
      expect(r.body.error).toEqual(
        expect.objectContaining({
          code: 'spend_cap_exceeded',
          period: 'daily',
          cap_cents: 5_000,
          counted_cents: 5_000,
          remaining_cents: 0,
          resets_at: resetsAt,
        }),
      );
    }
    expect(await tasksOf(agent.id)).toBe(5);
    expect(await agentBalance(t, agent.id)).toBe(95_000);
    const [key] = (await t.http.get('/v1/agent/api-keys').set('Authorization', agent.bearer).expect(200))
      .body;
    expect(key.spend_caps).toEqual({ daily_cents: 5_000, monthly_cents: null });
    expect(key.spend).toEqual([
      { period: 'daily', cap_cents: 5_000, counted_cents: 5_000, remaining_cents: 0, resets_at: resetsAt },
    ]);
  });

  it('a refused creation changes nothing; a refund lowers the counted amount', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    await setCaps(agent, { spend_caps: { daily_cents: 3_000 } });
    const first = await create(agent, { budget_cents: 2_000 });
    expect(first.status).toBe(201);
    const over = await create(agent, { budget_cents: 1_500 });
    // 2 000 + 1 500 > 3 000.
    expect(over.status).toBe(402);
    expect(over.body.error).toMatchObject({ counted_cents: 2_000, remaining_cents: 1_000, cap_cents: 3_000 });
    expect(await agentBalance(t, agent.id)).toBe(8_000);
    expect(await tasksOf(agent.id)).toBe(1);

    // Cancelling the open task refunds its whole cost to the balance: it no longer counts.
    await t.http.post(`/v1/tasks/${first.body.task_id}/cancel`).set('Authorization', agent.key).expect(200);
    const me = await t.http.get('/v1/agent/me').set('Authorization', agent.key).expect(200);
    expect(me.body.spend_caps).toEqual({
      daily_cents: 3_000,
      monthly_cents: null,
      approval_ceiling_cents: 0,
    });
    expect(me.body.spend).toEqual([expect.objectContaining({ period: 'daily', counted_cents: 0 })]);
    expect((await create(agent, { budget_cents: 3_000 })).status).toBe(201);
  });

  it('daily and monthly caps: the day resets, the month keeps counting', async () => {
    const agent = await createAgent(t, { balanceCents: 20_000 });
    // Set before moving the clock: the console session (JWT) does not outlive the move.
    await setCaps(agent, { spend_caps: { daily_cents: 2_000, monthly_cents: 3_500 } });
    // Start just after a China-time midnight whose next day is in the same month.
    const now = t.clock.now();
    let dayStart = periodBounds('daily', now).resetsAt;
    if (periodBounds('monthly', dayStart).resetsAt.getTime() - dayStart.getTime() < 2 * 86_400_000) {
      dayStart = periodBounds('monthly', dayStart).resetsAt;
    }
    t.clock.advance(dayStart.getTime() - now.getTime() + 60_000);
    expect((await create(agent, { budget_cents: 2_000 })).status).toBe(201);
    const day = await create(agent, { budget_cents: 1_000 });
    expect(day.status).toBe(402);
    expect(day.body.error).toMatchObject({ period: 'daily', counted_cents: 2_000 });

    t.clock.advance(86_400_000);
    expect((await create(agent, { budget_cents: 1_000 })).status).toBe(201);
    // The day has room (1 000 + 1 000 <= 2 000), the month does not (3 000 + 1 000 > 3 500).
    const month = await create(agent, { budget_cents: 1_000 });
    expect(month.status).toBe(402);
    expect(month.body.error).toMatchObject({
      period: 'monthly',
      cap_cents: 3_500,
      counted_cents: 3_000,
      remaining_cents: 500,
      resets_at: periodBounds('monthly', t.clock.now()).resetsAt.toISOString(),
    });
  });

  it('caps are kept across key rotation, and the count carries on', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    await setCaps(agent, { spend_caps: { daily_cents: 2_500 }, approval_ceiling_cents: 4_000 });
    expect((await create(agent, { budget_cents: 2_000 })).status).toBe(201);
    const rotated = await t.http
      .post('/v1/agent/api-keys')
      .set('Authorization', agent.bearer)
      .send({ name: 'Rotated' })
      .expect(201);
    expect(rotated.body.spend_caps).toEqual({ daily_cents: 2_500, monthly_cents: null });
    expect(rotated.body.approval_ceiling_cents).toBe(4_000);
    const again = await t.http
      .post('/v1/tasks/create')
      .set('Authorization', `Bearer ${rotated.body.api_key}`)
      .send(taskBody(t, { budget_cents: 1_000 }));
    expect(again.status).toBe(402);
    expect(again.body.error).toMatchObject({ code: 'spend_cap_exceeded', counted_cents: 2_000 });
  });

  it('{} removes the caps; the console session is not capped; bad caps are 400 and change nothing', async () => {
    const agent = await createAgent(t, { balanceCents: 10_000 });
    await setCaps(agent, { spend_caps: { daily_cents: 0 } });
    expect((await create(agent, { budget_cents: 1_000 })).status).toBe(402);
    // The agent's own console session spends as the person: no cap.
    await t.http
      .post('/v1/tasks/create')
      .set('Authorization', agent.bearer)
      .send(taskBody(t, { budget_cents: 1_000 }))
      .expect(201);
    for (const bad of [{ daily_cents: -1 }, { daily_cents: 1.5 }, { weekly_cents: 100 }, 'all']) {
      const res = await t.http
        .patch(`/v1/agent/api-keys/${agent.keyId}`)
        .set('Authorization', agent.bearer)
        .send({ spend_caps: bad });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    expect((await setCaps(agent, { name: 'Renamed' })).spend_caps).toEqual({
      daily_cents: 0,
      monthly_cents: null,
    });
    expect((await setCaps(agent, { spend_caps: {} })).spend_caps).toEqual({
      daily_cents: null,
      monthly_cents: null,
    });
    expect((await create(agent, { budget_cents: 1_000 })).status).toBe(201);
  });

  it('an OAuth grant (the token /mcp calls the API with) is capped by the caps set at consent, concurrently too', async () => {
    const agent = await createAgent(t, { balanceCents: 100_000 });
    const grantId = randomUUID();
    await t.db.query(
      `INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, token_endpoint_auth_method)
       VALUES ($1, 'registered', 'Test host', ARRAY['http://127.0.0.1/cb'], 'none')`,
      [`client-${grantId}`],
    );
    await t.db.query(
      `INSERT INTO oauth_grants (id, agent_id, client_id, client_host, permissions, spend_caps, created_at)
       VALUES ($1, $2, $3, '127.0.0.1', ARRAY['task:create', 'task:read'], '{"daily_cents": 3000}', now())`,
      [grantId, agent.id, `client-${grantId}`],
    );
    const token = await t.app.get(GrantTokens).signAgentToken({
      kind: 'agent',
      id: agent.id,
      scheme: 'api_key',
      keyId: null,
      grantId,
      familyId: randomUUID(),
      permissions: ['task:create', 'task:read'],
      limits: { perMinute: 1000, perDay: 100_000 },
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.http
          .post('/v1/tasks/create')
          .set('Authorization', `Bearer ${token}`)
          .send(taskBody(t, { budget_cents: 1_000 })),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(402);
      expect(r.body.error).toMatchObject({
        code: 'spend_cap_exceeded',
        cap_cents: 3_000,
        counted_cents: 3_000,
      });
    }
    const [{ n }]: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM tasks WHERE created_by_grant_id = $1 AND created_by_api_key_id IS NULL`,
      [grantId],
    );
    expect(n).toBe(3);
    // The agent's API key is another spender: the grant's cap does not hold it back.
    expect((await create(agent, { budget_cents: 1_000 })).status).toBe(201);
  });

  it('China time periods: the day starts at 16:00 UTC, the month at 16:00 UTC on the last day before it', () => {
    const at = new Date('2026-11-30T17:30:00Z'); // 01:30 on 1 December in Shanghai
    expect(periodBounds('daily', at)).toEqual({
      start: new Date('2026-11-30T16:00:00Z'),
      resetsAt: new Date('2026-12-01T16:00:00Z'),
    });
    expect(periodBounds('monthly', at)).toEqual({
      start: new Date('2026-11-30T16:00:00Z'),
      resetsAt: new Date('2026-12-31T16:00:00Z'),
    });
  });
});
