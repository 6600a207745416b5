import type { Request, RequestParams } from 'autocannon';
import type { BenchContext, ScenarioReport } from '../context';
import { fraction } from '../context';
import { BenchWorker, createAgents, createWorkers } from '../fixtures';
import { load } from '../load';
import { openLoop } from '../open-loop';
import { pgbench } from '../pgbench';
import { creationRequests, taskBody } from './create-task';

const TASKS = 1000;
const SLOTS = 3;
const WORKERS = 200;

/**
 * The statements of one accept and, when it wins, the submit that follows (as scripts/bench/trace-statements.ts
 * lists them; the worker's account is known to the API's AuthCache after its first request, so no lookup) (src/task/services/task-accept.service.ts and
 * assignment.service.ts, with TaskSettlement.reconcileTask), for a random worker on a random one of the baseline's own
 * 1,000 tasks, in the same writes as the API sends them: BEGIN with the transaction's first read, and the events'
 * INSERT with COMMIT (inTransaction), which pgbench sends as pipelines. The database does not stop at three slots
 * here (nothing counts them in SQL), and a repeated (task, worker) pair inserts nothing: the script measures the
 * statements, not the rules.
 */
const ACCEPT_SUBMIT_SQL = `
\\set w random(1, :workers)
\\set t random(1, :tasks)
SELECT worker_id FROM bench_workers WHERE n = :w \\gset
SELECT task_id FROM bench_race_tasks WHERE n = :t \\gset
\\startpipeline
BEGIN;
SELECT * FROM tasks WHERE id = :task_id FOR UPDATE;
\\endpipeline
SELECT skills, reputation FROM workers WHERE id = :worker_id FOR NO KEY UPDATE;
SELECT live.n AS worker_live, a.* FROM (SELECT count(*)::int AS n FROM assignments WHERE worker_id = :worker_id AND status IN ('accepted', 'in_progress')) live LEFT JOIN assignments a ON a.task_id = :task_id ORDER BY a.created_at, a.id;
INSERT INTO assignments (task_id, worker_id, status, accepted_at, created_at, updated_at) VALUES (:task_id, :worker_id, 'accepted', now(), now(), now()) ON CONFLICT (task_id, worker_id) DO UPDATE SET updated_at = now() RETURNING *, id AS assignment_id \\gset
UPDATE tasks SET status = 'assigned', closed_slots = 0, intake_closed_at = NULL, cancelled_at = NULL, deadline_processed_at = COALESCE(deadline_processed_at, NULL), completed_at = completed_at, open_slots = 2, updated_at = now() WHERE id = :task_id;
\\startpipeline
INSERT INTO events (name, agent_id, worker_id, task_id, data, created_at) VALUES ('assignment.accepted', NULL, :worker_id, :task_id, '{"assignment_id":"00000000-0000-4000-8000-000000000000","status":"accepted","payment_cents":4500}', now()), ('task.assigned', NULL, NULL, :task_id, '{"status":"assigned","previous_status":"pending"}', now());
COMMIT;
\\endpipeline
\\startpipeline
BEGIN;
SELECT t.* FROM tasks t WHERE t.id = (SELECT task_id FROM assignments WHERE id = :assignment_id) FOR UPDATE OF t;
\\endpipeline
SELECT * FROM assignments WHERE task_id = :task_id ORDER BY created_at, id;
UPDATE assignments SET status = 'accepted', updated_at = now(), submitted_at = now(), result_data = '{"open": true}', worker_notes = NULL, photos = '[]', device_location = NULL WHERE id = :assignment_id AND status = ANY('{accepted,in_progress}'::text[]) RETURNING *;
UPDATE tasks SET status = 'assigned', closed_slots = 0, intake_closed_at = NULL, cancelled_at = NULL, deadline_processed_at = COALESCE(deadline_processed_at, NULL), completed_at = completed_at, open_slots = 2, updated_at = now() WHERE id = :task_id;
\\startpipeline
INSERT INTO events (name, agent_id, worker_id, task_id, data, created_at) VALUES ('assignment.submitted', NULL, :worker_id, :task_id, '{"assignment_id":"00000000-0000-4000-8000-000000000000","status":"submitted"}', now()), ('task.submitted', NULL, NULL, :task_id, '{"status":"assigned","previous_status":"assigned"}', now());
COMMIT;
\\endpipeline
`;

interface RaceState {
  all: string[];
  open: string[];
  winners: Map<string, number>;
  free: BenchWorker[];
  accepted: number;
  lost: number;
  /** Losing answers by error code (task_full, already_assigned, ...): anything else is a harness or server fault. */
  lostBy: Record<string, number>;
  submitted: number;
}

