import type { components } from '../generated/openapi';
import { Resource, type Method } from '../resource';
import type { RequestOptions } from '../requester';

type PaymentMethod = components['schemas']['CreatePaymentRequest']['payment_method'];

/** Money in: top-ups of the balance and payment orders, their status and refunds. */
export class Payments extends Resource {
  /** Tops up the balance: a payment order whose pay_url the payer opens. */
  readonly recharge = this.method({ verb: 'POST', path: '/v1/payment/recharge', body: true });
  readonly create = this.method({ verb: 'POST', path: '/v1/payment/create', body: true });
  readonly refund = this.method({ verb: 'POST', path: '/v1/payment/refund', body: true });
  private readonly query = this.method({ verb: 'GET', path: '/v1/payment/query/{order_id}', query: true });

  /** An order's status, asked of its provider (`payment_method` says which). */
  retrieve(
    orderId: string,
    paymentMethod: PaymentMethod,
    opts?: RequestOptions,
  ): ReturnType<Method<'GET', '/v1/payment/query/{order_id}'>> {
    return this.query(orderId, { payment_method: paymentMethod }, opts);
  }
}
