/**
 * What a worker may ask a person to look at again (`POST /v1/worker/reviews`, product-decisions §18), one row a
 * subject: the table the request's validation, the ownership check and the operator's reversal are read from.
 * Issue 30's disputes add their subject here (and to the CHECK of worker_review_requests.subject).
 *
 * - fraud_hold: an operator's confirmed fraud on one of the worker's submissions; subject_id is the proof review's id
 *   (the assignment's). Reversing it removes the reputation penalty and lifts the suspension the decision started;
 *   the rejected result's money stays where the rejection put it (money disputes are issue 30's).
 * - suspension: a live suspension and/or withdrawal pause of the worker; subject_id is its id. Reversing lifts it.
 */
export const REVIEW_SUBJECTS = ['fraud_hold', 'suspension'] as const;
export type ReviewSubject = (typeof REVIEW_SUBJECTS)[number];

export interface ReviewSubjectSpec {
  /** For the reference and the console. */
  description: string;
  /**
   * SQL selecting the subject when it is the worker's ($1 subject id, $2 worker id): one row with `live` (whether
   * there is still something to reverse) or none (404).
   */
  ownedSql: string;
}

export const REVIEW_SUBJECT_TABLE: Readonly<Record<ReviewSubject, ReviewSubjectSpec>> = {
  fraud_hold: {
    description: 'A confirmed fraud on one of your submissions (subject_id: the review_id you were told).',
    ownedSql: `SELECT (reversed_at IS NULL) AS live FROM proof_reviews
                WHERE assignment_id = $1 AND worker_id = $2 AND outcome = 'confirmed_fraud'`,
  },
  suspension: {
    description: 'A suspension or withdrawal pause of your account (subject_id: its suspension_id).',
    ownedSql: `SELECT (lifted_at IS NULL) AS live FROM worker_suspensions WHERE id = $1 AND worker_id = $2`,
  },
};

export const REVIEW_OUTCOMES = ['upheld', 'reversed'] as const;
export type ReviewOutcome = (typeof REVIEW_OUTCOMES)[number];
