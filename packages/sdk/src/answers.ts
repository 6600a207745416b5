import type { FromSchema } from 'json-schema-to-ts';
import type { components } from './generated/openapi';

type Schemas = components['schemas'];

/** Readonly all the way down: a schema written `as const` fits it, and so does a plain one. */
type DeepReadonly<T> = T extends (infer I)[]
  ? readonly DeepReadonly<I>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * An answer schema as you write it (product-decisions §17): the API's `AnswerSchema`, readonly so that a schema
 * written `as const` (which the answer types are inferred from) is accepted as it is.
 */
export type AnswerSchema = DeepReadonly<Schemas['AnswerSchema']>;

/**
 * The answers a schema asks for, as TypeScript: `{open: boolean; payment?: ('cash' | 'wechat')[]; ...}` from a
 * schema written `as const`. Answers never carry undeclared fields (the API refuses them), so neither does the type.
 */
export type Answers<S> = FromSchema<S & { additionalProperties: false }>;

type WithData<T, D> = Omit<T, 'data'> & { data: D };

/** GET /v1/tasks/{task_id}/result with every `data` typed by the task's answer schema. */
export type TypedTaskResult<D> = Omit<Schemas['TaskResultResponse'], 'result' | 'results' | 'submissions'> & {
  result: WithData<Schemas['TaskResult'], D> | null;
  results: WithData<Schemas['ApprovedResult'], D>[];
  submissions: WithData<Schemas['SubmissionView'], D>[];
};

/** A task creation body whose answer_schema may be written `as const`. */
export type TaskCreateBody = Omit<Schemas['CreateTaskRequest'], 'answer_schema'> & {
  answer_schema?: AnswerSchema;
};
