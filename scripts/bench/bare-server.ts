import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Pool, PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { AgentRepository } from '../../src/agent/agent.repository';
import { Clock } from '../../src/common/clock';
import { sha256Hex } from '../../src/common/crypto';
import { splitSlot, taskCost } from '../../src/escrow/fees';
import { Ledger } from '../../src/escrow/services/ledger';
import { requestHash } from '../../src/idempotency/canonical-json';
import type { IdempotencyClaim } from '../../src/idempotency/idempotency-context';
import { IdempotencyStore, recordAnswer } from '../../src/idempotency/idempotency.store';
import type { InstanceLease } from '../../src/idempotency/instance-lease';
import { WorkerRanking } from '../../src/matching/services/worker-ranking';
import { DEFAULT_MAX_DISTANCE_METERS, estimateCompletion } from '../../src/task/domain/task-policy';
import { LIVE_TASK_STATUSES } from '../../src/task/domain/task-status';
import { taskCreatedResponse } from '../../src/task/task.presenter';
import { mapTask } from '../../src/task/task.repository';

/**
 * The "bare handler" baseline of the creation benchmark: POST /v1/tasks/create on node:http and a pg Pool, with no
 * framework (no Nest, express, TypeORM, class-validator, passport, rxjs). It sends the statements the API sends for
 * one creation with an Idempotency-Key, through the server's own code where that code takes a plain query runner
 * (IdempotencyStore.claim, AgentRepository.lockForTaskCreation, Ledger.holdTaskEscrow, WorkerRanking.candidates,
 * recordAnswer) and the fee and deadline rules; the task INSERT is TaskCreationService.insert's statement. API keys
 * are looked up once and then held in memory, as the API's AuthCache does. No validation beyond what the statements
 * need and no rate limits: the difference to the API is what the framework and the per-request plumbing cost.
 *
 *   node dist/scripts/bench/bare-server.js   (DATABASE_URL, PORT, DATABASE_POOL_SIZE)
 */
const pool = new Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  application_name: 'legwork-bare-bench',
  pipeline: true,
});
const clock = new Clock();
const ledger = new Ledger(clock);
const ranking = new WorkerRanking();
/** A pg pool or client as the EntityManager/DataSource the server's functions take (only `query` is used). */
const asDb = (c: Pool | PoolClient): EntityManager & DataSource =>
  ({
    query: async (sql: string, params?: unknown[]) => (await c.query(sql, params)).rows,
  }) as unknown as EntityManager & DataSource;
const lease = { key: '1' } as InstanceLease;
const store = new IdempotencyStore(asDb(pool), clock, lease);
const keys = new Map<string, { agent_id: string; permissions: string[] }>();

interface CreateBody {
  title: string;
  description: string;
  task_type: 'photo';
  location: { latitude: number; longitude: number; address?: string; max_distance_meters?: number };
  budget_cents: number;
  max_workers?: number;
  deadline_at: string;
}

async function agentOf(header: string | undefined): Promise<string | null> {
  const key = header?.replace(/^Bearer\s+/i, '') ?? '';
  const hash = sha256Hex(key);
  const known = keys.get(hash);
  if (known) return known.agent_id;
  const { rows } = await pool.query<{ agent_id: string; permissions: string[]; is_active: boolean }>(
    `SELECT k.id, k.agent_id, k.permissions, k.is_active, a.account_status,
            a.rate_limit_per_minute, a.rate_limit_per_day
       FROM api_keys k JOIN agents a ON a.id = k.agent_id WHERE k.key_hash = $1`,
    [hash],
  );
  if (!rows[0]?.is_active) return null;
  keys.set(hash, rows[0]);
  return rows[0].agent_id;
}

