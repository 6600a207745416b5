import { ApiError, type FieldProblem } from '../../common/errors/api-error';
import {
  checkAnswerSchema,
  FIELD_KINDS,
  isObject,
  withoutNulls,
  type AnswerSchemaModel,
} from './answer-schema';

/**
 * Agreement review for tasks with several workers (product-decisions §17): `review_policy {type: "agreement",
 * fields, min_agreeing}`. Submissions whose answers to `fields` are equal (multi-selects compared as sets) agree;
 * once `min_agreeing` of them agree, they are approved automatically, and so is every later submission that agrees
 * with them. Others wait for the agent (and the 72-hour rule): disagreement never rejects anyone.
 *
 * Pure: the settlement reads the task's submissions under the task lock and asks `agreeingToApprove` which to
 * approve, so concurrent submissions are judged one after another, in the order the lock admits them, and the
 * outcome is the same whichever order they arrive in (the consensus is the first value to reach min_agreeing, and a
 * submission waits only if its answers differ from it).
 */

export const REVIEW_POLICY_TYPES = ['agreement'] as const;

export interface ReviewPolicy {
  type: 'agreement';
  fields: string[];
  min_agreeing: number;
}

/** A submission as agreement reads it. */
export interface AgreementCandidate {
  id: string;
  status: string;
  submitted_at: Date | null;
  result_data: Record<string, unknown> | null;
  /** `unable`: a "could not do it" report, which has no answers to agree with. */
  outcome?: 'done' | 'unable';
  /** Held for a person's decision (product-decisions §18). */
  review_required?: boolean;
}

/**
 * Which submissions count towards agreement: submitted or approved. Rejected ones do not (the agent judged them),
 * nor do submissions held for review (§18) until a person approved them (a machine never approves them), nor
 * "could not do it" reports (§19, even once accepted): this is the one place that decides.
 */
export function countsForAgreement(a: AgreementCandidate): boolean {
  if (a.status === 'submitted' && a.review_required) return false;
  return (
    (a.status === 'submitted' || a.status === 'approved') &&
    a.outcome !== 'unable' &&
    a.submitted_at !== null &&
    a.result_data !== null
  );
}

/** Checks the policy against the task's schema and worker count; problems are named by path. */
export function checkReviewPolicy(
  policy: unknown,
  schema: AnswerSchemaModel | null,
  maxWorkers: number,
  path = 'review_policy',
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const say = (field: string, message: string) => problems.push({ field, message });
  if (!isObject(policy)) return [{ field: path, message: 'must be an object' }];
  for (const key of Object.keys(policy)) {
    if (!['type', 'fields', 'min_agreeing'].includes(key))
      say(`${path}.${key}`, 'is not a review_policy field');
  }
  if (policy.type !== 'agreement') say(`${path}.type`, 'must be "agreement"');
  if (!schema) say(path, 'needs an answer_schema: agreement compares answers to its fields');
  const min = policy.min_agreeing;
  if (typeof min !== 'number' || !Number.isInteger(min) || min < 2 || min > maxWorkers) {
    say(`${path}.min_agreeing`, `must be an integer from 2 to max_workers (${maxWorkers})`);
  }
  const fields = policy.fields;
  if (!Array.isArray(fields) || fields.length === 0) {
    say(`${path}.fields`, 'must list at least one field of answer_schema');
    return problems;
  }
  fields.forEach((name, i) => {
    const at = `${path}.fields[${i}]`;
    const field = schema?.fields.find((f) => f.name === name);
    if (typeof name !== 'string' || !field) say(at, 'is not a field of answer_schema');
    else if (fields.indexOf(name) !== i) say(at, `"${name}" is listed twice`);
    else if (field && !FIELD_KINDS[field.kind].agreement) {
      say(
        at,
        `a ${field.kind.replace('_', ' ')} field cannot be compared: use boolean, choice, integer, date or multi-select fields`,
      );
    } else if (field && !field.required) {
      say(at, `must be required in answer_schema, so every submission answers it`);
    }
  });
  return problems;
}

/** The compared answers of a submission, as one string (multi-selects sorted: compared as sets). */
export function agreementKey(policy: ReviewPolicy, data: Record<string, unknown>): string {
  return JSON.stringify(
    policy.fields.map((f) => {
      const v = data[f];
      return Array.isArray(v) ? [...(v as string[])].sort() : (v ?? null);
    }),
  );
}

/**
 * The submitted (not yet approved) assignments agreement approves now: those whose answers equal the consensus,
 * the first answer reached by min_agreeing counting submissions in submission order. None while no answer has
 * reached it.
 */
export function agreeingToApprove<A extends AgreementCandidate>(policy: ReviewPolicy, assignments: A[]): A[] {
  const counted = assignments
    .filter(countsForAgreement)
    .sort((x, y) => x.submitted_at!.getTime() - y.submitted_at!.getTime() || x.id.localeCompare(y.id));
  const seen = new Map<string, number>();
  let consensus: string | null = null;
  for (const a of counted) {
    const key = agreementKey(policy, a.result_data!);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (n >= policy.min_agreeing) {
      consensus = key;
      break;
    }
  }
  if (consensus === null) return [];
  return counted.filter(
    (a) => a.status === 'submitted' && agreementKey(policy, a.result_data!) === consensus,
  );
}

/**
 * The answer_schema and review_policy of a creation body (or a quote's), checked together: 400 validation_error with
 * every problem named by its path, or the schema as it is stored (optional nulls dropped) and its model, both null
 * without a schema.
 */
export function checkAnswerRules(
  answerSchema: unknown,
  reviewPolicy: unknown,
  maxWorkers: number,
): { schema: Record<string, unknown> | null; model: AnswerSchemaModel | null } {
  const stored = answerSchema === undefined || answerSchema === null ? null : withoutNulls(answerSchema);
  const checked = stored === null ? null : checkAnswerSchema(stored);
  const problems = [...(checked?.problems ?? [])];
  if (reviewPolicy !== undefined && reviewPolicy !== null && problems.length === 0) {
    problems.push(...checkReviewPolicy(reviewPolicy, checked?.model ?? null, maxWorkers));
  }
  if (problems.length > 0) {
    throw ApiError.validation(problems, `${problems[0].field}: ${problems[0].message}`);
  }
  return { schema: (stored as Record<string, unknown> | null) ?? null, model: checked?.model ?? null };
}
