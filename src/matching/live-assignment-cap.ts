/**
 * Product-decisions §5: below this reputation a worker holds one live assignment (accepted or in progress) instead of
 * three. Offers (WorkerRanking), accepting an offer or a task, and the worker's profile all read the cap here.
 */
export const LOW_REPUTATION_THRESHOLD = 3.5;
export const LIVE_ASSIGNMENT_CAP = 3;
export const LOW_REPUTATION_LIVE_ASSIGNMENT_CAP = 1;

export function liveAssignmentCap(reputation: number): number {
  return reputation < LOW_REPUTATION_THRESHOLD ? LOW_REPUTATION_LIVE_ASSIGNMENT_CAP : LIVE_ASSIGNMENT_CAP;
}
