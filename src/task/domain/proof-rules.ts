import { ApiError } from '../../common/errors/api-error';
import type { PhotoVerification } from '../../events/event-data';
import type { TaskType } from './task-policy';

/**
 * What a submission must prove, per task type: one row per type of TASK_TYPES, so a new type does not compile until
 * someone decides what it needs. Location proof (location-proof.ts) stays the evidence checker: by the time these
 * rules run, every photo the submission carries has been placed or refused, on every task type. The rules judge the
 * submission as a whole, under the task lock, before anything is recorded; a refusal leaves the assignment as it was.
 *
 * Rules are pure (no database, no clock), so a rule and its refusals are unit-tested on plain values, and the
 * submission path calls `judgeProof` once, whichever route brought the submission. What a rule may read is spelled
 * out by the types below; the caller passes the task row, the submission and the photo list whole, so a rule that
 * needs more (the answer schema of product-decisions §17) widens these types here, not the submission service.
 */

/** What the rules read of the task. */
export interface ProofTask {
  task_type: TaskType;
}

/** What the worker sends besides its files. */
export interface ProofSubmission {
  result_data: Readonly<Record<string, unknown>>;
  worker_notes: string | null;
}

/**
 * A file attached to the submission, in the order sent: a photo whose location was checked carries its
 * verification; another proof file (a PDF or video in photo_urls) carries none, and proves no presence.
 */
export interface ProofFile {
  verification?: PhotoVerification | null;
}

/** One submission as the rules judge it. */
export interface ProofCase {
  task: ProofTask;
  submission: ProofSubmission;
  photos: readonly ProofFile[];
}

/**
 * The rules' answer: refusals in the order of the checks, so the first is the one the worker gets. A finding that
 * must not refuse by itself (product-decisions §18's signals) belongs in a list of its own beside them.
 */
export interface ProofVerdict {
  refusals: readonly ApiError[];
}

/** One check: the refusal it gives (an ApiError of the catalogue, answered as it is), or null when it passes. */
export type ProofCheck = (proof: ProofCase) => ApiError | null;

/** What a task type asks of a submission, checked in this order. */
export interface ProofRule {
  checks: readonly ProofCheck[];
}

/** product-decisions §10: a photo task needs at least one photo whose location was checked. */
const aCheckedPhoto: ProofCheck = ({ photos }) =>
  photos.some((p) => p.verification)
    ? null
    : new ApiError(
        'photo_required',
        'A photo task needs at least one photo whose location was checked: use submit-with-photo, or attach an uploaded JPEG or PNG in photo_urls.',
      );

/**
 * The types other than photo ask for no photo: the result data is the answer. A photo they carry is still placed
 * (or refused) by the location check, and shown to the agent with its verification.
 */
export const PROOF_RULES: Readonly<Record<TaskType, ProofRule>> = {
  photo: { checks: [aCheckedPhoto] },
  verification: { checks: [] },
  data_collection: { checks: [] },
  delivery: { checks: [] },
  other: { checks: [] },
};

/** The checks of the task's type; the submission path refuses with the first refusal. */
export function judgeProof(proof: ProofCase): ProofVerdict {
  return applyRule(PROOF_RULES[proof.task.task_type], proof);
}

/** Every check of the rule runs, in order, so the verdict lists all that the submission lacks. */
export function applyRule(rule: ProofRule, proof: ProofCase): ProofVerdict {
  const refusals: ApiError[] = [];
  for (const check of rule.checks) {
    const refusal = check(proof);
    if (refusal) refusals.push(refusal);
  }
  return { refusals };
}
