import { Resource } from '../resource';

/** The agent account the API key belongs to. */
export class Account extends Resource {
  /** Your account: balance, tier, rate limits, the open-task limit (needs `payment:read` with an API key). */
  readonly retrieve = this.method({ verb: 'GET', path: '/v1/agent/me' });
}
