/**
 * The windows of a dispute (product-decisions §19), on the task's time (a sandbox test clock's for a task on one):
 * a worker may dispute a rejection for 72 hours after it; the agent may answer a dispute for 48 hours after it
 * opened, after which an operator may decide without the answer.
 */
export const DISPUTE_WINDOW_HOURS = 72;
export const DISPUTE_ANSWER_HOURS = 48;

export function hoursAfter(at: Date, hours: number): Date {
  return new Date(at.getTime() + hours * 3_600_000);
}
