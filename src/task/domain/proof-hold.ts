import { higherRisk, riskOf, type ProofRisk } from './proof-signals';
import type { Photo } from '../task.repository';

/**
 * A human before any penalty (product-decisions §18), as pure rules. A submission whose risk is `high` is held from the
 * 72-hour auto-approval until the agent or an operator decides; one nobody decides within REVIEW_HOLD_DAYS is
 * approved, and the operators' queue keeps it with a note.
 */
export const REVIEW_HOLD_DAYS = 14;

/** What the 14-day sweep writes on a held submission it approves, for the operators' queue. */
export const HOLD_LAPSED_NOTE = `Approved automatically: nobody decided within ${REVIEW_HOLD_DAYS} days of the submission.`;

/** A submission's risk: the highest of its checked photos' risks; low when it has none. */
export function submissionRisk(photos: readonly Photo[]): ProofRisk {
  let risk: ProofRisk = 'low';
  for (const p of photos) {
    const v = p.verification;
    if (!v) continue;
    risk = higherRisk(risk, v.risk ?? riskOf(v.signals ?? []));
  }
  return risk;
}

/** Whether a submission of this risk waits for a person before it can be approved without one. */
export function reviewRequired(risk: ProofRisk): boolean {
  return risk === 'high';
}

/** When a held submission is approved if nobody decides: REVIEW_HOLD_DAYS after it was submitted. */
export function holdDeadline(submittedAt: Date): Date {
  return new Date(submittedAt.getTime() + REVIEW_HOLD_DAYS * 86_400_000);
}
