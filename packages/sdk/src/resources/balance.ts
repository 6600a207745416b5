import { Resource } from '../resource';

/** The available balance (escrow not counted). */
export class Balance extends Resource {
  readonly retrieve = this.method({ verb: 'GET', path: '/v1/payment/balance' });
}
