import { ApiError } from '../../common/errors/api-error';
import type { PhotoVerification } from '../../events/event-data';
import { RESULT_DATA_MAX_BYTES, type TaskType } from './task-policy';
import { validateAnswers } from './answer-validation';

/**
 * What a submission must prove, per task type: one row per type of TASK_TYPES, so a new type does not compile until
 * someone decides what it needs. Location proof (location-proof.ts) stays the evidence checker: by the time these
 * rules run, every photo the submission carries has been placed or refused, on every task type. The rules judge the
 * submission as a whole, under the task lock, before anything is recorded; a refusal leaves the assignment as it was.
 *
 * Rules are pure (no database, no clock), so a rule and its refusals are unit-tested on plain values, and the
 * submission path calls `judgeProof` once, whichever route brought the submission. What a rule may read is spelled
 * out by the types below; the caller passes the task row, the submission and the photo list whole, so a rule that
 * needs more widens these types here, not the submission service.
 *
 * The answers come first (`judgeAnswers`, product-decisions §17): a task with an answer_schema gets its result_data
 * validated before any photo is looked at, since a photo field's answer names a photo the submission must check.
 */

/** What the rules read of the task. */
export interface ProofTask {
  task_type: TaskType;
  /** The agent's answer schema (product-decisions §17), null for a task with free-form result_data. */
  answer_schema: Record<string, unknown> | null;
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
  /** The photo field of the answer schema this photo answers; absent or null for a photo of photo_urls. */
  field?: string | null;
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

/**
 * The answers of a submission, before anything else is judged: against the answer schema (400 answer_invalid with
 * one detail per field), or, without one, free-form JSON of at most RESULT_DATA_MAX_BYTES as the interface spec has
 * it (400 validation_error, as before schemas existed). The answers are what gets stored: optional fields sent as
 * null are dropped.
 */
export function judgeAnswers(
  task: ProofTask,
  resultData: Readonly<Record<string, unknown>>,
): { answers: Record<string, unknown>; refusal: ApiError | null } {
  if (!task.answer_schema) {
    const tooLarge = Buffer.byteLength(JSON.stringify(resultData)) > RESULT_DATA_MAX_BYTES;
    return {
      answers: { ...resultData },
      refusal: tooLarge
        ? ApiError.field('result_data', `must be at most ${RESULT_DATA_MAX_BYTES} bytes as JSON`)
        : null,
    };
  }
  const { answers, problems } = validateAnswers(task.answer_schema, { ...resultData });
  if (problems.length === 0) return { answers, refusal: null };
  const first = problems[0];
  return {
    answers,
    refusal: new ApiError(
      'answer_invalid',
      `The answers do not follow the task's answer_schema: ${first.field} ${first.message}` +
        (problems.length > 1 ? ` (and ${problems.length - 1} more in details)` : ''),
      { details: problems },
    ),
  };
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
