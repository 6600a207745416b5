/**
 * Push offers (product-decisions §5): numbers and the ranking score, in one place.
 *
 * A slot is offered to one worker at a time; the offer holds the slot for OFFER_WINDOW_SECONDS. A worker counts as
 * online for ONLINE_LAPSE_MINUTES after its last availability report.
 */
export const OFFER_WINDOW_SECONDS = 120;
export const ONLINE_LAPSE_MINUTES = 10;
/** Offer answers considered for a worker's responsiveness (newest first). */
export const RESPONSE_HISTORY = 20;
/** Responsiveness of a worker who has never been offered anything: between a fast and a slow responder. */
export const NEW_WORKER_RESPONSIVENESS = 0.5;

export const SCORE_WEIGHTS = { proximity: 0.5, reputation: 0.3, responsiveness: 0.2 } as const;

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
  const proximity = Math.max(0, 1 - c.distanceMeters / maxDistanceMeters);
  const responsiveness =
    c.medianAnswerSeconds === null
      ? NEW_WORKER_RESPONSIVENESS
      : Math.max(0, 1 - Math.min(c.medianAnswerSeconds, OFFER_WINDOW_SECONDS) / OFFER_WINDOW_SECONDS);
  return (
    SCORE_WEIGHTS.proximity * proximity +
    SCORE_WEIGHTS.reputation * (Math.min(5, Math.max(0, c.reputation)) / 5) +
    SCORE_WEIGHTS.responsiveness * responsiveness
  );
}

/** Best first; ties go to the nearer worker, then to the lower id (a stable order). */
export function rankCandidates(candidates: OfferCandidate[], maxDistanceMeters: number): OfferCandidate[] {
  const scored = candidates.map((c) => ({ c, score: offerScore(c, maxDistanceMeters) }));
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      a.c.distanceMeters - b.c.distanceMeters ||
      (a.c.workerId < b.c.workerId ? -1 : a.c.workerId > b.c.workerId ? 1 : 0),
  );
  return scored.map((s) => s.c);
}
