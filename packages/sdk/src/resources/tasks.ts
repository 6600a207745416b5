import type { paths } from '../generated/openapi';
import { Resource } from '../resource';

export type TaskListParams = NonNullable<paths['/v1/tasks']['get']['parameters']['query']>;

/** Your tasks: price, post, follow, review and cancel them. */
export class Tasks extends Resource {
  /** Prices a task without creating it: cost split, whether the balance covers it, refunds, workers nearby. */
  readonly quote = this.method({ verb: 'POST', path: '/v1/tasks/quote', body: true });
  /** Creates a task, holding budget_cents x max_workers in escrow (402 LegworkInsufficientBalanceError if short). */
  readonly create = this.method({ verb: 'POST', path: '/v1/tasks/create', body: true });
  /** A task: status, progress, assignments (with each submission once made), deadline. */
  readonly get = this.method({ verb: 'GET', path: '/v1/tasks/{task_id}' });
  /** Your tasks, newest first: await for a page, or `for await` over every task. */
  readonly list = this.pages({ path: '/v1/tasks' });
  /** The task's result (see GET /v1/tasks/{id}/result for when it is available). */
  readonly result = this.method({ verb: 'GET', path: '/v1/tasks/{task_id}/result' });
  /** Accepts (`accept_result: true`) or rejects a submitted result, optionally one assignment's. */
  readonly review = this.method({ verb: 'POST', path: '/v1/tasks/{task_id}/feedback', body: true });
  /** Cancels a task that is not finished: open slots refunded, an accepted worker compensated. */
  readonly cancel = this.method({ verb: 'POST', path: '/v1/tasks/{task_id}/cancel' });
}
