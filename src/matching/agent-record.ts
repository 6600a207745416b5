import { sqlRows, type SqlRunner } from '../database/sql';
import type { AgentRecordView } from './dtos/agent-record.dto';

/** The window the record covers, and the fewest decided results a rejection rate is shown for (below, too noisy). */
export const AGENT_RECORD_DAYS = 90;
export const AGENT_RECORD_MIN_DECIDED = 5;

/**
 * One statement for every agent of a page (never one per task): per distinct agent, its results decided in the
 * window (through tasks_agent_list_idx and assignments_task_idx) and its disputes lost (through
 * disputes_agent_lost_idx, migration 1732200750000). An overturned rejection stays `rejected` on the assignment, so
 * it counts both as a rejection and as a dispute lost: the rate is what the agent did, the disputes what came of it.
 */
const RECORD_SQL = `
  SELECT g.agent_id, r.decided, r.rejected, l.lost
    FROM unnest($1::uuid[]) AS g(agent_id)
   CROSS JOIN LATERAL (
     SELECT count(*)::int AS decided, count(*) FILTER (WHERE a.status = 'rejected')::int AS rejected
       FROM tasks t JOIN assignments a ON a.task_id = t.id
      WHERE t.agent_id = g.agent_id AND a.status IN ('approved', 'rejected') AND a.reviewed_at > $2) r
   CROSS JOIN LATERAL (
     SELECT count(*)::int AS lost FROM disputes d
      WHERE d.agent_id = g.agent_id AND d.outcome IN ('overturned', 'split') AND d.decided_at > $2) l`;

export function agentRecordView(decided: number, rejected: number, lost: number): AgentRecordView {
  return {
    decided,
    rejection_rate: decided >= AGENT_RECORD_MIN_DECIDED ? rejected / decided : null,
    disputes_lost: lost,
  };
}

/** The record of each agent named, as of `now`; an agent with no history reads as zeros. */
export async function agentRecords(
  db: SqlRunner,
  agentIds: readonly string[],
  now: Date,
): Promise<Map<string, AgentRecordView>> {
  const ids = [...new Set(agentIds)];
  const out = new Map<string, AgentRecordView>();
  if (!ids.length) return out;
  const since = new Date(now.getTime() - AGENT_RECORD_DAYS * 86_400_000);
  const rows = await sqlRows<{ agent_id: string; decided: number; rejected: number; lost: number }>(
    db,
    RECORD_SQL,
    [ids, since],
  );
  for (const r of rows) out.set(r.agent_id, agentRecordView(r.decided, r.rejected, r.lost));
  return out;
}
