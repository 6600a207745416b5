import type {
  CostBreakdownView,
  ReferenceOrderResponse,
  ReferenceOrderStatusResponse,
  ReferenceRefundResponse,
} from './dtos/payment-reference.dto';
import type {
  JsapiParamsView,
  PaymentOrderResponse,
  PaymentStatusResponse,
  RefundResponse,
} from './dtos/payment-v1.dto';
import type {
  AdminWithdrawalResponse,
  WithdrawalResponse,
  WorkerWithdrawalItem,
} from './dtos/withdrawal.dto';
import type { OrderRow, RefundRow, WithdrawalRow } from './payment.repository';

/** Row-to-response mapping for both surfaces, so every route answers with the same shapes. */

/** A provider refund usually reaches the payer within this long; shown until the provider confirms it. */
const REFUND_ARRIVAL_MS = 3 * 24 * 3600 * 1000;

export function orderView(o: OrderRow): PaymentOrderResponse {
  return {
    order_id: o.id,
    amount_cents: o.amount_cents,
    status: o.status,
    payment_method: o.payment_method,
    payment_type: o.payment_type,
    qr_code_url: o.qr_code_url,
    payment_url: o.payment_url,
    jsapi_params: o.jsapi_params as unknown as JsapiParamsView | null,
    expires_at: o.expires_at,
    created_at: o.created_at,
  };
}

export function orderStatusView(o: OrderRow): PaymentStatusResponse {
  return {
    ...orderView(o),
    transaction_id: o.provider_txn_id,
    paid_at: o.paid_at,
    refunded_cents: o.refunded_cents,
  };
}

export function referenceOrderView(o: OrderRow): ReferenceOrderResponse {
  return {
    order_id: o.id,
    task_id: o.task_id,
    payment_url: o.payment_url,
    qr_code_url: o.qr_code_url,
    amount: o.amount_cents,
    currency: o.currency,
    cny_amount: o.provider_amount_cents,
    payment_method: o.payment_method,
    status: o.status,
    expires_at: o.expires_at,
    created_at: o.created_at,
  };
}

export function referenceStatusView(
  o: OrderRow,
  cost: CostBreakdownView | null,
): ReferenceOrderStatusResponse {
  return {
    order_id: o.id,
    task_id: o.task_id,
    amount: o.amount_cents,
    currency: o.currency,
    cny_amount: o.provider_amount_cents,
    payment_method: o.payment_method,
    status: o.status,
    transaction_id: o.provider_txn_id,
    refunded_amount: o.refunded_cents,
    paid_at: o.paid_at,
    expires_at: o.expires_at,
    created_at: o.created_at,
    cost_breakdown: cost,
  };
}

export function refundView(o: OrderRow, r: RefundRow): RefundResponse {
  return {
    refund_id: r.id,
    order_id: o.id,
    refund_amount_cents: r.amount_cents,
    status: r.status,
    payment_method: o.payment_method,
    refund_reason: r.reason,
    order_refunded_cents: o.refunded_cents,
    failure_reason: r.failure_reason,
    created_at: r.created_at,
    completed_at: r.completed_at,
  };
}

export function referenceRefundView(o: OrderRow, r: RefundRow): ReferenceRefundResponse {
  return {
    refund_id: r.id,
    order_id: o.id,
    amount: r.amount_cents,
    currency: o.currency,
    status: r.status,
    refund_method: r.refund_method,
    reason: r.reason,
    reason_code: r.reason_code,
    estimated_arrival: r.completed_at ?? new Date(r.created_at.getTime() + REFUND_ARRIVAL_MS),
    created_at: r.created_at,
  };
}

export function withdrawalView(w: WithdrawalRow): WithdrawalResponse {
  return {
    withdrawal_id: w.id,
    amount_cents: w.amount_cents,
    status: w.status,
    alipay_account: w.payee_account,
    real_name: w.payee_name,
    review_reason: w.review_reason,
    failure_reason: w.failure_reason,
    rejection_reason: w.rejection_reason,
    created_at: w.created_at,
    completed_at: w.completed_at,
  };
}

export function adminWithdrawalView(w: WithdrawalRow): AdminWithdrawalResponse {
  return {
    ...withdrawalView(w),
    worker_id: w.worker_id,
    reviewed_by: w.reviewed_by,
    reviewed_at: w.reviewed_at,
    provider_transfer_id: w.provider_transfer_id,
  };
}

/** The worker's history: the account masked (the list is shown on a phone screen), no operator or provider ids. */
export function workerWithdrawalView(w: WithdrawalRow): WorkerWithdrawalItem {
  return {
    withdrawal_id: w.id,
    amount_cents: w.amount_cents,
    status: w.status,
    alipay_account: maskAccount(w.payee_account),
    review_reason: w.review_reason,
    rejection_reason: w.rejection_reason,
    failure_reason: w.failure_reason,
    created_at: w.created_at,
    reviewed_at: w.reviewed_at,
    completed_at: w.completed_at,
    updated_at: w.updated_at,
  };
}

/**
 * An Alipay account with its middle hidden: w***@example.com for a login email, 138****8000 for a mobile number,
 * 2088********1234 for a user id, and the first and last two characters of anything else.
 */
export function maskAccount(account: string): string {
  const at = account.indexOf('@');
  if (at > 0) return `${account.slice(0, 1)}***${account.slice(at)}`;
  if (account.length <= 4) return '*'.repeat(account.length);
  const keepStart = /^\d{11}$/.test(account) ? 3 : /^2088\d{12}$/.test(account) ? 4 : 2;
  const keepEnd = /^\d+$/.test(account) ? 4 : 2;
  return `${account.slice(0, keepStart)}${'*'.repeat(account.length - keepStart - keepEnd)}${account.slice(-keepEnd)}`;
}
