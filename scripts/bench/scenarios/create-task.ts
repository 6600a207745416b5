import type { Request, RequestParams } from 'autocannon';
import { randomUUID } from 'node:crypto';
import type { BenchContext, ScenarioReport } from '../context';
import { fraction } from '../context';
import { BenchAgent, CITIES, createAgents } from '../fixtures';
import { load } from '../load';
import { pgbench } from '../pgbench';
import { openLoop } from '../open-loop';
import { BARE_MAIN, ServerProcess } from '../server';
import {
  LIVE_ASSIGNMENT_CAP,
  LOW_REPUTATION_LIVE_ASSIGNMENT_CAP,
  LOW_REPUTATION_THRESHOLD,
} from '../../../src/matching/live-assignment-cap';
import { OFFER_WINDOW_SECONDS, RESPONSE_HISTORY } from '../../../src/matching/offer-policy';
import { CANDIDATES_SQL } from '../../../src/matching/services/worker-ranking';

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

/** The candidates query of TaskDispatch (WorkerRanking) with its parameters written in for pgbench. */
function candidatesSql(): string {
  const params: Record<number, string> = {
    1: ':lat',
    2: ':lon',
    3: 'now()',
    4: '1000',
    5: `'{}'`,
    6: '0',
    7: ':t_id',
    8: String(LOW_REPUTATION_THRESHOLD),
    9: String(LOW_REPUTATION_LIVE_ASSIGNMENT_CAP),
    10: String(LIVE_ASSIGNMENT_CAP),
    11: ':agent_id',
    12: String(OFFER_WINDOW_SECONDS),
    13: String(RESPONSE_HISTORY),
  };
  return CANDIDATES_SQL.replace(/\$(\d+)/g, (_m, n: string) => params[Number(n)])
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * What one creation sends to PostgreSQL with its API key already known (AuthCache): the Idempotency-Key claim
 * (IdempotencyStore.claim), then one transaction: the agent lock, the task insert with its live-task count
 * (TaskCreationService), the escrow hold's two statements (journal-writer.ts: claim the journal and its accounts,
 * then lock, move and post), the dispatch's candidate search (WorkerRanking; a new task has no assignments to read)
 * and the answer stored under the key (recordAnswer). Nine statements, as the API sends, in the same order and
 * the same writes: BEGIN goes with the agent lock (inTransaction), which pgbench sends as a pipeline.
 * pgbench reads `:name` as a variable even inside string literals, so literal colons are written E'\\x3a'.
 */
export function createTaskSql(): string {
  return `
\\set a random(1, :agents)
\\set lat 31.2304
\\set lon 121.4737
SELECT agent_id FROM bench_agent_keys WHERE n = :a \\gset
INSERT INTO idempotency_keys (agent_id, scope, key, request_hash, created_at, expires_at, owner, claim_token) VALUES (:agent_id, 'request', gen_random_uuid()::text, md5(random()::text), now(), now() + interval '24 hours', 1, gen_random_uuid()) ON CONFLICT (agent_id, scope, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status_code = NULL, response = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, owner = EXCLUDED.owner, claim_token = EXCLUDED.claim_token WHERE idempotency_keys.expires_at <= now() RETURNING key AS idem, claim_token \\gset
\\startpipeline
BEGIN;
SELECT fee_bps, max_concurrent_tasks FROM agents WHERE id = :agent_id FOR NO KEY UPDATE;
\\endpipeline
INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, address, max_distance_meters, budget_cents, max_workers, fee_bps, payout_cents, fee_cents, total_cents, required_skills, min_reputation, metadata, status, deadline_at, estimated_completion_at, created_at, updated_at, open_slots) SELECT :agent_id::uuid, 'Photograph the storefront', 'Two photos: the storefront and the opening hours sign.', 'photo', :lat::float8, :lon::float8, 'Main street 1', 1000, 5000, 1, 1000, 4500, 500, 5000, '{}'::text[], NULL::numeric, '{}'::jsonb, 'pending', now() + interval '1 day', now() + interval '2 hours', now(), now(), 1 WHERE (SELECT count(*) FROM tasks WHERE agent_id = :agent_id::uuid AND status = ANY('{pending,assigned,in_progress,submitted}'::text[])) < 1000000000 RETURNING *, id AS t_id, total_cents AS t_total \\gset
WITH journal AS (INSERT INTO ledger_journals (reference, kind, agent_id, worker_id, task_id, order_id, description, created_at) VALUES ('task' || E'\\x3a' || :t_id::text || E'\\x3ahold', 'escrow_hold', :agent_id, NULL, :t_id, NULL, 'Escrow for task ' || :t_id::text, now()) ON CONFLICT (reference) DO NOTHING RETURNING id), created AS (INSERT INTO ledger_accounts (code, kind, owner_id, agent_id) SELECT * FROM unnest(ARRAY['agent' || E'\\x3a' || :agent_id::text || E'\\x3aavailable', 'task' || E'\\x3a' || :t_id::text || E'\\x3aescrow']::text[], '{agent_available,task_escrow}'::text[], ARRAY[:agent_id, :t_id]::uuid[], ARRAY[:agent_id, :agent_id]::uuid[]) ON CONFLICT (code) DO NOTHING RETURNING id, code), found AS (SELECT (SELECT id FROM journal) AS journal_id, NULL::bigint AS id, NULL::text AS code UNION ALL SELECT NULL, id, code FROM created UNION ALL SELECT NULL, a.id, a.code FROM ledger_accounts a WHERE a.code = ANY(ARRAY['agent' || E'\\x3a' || :agent_id::text || E'\\x3aavailable', 'task' || E'\\x3a' || :t_id::text || E'\\x3aescrow']) AND a.code NOT IN (SELECT code FROM created)) SELECT max(journal_id) AS journal_id, max(id) FILTER (WHERE code LIKE 'agent%') AS from_id, max(id) FILTER (WHERE code LIKE 'task%') AS to_id FROM found \\gset
WITH locked AS MATERIALIZED (SELECT id FROM ledger_accounts WHERE id = ANY(ARRAY[:from_id, :to_id]::bigint[]) ORDER BY id FOR NO KEY UPDATE), moved AS (UPDATE ledger_accounts a SET balance = a.balance + v.delta FROM locked l JOIN unnest(ARRAY[:from_id, :to_id]::bigint[], ARRAY[-(:t_total::bigint), :t_total::bigint]) AS v(id, delta) ON v.id = l.id WHERE a.id = l.id AND (a.kind = 'provider_clearing' OR a.balance + v.delta >= 0) RETURNING a.id), posted AS (INSERT INTO ledger_postings (journal_id, account_id, amount) SELECT :journal_id, unnest(ARRAY[:from_id, :to_id]::bigint[]), unnest(ARRAY[-(:t_total::bigint), :t_total::bigint])) SELECT array_agg(id)::text[] AS moved FROM moved;
${candidatesSql()};
UPDATE idempotency_keys SET status_code = 201, response = '{"task_id":"00000000-0000-4000-8000-000000000000","status":"pending","estimated_completion_at":"2026-01-01T00Z","cost_breakdown":{"worker_payout_cents":4500,"platform_fee_cents":500,"total_cents":5000},"created_at":"2026-01-01T00Z"}'::jsonb WHERE agent_id = :agent_id AND scope = 'request' AND key = :idem AND claim_token = :claim_token AND status_code IS NULL RETURNING 1;
COMMIT;
`;
}

