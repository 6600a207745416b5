/**
 * Push offers (product-decisions §5, §16): numbers and the ranking score, in one place.
 *
 * A slot is offered to one worker at a time; the offer holds the slot for OFFER_WINDOW_SECONDS. A worker is on call
 * from an `online: true` report until it turns it off or for ON_CALL_HOURS (configuration) after its last report,
 * and is matched only while its reported position is at most POSITION_FRESH_MINUTES old: on call with an older
 * position, it waits for its next report.
 */
export const OFFER_WINDOW_SECONDS = 120;
export const POSITION_FRESH_MINUTES = 30;
/** The largest `location.max_distance_meters` a task may have: how far any offer can reach. */
export const MAX_TASK_RADIUS_METERS = 50_000;
/**
 * The statuses of an offer the worker declined or let lapse (`expired` without `accepted_at`; while the task's
 * deadline is ahead an `expired` assignment is always such an offer, since accepted work expires only at the
 * deadline). Such an offer keeps nobody from the task: it is listed to them and they may take it, the same row
 * becoming `accepted` (product-decisions §16); only the matcher never offers them that task again.
 */
export const DECLINED_OR_LAPSED_STATUSES = ['declined', 'expired'] as const;
/** Offer answers considered for a worker's responsiveness (newest first). */
export const RESPONSE_HISTORY = 20;
/** Responsiveness of a worker who has never been offered anything: between a fast and a slow responder. */
export const NEW_WORKER_RESPONSIVENESS = 0.5;

export const SCORE_WEIGHTS = { proximity: 0.5, reputation: 0.3, responsiveness: 0.2 } as const;

/** Responsiveness of a worker, 0 to 1, from its median answer time (null: never offered anything). */
export function responsiveness(medianAnswerSeconds: number | null): number {
  return medianAnswerSeconds === null
    ? NEW_WORKER_RESPONSIVENESS
    : Math.max(0, 1 - Math.min(medianAnswerSeconds, OFFER_WINDOW_SECONDS) / OFFER_WINDOW_SECONDS);
}

export interface OfferCandidate {
  workerId: string;
  distanceMeters: number;
  reputation: number;
  /** Median seconds from offer to answer over the recent offers (a lapse counts as the full window); null: none. */
  medianAnswerSeconds: number | null;
}

/**
 * score = 0.5 * proximity + 0.3 * reputation / 5 + 0.2 * responsiveness, each part in [0, 1]:
 * - proximity = 1 - distance / max_distance_meters of the task (the task's own radius defines "near");
 * - responsiveness = 1 - median answer time / 120 s (an accept or decline in 10 s scores 0.92, a lapse 0).
 * Distance weighs most because travel time is what the agent waits for; reputation next (quality); responsiveness
 * last, since a slow answer only costs up to one 120 s window before the next worker is asked.
 */
export function offerScore(c: OfferCandidate, maxDistanceMeters: number): number {
  return (
    SCORE_WEIGHTS.proximity * proximity(c.distanceMeters, maxDistanceMeters) +
    SCORE_WEIGHTS.reputation * (Math.min(5, Math.max(0, c.reputation)) / 5) +
    SCORE_WEIGHTS.responsiveness * responsiveness(c.medianAnswerSeconds)
  );
}

function proximity(distanceMeters: number, maxDistanceMeters: number): number {
  return Math.max(0, 1 - distanceMeters / maxDistanceMeters);
}

/** A task one worker could be offered: how far it is and the task's own radius. */
export interface TaskForWorker {
  taskId: string;
  distanceMeters: number;
  maxDistanceMeters: number;
}

/**
 * The tasks one worker could be offered, best first by the same score: the worker's reputation and responsiveness
 * are the same for every task, so only proximity (distance within each task's radius) tells them apart; ties go to
 * the nearer task, then to the lower id.
 */
export function rankTasksForWorker(tasks: TaskForWorker[]): TaskForWorker[] {
  return bestFirst(
    tasks,
    (t) => proximity(t.distanceMeters, t.maxDistanceMeters),
    (t) => t.taskId,
  );
}

/** Best first; ties go to the nearer worker, then to the lower id (a stable order). */
export function rankCandidates(candidates: OfferCandidate[], maxDistanceMeters: number): OfferCandidate[] {
  return bestFirst(
    candidates,
    (c) => offerScore(c, maxDistanceMeters),
    (c) => c.workerId,
  );
}

/** Highest score first; ties go to the nearer, then to the lower id: a total order, whatever the input's order. */
function bestFirst<T extends { distanceMeters: number }>(
  items: T[],
  score: (x: T) => number,
  id: (x: T) => string,
): T[] {
  const scored = items.map((x) => ({ x, score: score(x), id: id(x) }));
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      a.x.distanceMeters - b.x.distanceMeters ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return scored.map((s) => s.x);
}
