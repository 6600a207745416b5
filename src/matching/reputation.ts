/**
 * Worker reputation, product-decisions §5:
 *
 *   reputation = 5 * (0.6 * completion + 0.3 * rating / 5 + 0.1 * response)
 *
 * Each part is smoothed toward a prior of 0.8 weighted as 3 past tasks: part = (n * observed + 3 * 0.8) / (n + 3),
 * where n is the number of observations behind that part. With no history every part is 0.8 and the score 4.0.
 *
 * - completion: approved / finished, where finished = approved + rejected + abandoned + expired. Only work the worker
 *   took counts: an offer that lapsed unanswered is not a task the worker failed (it only slows the matcher's
 *   responsiveness score), while accepted work that expired at the deadline is.
 * - rating: the mean of the agents' review ratings (1 to 5) divided by 5; n = number of ratings.
 * - response: 1 when the median time from accept to submit is at most 30 minutes, falling linearly to 0 at 4 hours;
 *   n = number of submitted assignments.
 *
 * - confirmed fraud (product-decisions §18): each fraud an operator confirmed (and nobody reversed) takes
 *   FRAUD_PENALTY off the score, floored at 0. One confirmation takes a new worker (4.0) to 3.0, under the 3.5 line
 *   that caps unfinished assignments and under most agents' min_reputation; the completion ratio alone would barely
 *   move (one rejection among many approvals), which would make cheating cheap.
 *
 * Stored rounded to 2 decimals, and every rule (the 3.5 cap, min_reputation) compares the stored value, so what a
 * worker or agent sees is exactly what was decided on.
 */
export const REPUTATION_PRIOR = 0.8;
export const REPUTATION_PRIOR_WEIGHT = 3;
export const NEW_WORKER_REPUTATION = 4.0;
export const RESPONSE_FULL_SECONDS = 30 * 60;
export const RESPONSE_ZERO_SECONDS = 4 * 3600;
/** Points off the score per confirmed fraud (see above). */
export const FRAUD_PENALTY = 1;

export interface ReputationStats {
  approved: number;
  /** approved + rejected + abandoned + expired (of accepted work). */
  finished: number;
  ratingCount: number;
  /** Sum of the review ratings (each 1 to 5). */
  ratingSum: number;
  /** Assignments with both accepted_at and submitted_at. */
  responseCount: number;
  /** Median of submitted_at - accepted_at over them; null when there are none. */
  medianResponseSeconds: number | null;
  /** Frauds an operator confirmed and nobody reversed (product-decisions §18); absent is none. */
  confirmedFrauds?: number;
}

export interface Reputation {
  score: number;
  completion: number;
  rating: number;
  response: number;
}

function smooth(observed: number, n: number): number {
  return (n * observed + REPUTATION_PRIOR_WEIGHT * REPUTATION_PRIOR) / (n + REPUTATION_PRIOR_WEIGHT);
}

/** 1 up to 30 minutes, 0 from 4 hours, linear in between. */
export function responseScore(medianSeconds: number): number {
  if (medianSeconds <= RESPONSE_FULL_SECONDS) return 1;
  if (medianSeconds >= RESPONSE_ZERO_SECONDS) return 0;
  return (RESPONSE_ZERO_SECONDS - medianSeconds) / (RESPONSE_ZERO_SECONDS - RESPONSE_FULL_SECONDS);
}

export function computeReputation(s: ReputationStats): Reputation {
  const completion = smooth(s.finished > 0 ? s.approved / s.finished : 0, s.finished);
  // smooth(mean, n) = (sum + prior * weight) / (n + weight): written with the sum so no mean of zero ratings is taken.
  const rating =
    (s.ratingSum / 5 + REPUTATION_PRIOR_WEIGHT * REPUTATION_PRIOR) /
    (s.ratingCount + REPUTATION_PRIOR_WEIGHT);
  const response =
    s.medianResponseSeconds === null || s.responseCount === 0
      ? REPUTATION_PRIOR
      : smooth(responseScore(s.medianResponseSeconds), s.responseCount);
  const raw =
    5 * (0.6 * completion + 0.3 * rating + 0.1 * response) - FRAUD_PENALTY * (s.confirmedFrauds ?? 0);
  return { score: roundTo2(Math.min(5, Math.max(0, raw))), completion, rating, response };
}

/** Half away from zero at 2 decimals, with a tolerance for binary fractions such as 3.4999999999999996. */
export function roundTo2(x: number): number {
  return Math.round(x * 100 + 1e-9) / 100;
}
