import type { paths } from '../generated/openapi';
import { Resource } from '../resource';

export type EventListParams = NonNullable<paths['/v1/agent/events']['get']['parameters']['query']>;

/** The events of your tasks, payments and webhooks, in the webhook payload shape. */
export class Events extends Resource {
  /** Your events, newest first: await for a page, or `for await` over all (`task_id` narrows to one task). */
  readonly list = this.pages({ path: '/v1/agent/events' });
  /** Sends the event to your webhook endpoints again. */
  readonly redeliver = this.method({ verb: 'POST', path: '/v1/agent/events/{event_id}/redeliver' });
}