async function create(req: IncomingMessage, raw: string): Promise<[number, unknown]> {
  const agentId = await agentOf(req.headers.authorization);
  if (!agentId) return [401, { error: { code: 'invalid_api_key' } }];
  const dto = JSON.parse(raw) as CreateBody;
  const key = req.headers['idempotency-key'] as string;
  const claimed = await store.claim({ agentId, scope: 'request', key }, requestHash('POST', req.url, dto));
  if (!claimed || !('token' in claimed)) return [409, { error: { code: 'idempotency_conflict' } }];
  const claim: IdempotencyClaim = {
    ref: { agentId, scope: 'request', key },
    token: claimed.token,
    successStatus: 201,
  };
  const client = await pool.connect();
  try {
    const em = asDb(client);
    const now = clock.now();
    const deadline = new Date(dto.deadline_at);
    // BEGIN in the same write as the agent lock, as inTransaction sends them (the pool is in pipeline mode).
    const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
    socket.cork();
    const begun = client.query('BEGIN');
    const locked = AgentRepository.lockForTaskCreation(em, agentId);
    socket.uncork();
    const [, agentRow] = await Promise.all([begun, locked]);
    const agent = agentRow!;
    const maxWorkers = dto.max_workers ?? 1;
    const feeBps = agent.fee_bps ?? 1000;
    const cost = taskCost(dto.budget_cents, maxWorkers, feeBps);
    const slot = splitSlot(dto.budget_cents, feeBps);
    // TaskCreationService.insert's statement.
    const { rows } = await client.query(
      `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, address,
                          max_distance_meters, budget_cents, max_workers, fee_bps, payout_cents, fee_cents,
                          total_cents, required_skills, min_reputation, metadata, status, deadline_at,
                          estimated_completion_at, created_at, updated_at, open_slots)
       SELECT $1::uuid, $2::text, $3::text, $4::text, $5::float8, $6::float8, $7::text, $8::int, $9::bigint,
              $10::int, $11::int, $12::bigint, $13::bigint, $14::bigint, $15::text[], $16::numeric, $17::jsonb,
              'pending', $18::timestamptz, $19::timestamptz, $20::timestamptz, $20::timestamptz, $10::int
        WHERE (SELECT count(*) FROM tasks WHERE agent_id = $1::uuid AND status = ANY($21::text[])) < $22::int
       RETURNING *`,
      [
        agentId,
        dto.title,
        dto.description,
        dto.task_type,
        dto.location.latitude,
        dto.location.longitude,
        dto.location.address ?? null,
        dto.location.max_distance_meters ?? DEFAULT_MAX_DISTANCE_METERS,
        dto.budget_cents,
        maxWorkers,
        feeBps,
        slot.payoutCents,
        slot.feeCents,
        cost.total_cents,
        [],
        null,
        '{}',
        deadline,
        estimateCompletion(now, deadline, dto.task_type),
        now,
        LIVE_TASK_STATUSES,
        agent.max_concurrent_tasks,
      ],
    );
    const task = mapTask(rows[0] as Record<string, unknown>);
    await ledger.holdTaskEscrow(em, { agentId, taskId: task.id, amountCents: task.total_cents });
    await ranking.candidates(
      em,
      {
        taskId: task.id,
        agentId,
        latitude: task.latitude,
        longitude: task.longitude,
        maxDistanceMeters: task.max_distance_meters,
        requiredSkills: task.required_skills,
        minReputation: task.min_reputation,
      },
      now,
    );
    const body = taskCreatedResponse(task);
    await recordAnswer(em, claim, body);
    await client.query('COMMIT');
    return [201, body];
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const route =
      req.method === 'POST' && req.url === '/v1/tasks/create'
        ? create(req, Buffer.concat(chunks).toString('utf8'))
        : req.url === '/health'
          ? Promise.resolve<[number, unknown]>([200, { status: 'ok' }])
          : Promise.resolve<[number, unknown]>([404, { error: { code: 'not_found' } }]);
    route
      .then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      })
      .catch((err: unknown) => {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: String(err) }));
      });
  });
});
server.keepAliveTimeout = 65_000;
// PORT=0 (the harness's default): the OS picks; the port is reported to the harness as the API reports its own.
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as { port: number }).port });
});
process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});
