/**
 * Retry schedule of webhook deliveries: exponential (30 s, ×4 per attempt) capped at 12 hours, each delay scaled by
 * a random factor in [0.8, 1.2) so that receivers recovering from an outage are not hit by every retry at once.
 *
 * | after attempt | 1    | 2   | 3   | 4    | 5       | 6       | 7    | 8    | 9    |
 * | next in (±20%)| 30 s | 2 m | 8 m | 32 m | 2 h 8 m | 8 h 32m | 12 h | 12 h | 12 h |
 *
 * 10 attempts in all; without jitter the 10th comes 47 h 23 m after the first (about two days). After the 10th
 * failure the delivery is `failed` (the agent can still redeliver it by hand or reconcile with GET /v1/agent/events).
 */
export const MAX_ATTEMPTS = 10;
export const BASE_DELAY_MS = 30_000;
export const FACTOR = 4;
export const MAX_DELAY_MS = 12 * 3_600_000;
export const JITTER = 0.2;

/** How long a claimed delivery may stay unanswered before another runner may take it (far above the 5 s timeout). */
export const CLAIM_LEASE_MS = 60_000;

/** An endpoint failing without a single success for this long is disabled (and the agent told). */
export const DISABLE_AFTER_MS = 3 * 24 * 3_600_000;

/** The delay before attempt `attempt + 1`, or null when `attempt` was the last one. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  const base = Math.min(BASE_DELAY_MS * FACTOR ** (attempt - 1), MAX_DELAY_MS);
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** The largest delay retryDelayMs can return after `attempt` (tests move the clock by this much). */
export function maxRetryDelayMs(attempt: number): number {
  return Math.ceil(Math.min(BASE_DELAY_MS * FACTOR ** (attempt - 1), MAX_DELAY_MS) * (1 + JITTER));
}
