import type { Answers, AnswerSchema, TaskCreateBody, TypedTaskResult } from '../answers';
import type { components, paths } from '../generated/openapi';
import { Resource } from '../resource';
import type { RequestOptions } from '../requester';
import type { WithLastResponse } from '../response';

type Schemas = components['schemas'];

export type TaskListParams = NonNullable<paths['/v1/tasks']['get']['parameters']['query']>;

/** Your tasks: price, post, follow, review and cancel them. */
export class Tasks extends Resource {
  /** Prices a task without creating it: cost split, whether the balance covers it, refunds, workers nearby. */
  readonly quote: (
    body: TaskCreateBody,
    opts?: RequestOptions,
  ) => Promise<WithLastResponse<Schemas['TaskQuoteResponse']>> = this.method({
    verb: 'POST',
    path: '/v1/tasks/quote',
    body: true,
  }) as never;
  /**
   * Creates a task, holding budget_cents x max_workers in escrow (402 LegworkInsufficientBalanceError if short).
   * Its `answer_schema` may be written `as const`: pass the same object to `typedResult` to read the answers typed.
   */
  readonly create: (
    body: TaskCreateBody,
    opts?: RequestOptions,
  ) => Promise<WithLastResponse<Schemas['TaskResponse']>> = this.method({
    verb: 'POST',
    path: '/v1/tasks/create',
    body: true,
  }) as never;
  /** A task: status, progress, assignments (with each submission once made), deadline. */
  readonly get = this.method({ verb: 'GET', path: '/v1/tasks/{task_id}' });
  /** Your tasks, newest first: await for a page, or `for await` over every task. */
  readonly list = this.pages({ path: '/v1/tasks' });
  /** The task's result (see GET /v1/tasks/{id}/result for when it is available). */
  readonly result = this.method({ verb: 'GET', path: '/v1/tasks/{task_id}/result' });

  /**
   * The task's result with its answers typed by the schema the task was created with, written `as const`:
   * `(await legwork.tasks.typedResult(id, schema)).result?.data.open` is a `boolean`. The schema is only read for
   * its type; the API checked every answer against the task's own schema before accepting it.
   */
  typedResult<const S extends AnswerSchema>(
    taskId: string,
    _schema: S,
    opts?: RequestOptions,
  ): Promise<WithLastResponse<TypedTaskResult<Answers<S>>>> {
    return this.result(taskId, opts) as Promise<WithLastResponse<TypedTaskResult<Answers<S>>>>;
  }
  /** Accepts (`accept_result: true`) or rejects a submitted result, optionally one assignment's. */
  readonly review = this.method({ verb: 'POST', path: '/v1/tasks/{task_id}/feedback', body: true });
  /**
   * The task's message threads (one per assignment whose worker accepted, with unread counts), or with
   * `{assignment_id}` that thread's messages, which then count as read.
   */
  readonly messages = this.method({ verb: 'GET', path: '/v1/tasks/{task_id}/messages', query: true });
  /** Writes to the worker of one assignment (`{assignment_id, body}`). */
  readonly sendMessage = this.method({ verb: 'POST', path: '/v1/tasks/{task_id}/messages', body: true });
  /** Cancels a task that is not finished: open slots refunded, an accepted worker compensated. */
  readonly cancel = this.method({ verb: 'POST', path: '/v1/tasks/{task_id}/cancel' });
}
