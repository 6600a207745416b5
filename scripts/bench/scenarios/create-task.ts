import type { Request, RequestParams } from 'autocannon';
import { randomUUID } from 'node:crypto';
import type { BenchContext, ScenarioReport } from '../context';
import { fraction } from '../context';
import { BenchAgent, CITIES, createAgents } from '../fixtures';
import { load } from '../load';
import { pgbench } from '../pgbench';

const AGENTS = 64;

/** A creation body like the README's: one slot, 50.00 CNY, a day to do it, a random city. */
export function taskBody(over: Record<string, unknown> = {}): string {
  const [, lat, lon] = CITIES[Math.floor(Math.random() * CITIES.length)];
  return JSON.stringify({
    title: 'Photograph the storefront',
    description: 'Two photos: the storefront and the opening hours sign.',
    location: {
      latitude: lat + Math.random() * 0.1,
      longitude: lon + Math.random() * 0.1,
      address: 'Main street 1',
    },
    budget_cents: 5000,
    deadline_at: new Date(Date.now() + 86_400_000).toISOString(),
    task_type: 'photo',
    ...over,
  });
}

/**
 * What one creation sends to PostgreSQL (src/task/services/task-creation.service.ts, Ledger.post, the
 * Idempotency-Key interceptor and the API-key lookup), in the same order, with the agent's ids picked at random.
 * Where the code uses an account id it read a statement earlier, the script uses the id returned by the update.
 * pgbench reads `:name` as a variable even inside string literals, so literal colons are written E'\\x3a'.
 */
export const CREATE_TASK_SQL = `
\\set a random(1, :agents)
SELECT agent_id, key_hash FROM bench_agent_keys WHERE n = :a \\gset
SELECT k.id, k.agent_id, k.permissions, k.is_active, a.account_status, a.rate_limit_per_minute, a.rate_limit_per_day FROM api_keys k JOIN agents a ON a.id = k.agent_id WHERE k.key_hash = :key_hash;
INSERT INTO idempotency_keys (agent_id, scope, key, request_hash, created_at, expires_at) VALUES (:agent_id, 'request', gen_random_uuid()::text, md5(random()::text), now(), now() + interval '24 hours') ON CONFLICT (agent_id, scope, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status_code = NULL, response = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at WHERE idempotency_keys.expires_at <= now() RETURNING key AS idem \\gset
BEGIN;
SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
SELECT fee_bps, max_concurrent_tasks FROM agents WHERE id = :agent_id FOR NO KEY UPDATE;
SELECT count(*)::int AS live FROM tasks WHERE agent_id = :agent_id AND status = ANY('{pending,assigned,in_progress,submitted}'::text[]);
INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, address, max_distance_meters, budget_cents, max_workers, fee_bps, payout_cents, fee_cents, total_cents, required_skills, min_reputation, metadata, status, deadline_at, estimated_completion_at, created_at, updated_at) VALUES (:agent_id, 'Photograph the storefront', 'Two photos: the storefront and the opening hours sign.', 'photo', 31.2304, 121.4737, 'Main street 1', 1000, 5000, 1, 1000, 4500, 500, 5000, '{}', NULL, '{}', 'pending', now() + interval '1 day', now() + interval '2 hours', now(), now()) RETURNING *, id AS t_id, total_cents AS t_total \\gset
INSERT INTO ledger_journals (reference, kind, agent_id, worker_id, task_id, order_id, description, created_at) VALUES ('task:' || :t_id::text || E'\\x3ahold', 'escrow_hold', :agent_id, NULL, :t_id, NULL, 'Escrow for task ' || :t_id::text, now()) ON CONFLICT (reference) DO NOTHING RETURNING id AS journal_id \\gset
INSERT INTO ledger_accounts (code, kind, owner_id, agent_id) SELECT * FROM unnest(ARRAY['agent:' || :agent_id::text || E'\\x3aavailable', 'task:' || :t_id::text || E'\\x3aescrow']::text[], '{agent_available,task_escrow}'::text[], ARRAY[:agent_id, :t_id]::uuid[], ARRAY[:agent_id, :agent_id]::uuid[]) ON CONFLICT (code) DO NOTHING;
SELECT id, code FROM ledger_accounts WHERE code = ANY(ARRAY['agent:' || :agent_id::text || E'\\x3aavailable', 'task:' || :t_id::text || E'\\x3aescrow']);
UPDATE ledger_accounts SET balance = balance + (-:t_total::bigint) WHERE code = 'agent:' || :agent_id::text || E'\\x3aavailable' AND (kind = 'provider_clearing' OR balance + (-:t_total::bigint) >= 0) RETURNING id AS from_id \\gset
UPDATE ledger_accounts SET balance = balance + :t_total::bigint WHERE code = 'task:' || :t_id::text || E'\\x3aescrow' AND (kind = 'provider_clearing' OR balance + :t_total::bigint >= 0) RETURNING id AS to_id \\gset
INSERT INTO ledger_postings (journal_id, account_id, amount) SELECT :journal_id, unnest(ARRAY[:from_id, :to_id]::bigint[]), unnest(ARRAY[-:t_total::bigint, :t_total::bigint]);
COMMIT;
UPDATE idempotency_keys SET status_code = 201, response = '{"task_id":"00000000-0000-4000-8000-000000000000","status":"pending","estimated_completion_at":"2026-01-01T00:00:00.000Z","cost_breakdown":{"worker_payout_cents":4500,"platform_fee_cents":500,"total_cents":5000},"created_at":"2026-01-01T00:00:00.000Z"}'::jsonb WHERE agent_id = :agent_id AND scope = 'request' AND key = :idem AND status_code IS NULL;
`;

