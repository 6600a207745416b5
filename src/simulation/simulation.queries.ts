import { numericColumns, sqlRows, type SqlRunner } from '../database/sql';
import type { SandboxActionView, SandboxWorkerResponse } from './dtos/sandbox-worker.dto';
import type { SandboxActionRow, SandboxWorkerRow } from './simulation.rows';

/** How many of a worker's latest steps its view shows. */
const ACTIVITY_LIMIT = 50;

/**
 * Reads of the simulation's tables, joined with what the sandbox shows of its own simulated workers: skills and
 * reputation (workers) and position (worker_availability), read here rather than through the worker and matching
 * modules because they are only ever these agent-owned rows.
 */
export type SimulatedWorker = SandboxWorkerRow & {
  skills: string[];
  reputation: number;
  latitude: number;
  longitude: number;
};

const SELECT_WORKER = `
  SELECT sw.*, w.skills, w.reputation, av.latitude, av.longitude
    FROM sandbox_workers sw JOIN workers w ON w.id = sw.worker_id
    JOIN worker_availability av ON av.worker_id = sw.worker_id`;

export const SimulatedWorkerQueries = {
  async own(db: SqlRunner, agentId: string, workerId: string): Promise<SimulatedWorker | null> {
    const rows = await sqlRows(
      db,
      `${SELECT_WORKER} WHERE sw.worker_id = $1 AND sw.agent_id = $2 AND sw.deleted_at IS NULL`,
      [workerId, agentId],
    );
    return rows.length ? numericColumns<SimulatedWorker>(rows[0], ['reputation']) : null;
  },

  async list(db: SqlRunner, agentId: string): Promise<SimulatedWorker[]> {
    const rows = await sqlRows(
      db,
      `${SELECT_WORKER} WHERE sw.agent_id = $1 AND sw.deleted_at IS NULL ORDER BY sw.created_at, sw.worker_id`,
      [agentId],
    );
    return rows.map((r) => numericColumns<SimulatedWorker>(r, ['reputation']));
  },

  /** Each worker's latest steps, newest first. */
  async activity(db: SqlRunner, workerIds: string[]): Promise<Map<string, SandboxActionRow[]>> {
    const rows = await sqlRows<SandboxActionRow>(
      db,
      `SELECT * FROM (
         SELECT sa.*, row_number() OVER (PARTITION BY worker_id ORDER BY due_at DESC, created_at DESC) AS n
           FROM sandbox_actions sa WHERE worker_id = ANY($1::uuid[])) x
        WHERE n <= $2 ORDER BY due_at DESC, created_at DESC`,
      [workerIds, ACTIVITY_LIMIT],
    );
    const out = new Map<string, SandboxActionRow[]>();
    for (const r of rows) out.set(r.worker_id, [...(out.get(r.worker_id) ?? []), r]);
    return out;
  },

  /** Offers waiting for the worker's answer and work it has not finished. */
  async openAssignments(db: SqlRunner, workerId: string): Promise<{ id: string; status: string }[]> {
    return sqlRows(
      db,
      `SELECT id, status FROM assignments WHERE worker_id = $1 AND status IN ('pending', 'accepted', 'in_progress')`,
      [workerId],
    );
  },
};

export function actionView(a: SandboxActionRow): SandboxActionView {
  return {
    step: a.step,
    task_id: a.task_id,
    assignment_id: a.assignment_id,
    due_at: a.due_at.toISOString(),
    done_at: a.done_at ? a.done_at.toISOString() : null,
    outcome: a.outcome,
    detail: a.detail,
  };
}

export function workerView(w: SimulatedWorker, activity: SandboxActionRow[]): SandboxWorkerResponse {
  return {
    worker_id: w.worker_id,
    name: w.name,
    persona: w.persona,
    // Workers made before typed answers have no answers style: they answer plausibly.
    behavior: { ...w.behavior, answers: w.behavior.answers ?? 'plausible' },
    location: { latitude: w.latitude, longitude: w.longitude },
    skills: w.skills,
    reputation: w.reputation,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
    activity: activity.map(actionView),
  };
}