/** POST /v1/tasks/create with a fresh Idempotency-Key per request, at 32 and 128 connections. */
export async function createTaskScenario(ctx: BenchContext): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    id: 'create_task',
    title: 'Task creation with escrow hold (POST /v1/tasks/create, unique Idempotency-Key)',
    status: 'ok',
    runs: [],
    notes: [
      `${AGENTS} agents, requests spread round-robin; each creation locks its agent row, so one agent's creations run one at a time.`,
      'Baseline: pgbench replays the statements of one creation (key claim; transaction: agent lock, task insert, escrow journal and its postings, dispatch candidates, stored answer); the API key is known (AuthCache), as it is for the API after its first request.',
      "Bare handler: scripts/bench/bare-server.ts, POST /v1/tasks/create on node:http and pg in its own process, sending the same statements through the server's own SQL functions; the API minus the bare handler is what the framework and request plumbing cost.",
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
    script: createTaskSql(),
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
      `create_task: ${connections} connections ${total.rps} req/s p99 ${total.p99} ms errors ${total.errors}, server CPU ${total.cpu_ms_per_request} ms/request`,
    );
    report.runs.push({
      label: `${connections} connections`,
      api: total,
      baseline,
      fraction: fraction(total.rps, baseline.tps),
    });
  }
  // Latency at a steady rate: open loop at half the throughput 32 connections reached.
  const saturated = report.runs[0].api.rps;
  const steady = await openLoop({
    server: ctx.server,
    rate: saturated / 2,
    seconds: ctx.seconds,
    requests,
    expected: [201],
  });
  ctx.log(
    `create_task: open loop at ${steady.total.offered_rate}/s p50 ${steady.total.p50} p99 ${steady.total.p99} ms, server CPU ${steady.total.cpu_ms_per_request} ms/request`,
  );
  report.runs.push({
    label: `open loop at ${steady.total.offered_rate} req/s (half of 32 connections)`,
    api: steady.total,
  });

  // The same statements from a bare node:http + pg handler (no framework), in its own process, on the same agents.
  const bare = await ServerProcess.start({
    databaseUrl: ctx.databaseUrl,
    dataDir: ctx.dir,
    poolSize: ctx.poolSize,
    main: BARE_MAIN,
  });
  try {
    await load({ server: bare, connections: 32, seconds: 2, requests, expected: [201] });
    const { total } = await load({
      server: bare,
      connections: 32,
      seconds: ctx.seconds,
      requests,
      expected: [201],
    });
    ctx.log(
      `create_task: bare node:http + pg handler, 32 connections ${total.rps} req/s p99 ${total.p99} ms, CPU ${total.cpu_ms_per_request} ms/request`,
    );
    report.runs.push({
      label: '32 connections, bare node:http + pg handler (same statements, no framework)',
      api: total,
      baseline,
      fraction: fraction(total.rps, baseline.tps),
    });
  } finally {
    await bare.stop();
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
