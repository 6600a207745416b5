import type { TaskCreateBody } from '../answers';
import type { components } from '../generated/openapi';
import { Resource } from '../resource';
import type { RequestOptions } from '../requester';
import type { WithLastResponse } from '../response';

type Schemas = components['schemas'];

/**
 * A person's approval of one task over the key's spend cap: ask with the exact task body, have the person open
 * `approval_url` (signed in to the console), then create the task with the same body plus `spend_approval_id`.
 */
export class SpendApprovals extends Resource {
  /** Asks for an approval of this task body (402 when it costs more than the key's approval ceiling). */
  readonly create: (
    body: TaskCreateBody,
    opts?: RequestOptions,
  ) => Promise<WithLastResponse<Schemas['SpendApprovalResponse']>> = this.method({
    verb: 'POST',
    path: '/v1/spend-approvals',
    body: true,
  }) as never;
  /** The approval and its status: pending, approved, declined, used or expired. */
  readonly retrieve = this.method({ verb: 'GET', path: '/v1/spend-approvals/{approval_id}' });
}
