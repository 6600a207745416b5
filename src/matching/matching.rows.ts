/** The rows of the tables the matching module owns. */

/**
 * A worker_availability row: presence for push offers. On call while `online` and before `on_call_until` (null
 * exactly when not online); matched only while `position_at` is at most POSITION_FRESH_MINUTES old.
 */
export interface WorkerAvailabilityRow {
  worker_id: string;
  online: boolean;
  on_call_until: Date | null;
  latitude: number | null;
  longitude: number | null;
  position_at: Date | null;
  last_seen_at: Date;
}

/** An agent_ratings row: a worker's rating of the agent of a task they completed, one per task and worker. */
export interface AgentRatingRow {
  id: string;
  task_id: string;
  agent_id: string;
  worker_id: string;
  rating: number;
  comment: string | null;
  created_at: Date;
}

/** An agent_rating_stats row: an agent's running totals, kept in the transaction of every rating. */
export interface AgentRatingStatsRow {
  agent_id: string;
  rating_count: number;
  rating_sum: number;
}