/** POST /v1/tasks/create with a fresh Idempotency-Key per request, at 32 and 128 connections. */
export async function createTaskScenario(ctx: BenchContext): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    id: 'create_task',
    title: 'Task creation with escrow hold (POST /v1/tasks/create, unique Idempotency-Key)',
    status: 'ok',
    runs: [],
    notes: [
      `${AGENTS} agents, requests spread round-robin; each creation locks its agent row, so one agent's creations run one at a time.`,
      'Baseline: pgbench replays the statements of one creation (auth lookup, key claim, transaction, key completion).',
    ],
    checks: {},
  };
  const agents = await createAgents(ctx.db, AGENTS, 10_000_000_000);
  await ctx.db.query(
    `CREATE TABLE bench_agent_keys (n int PRIMARY KEY, agent_id uuid NOT NULL, key_hash text NOT NULL)`,
  );
  await ctx.db.query(
    `INSERT INTO bench_agent_keys SELECT n, k.agent_id, k.key_hash
       FROM unnest($1::uuid[]) WITH ORDINALITY AS v(agent_id, n) JOIN api_keys k ON k.agent_id = v.agent_id`,
    [agents.map((a) => a.id)],
  );
  const requests = creationRequests(agents);
  ctx.log('create_task: warm-up');
  await load({ server: ctx.server, connections: 32, seconds: 3, requests, expected: [201] });
  const baseline = await pgbench({
    url: ctx.databaseUrl,
    dir: ctx.dir,
    name: 'create-task',
    script: CREATE_TASK_SQL,
    clients: ctx.poolSize,
    seconds: ctx.seconds,
    vars: { agents: AGENTS },
  });
  ctx.log(`create_task: baseline ${baseline.tps} tps`);
  for (const connections of [32, 128]) {
    const { total } = await load({
      server: ctx.server,
      connections,
      seconds: ctx.seconds,
      requests,
      expected: [201],
    });
    ctx.log(
      `create_task: ${connections} connections ${total.rps} req/s p99 ${total.p99} ms errors ${total.errors}`,
    );
    report.runs.push({
      label: `${connections} connections`,
      api: total,
      baseline,
      fraction: fraction(total.rps, baseline.tps),
    });
  }
  const { rows } = await ctx.db.query<{ missing: number }>(
    `SELECT count(*)::int AS missing FROM tasks t
      WHERE NOT EXISTS (SELECT 1 FROM ledger_journals j WHERE j.reference = 'task:' || t.id || E'\\x3ahold')`,
  );
  report.checks['every task has its escrow hold'] = rows[0].missing === 0;
  return report;
}

export function creationRequests(
  agents: BenchAgent[],
  body: () => string = () => taskBody(),
  onCreated?: (taskId: string) => void,
): Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/v1/tasks/create',
      setupRequest: (req: RequestParams) => {
        const agent = agents[next++ % agents.length];
        return {
          ...req,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${agent.apiKey}`,
            'idempotency-key': randomUUID(),
          },
          body: body(),
        };
      },
      onResponse: (status: number, text: string) => {
        if (status === 201 && onCreated) onCreated((JSON.parse(text) as { task_id: string }).task_id);
      },
    },
  ];
}