function raceRequests(state: RaceState): Request[] {
  return [
    {
      method: 'POST',
      setupRequest: (req: RequestParams, ctx: Record<string, unknown>) => {
        const worker = state.free.pop()!;
        // Once every task looks full, the last in-flight attempts go to any task (and lose with task_full).
        const task = state.open[Math.floor(Math.random() * state.open.length)] ?? state.all[0];
        Object.assign(ctx, { kind: 'accept', worker, task });
        return {
          ...req,
          path: `/v1/worker/tasks/${task}/accept`,
          headers: { authorization: `Bearer ${worker.token}` },
        };
      },
      onResponse: (status: number, body: string, ctx: Record<string, unknown>) => {
        const task = ctx.task as string;
        if (status === 200) {
          state.accepted++;
          ctx.assignment = (JSON.parse(body) as { assignment_id: string }).assignment_id;
          const won = (state.winners.get(task) ?? 0) + 1;
          state.winners.set(task, won);
          if (won >= SLOTS) removeTask(state, task);
          return;
        }
        state.lost++;
        const code = errorCode(status, body);
        state.lostBy[code] = (state.lostBy[code] ?? 0) + 1;
        if (code === 'task_full') removeTask(state, task);
        state.free.push(ctx.worker as BenchWorker);
      },
    },
    {
      method: 'POST',
      setupRequest: (req: RequestParams, ctx: Record<string, unknown>) => {
        if (!ctx.assignment) return null;
        ctx.kind = 'submit';
        return {
          ...req,
          path: `/v1/worker/assignments/${ctx.assignment as string}/submit`,
          headers: {
            authorization: `Bearer ${(ctx.worker as BenchWorker).token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ result_data: { open: true, hours: '08:00-20:00' }, worker_notes: 'Open' }),
        };
      },
      onResponse: (status: number, _body: string, ctx: Record<string, unknown>) => {
        if (status === 200) state.submitted++;
        state.free.push(ctx.worker as BenchWorker);
      },
    },
  ];
}

function errorCode(status: number, body: string): string {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? String(status);
  } catch {
    return String(status);
  }
}

function removeTask(state: RaceState, task: string): void {
  const i = state.open.indexOf(task);
  if (i >= 0) state.open.splice(i, 1);
}

/**
 * 200 workers race for 1,000 three-slot tasks: each connection is one worker at a time, picks a random task that
 * still looks open, accepts, and submits at once when it won (a worker may hold only 3 unfinished assignments).
 * Afterwards SQL must show exactly 3 live assignments on every task and as many as the API said it granted.
 */
export async function acceptRaceScenario(ctx: BenchContext): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    id: 'accept_race',
    title: `${WORKERS} workers racing for ${TASKS} three-slot tasks (accept, then submit)`,
    status: 'ok',
    runs: [],
    notes: [
      'Tasks created through the API (16 agents); workers pick uniformly among tasks not yet known to be full, so the last tasks are fought over by many workers at once. 409 task_full / already_assigned are the expected losing answers.',
      'Throughput: accept+submit cycles of winners per second; baseline: pgbench replays one accept and one submit (the statements, not the slot rule) on its own 1,000 tasks.',
    ],
    checks: {},
  };
  const agents = await createAgents(ctx.db, 16, 1_000_000_000);
  const created: string[] = [];
  await load({
    server: ctx.server,
    connections: 32,
    seconds: 60,
    amount: TASKS,
    requests: creationRequests(
      agents,
      () => taskBody({ max_workers: SLOTS, task_type: 'verification' }),
      (id) => created.push(id),
    ),
    expected: [201],
  });
  const workers = await createWorkers(ctx.db, WORKERS);
  const state: RaceState = {
    all: created,
    open: [...created],
    winners: new Map(),
    free: [...workers],
    accepted: 0,
    lost: 0,
    lostBy: {},
    submitted: 0,
  };
  ctx.log(`accept_race: ${created.length} tasks created, racing`);
  const { total, byKind } = await load({
    server: ctx.server,
    connections: WORKERS,
    seconds: 60,
    requests: raceRequests(state),
    expected: [200, 409],
    done: () => state.open.length === 0,
  });
  const { rows } = await ctx.db.query<{ tasks: number; exact: number; over: number; live: number }>(
    `SELECT count(*)::int AS tasks,
            count(*) FILTER (WHERE n = $2)::int AS exact,
            count(*) FILTER (WHERE n > $2)::int AS over,
            COALESCE(sum(n), 0)::int AS live
       FROM (SELECT t.id, (SELECT count(*) FROM assignments a WHERE a.task_id = t.id
                            AND a.status IN ('accepted', 'in_progress', 'submitted')) AS n
               FROM tasks t WHERE t.id = ANY($1::uuid[])) x`,
    [created, SLOTS],
  );
  const r = rows[0];
  report.checks[`exactly ${SLOTS} winners on each of the ${TASKS} tasks`] =
    r.tasks === TASKS && r.exact === TASKS;
  report.checks['no task over-filled'] = r.over === 0;
  report.checks['assignments in SQL = accepts the API granted'] = r.live === state.accepted;

  // Latency at a steady rate: a second set of tasks, accepts started at half the saturated accept rate.
  const steadyTasks: string[] = [];
  await load({
    server: ctx.server,
    connections: 32,
    seconds: 60,
    amount: TASKS,
    requests: creationRequests(
      agents,
      // The same tasks as the race: a photo task's submit needs photos, and would leave every winner unfinished.
      () => taskBody({ max_workers: SLOTS, task_type: 'verification' }),
      (id) => steadyTasks.push(id),
    ),
    expected: [201],
  });
  const steadyState: RaceState = {
    all: steadyTasks,
    open: [...steadyTasks],
    winners: new Map(),
    free: await createWorkers(ctx.db, WORKERS),
    accepted: 0,
    lost: 0,
    lostBy: {},
    submitted: 0,
  };
  const acceptRate = (state.accepted + state.lost) / total.seconds;
  const steady = await openLoop({
    server: ctx.server,
    rate: acceptRate / 2,
    seconds: ctx.seconds,
    requests: raceRequests(steadyState),
    expected: [200, 409],
    done: () => steadyState.open.length === 0 || steadyState.free.length === 0,
  });
  ctx.log(
    `accept_race: open loop at ${steady.total.offered_rate} accepts/s: accept p50 ${steady.byKind.accept?.p50} p99 ${steady.byKind.accept?.p99} ms, server CPU ${steady.total.cpu_ms_per_request} ms/request`,
  );

  await ctx.db.query(`CREATE TABLE IF NOT EXISTS bench_workers (n int PRIMARY KEY, worker_id uuid NOT NULL)`);
  await ctx.db.query(`CREATE TABLE bench_race_tasks (n int PRIMARY KEY, task_id uuid NOT NULL)`);
  const baselineTasks: string[] = [];
  await load({
    server: ctx.server,
    connections: 32,
    seconds: 60,
    amount: TASKS,
    requests: creationRequests(
      agents,
      () => taskBody({ max_workers: SLOTS, task_type: 'verification' }),
      (id) => baselineTasks.push(id),
    ),
    expected: [201],
  });
  await ctx.db.query(
    `INSERT INTO bench_race_tasks SELECT n, id FROM unnest($1::uuid[]) WITH ORDINALITY AS v(id, n)`,
    [baselineTasks],
  );
  const baseWorkers = await createWorkers(ctx.db, WORKERS);
  await ctx.db.query(`DELETE FROM bench_workers`);
  await ctx.db.query(
    `INSERT INTO bench_workers SELECT n, id FROM unnest($1::uuid[]) WITH ORDINALITY AS v(id, n)`,
    [baseWorkers.map((w) => w.id)],
  );
  const baseline = await pgbench({
    url: ctx.databaseUrl,
    dir: ctx.dir,
    name: 'accept-race',
    script: ACCEPT_SUBMIT_SQL,
    clients: ctx.poolSize,
    seconds: ctx.seconds,
    vars: { workers: WORKERS, tasks: TASKS },
  });
  const cycles = Math.round((state.submitted / total.seconds) * 10) / 10;
  ctx.log(
    `accept_race: ${state.accepted} accepted, ${state.lost} lost, ${state.submitted} submitted in ${total.seconds} s; baseline ${baseline.tps}`,
  );
  report.runs.push({
    label: `${WORKERS} connections (one worker each)`,
    api: total,
    kinds: byKind,
    baseline,
    fraction: fraction(cycles, baseline.tps),
    extra: {
      accepted: state.accepted,
      lost: state.lost,
      submitted: state.submitted,
      lost_by: state.lostBy,
      winner_cycles_per_second: cycles,
      accepts_per_second: Math.round((state.accepted / total.seconds) * 10) / 10,
      tasks_filled: r.exact,
    },
  });
  report.runs.push({
    label: `open loop at ${steady.total.offered_rate} accepts/s (half the saturated rate), each winner submitting`,
    api: steady.total,
    kinds: steady.byKind,
    extra: {
      accepted: steadyState.accepted,
      lost: steadyState.lost,
      lost_by: steadyState.lostBy,
      submitted: steadyState.submitted,
    },
  });
  return report;
}
