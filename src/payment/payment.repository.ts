import type { DataSource, EntityManager } from 'typeorm';
import type { PaymentProviderName, PayoutProviderName } from '../common/payment-providers';
import { numericColumns, sqlRows } from '../database/sql';
import type { Currency, OrderStatus, PaymentMethod, PaymentType, RefundReasonCode } from './payment-rules';

type Db = Pick<EntityManager, 'query'> | Pick<DataSource, 'query'>;

/** A payment_orders row with bigint columns as numbers (every amount is far below 2^53). */
export interface OrderRow {
  id: string;
  agent_id: string;
  task_id: string | null;
  amount_cents: number;
  currency: Currency;
  fx_rate_micros: number | null;
  provider_amount_cents: number;
  payment_method: PaymentMethod;
  /** Where the money settles: the ledger clearing account and the provider asked about the order. */
  provider: PaymentProviderName;
  payment_type: PaymentType | null;
  status: OrderStatus;
  refunded_cents: number;
  provider_refunded_cents: number;
  payment_url: string | null;
  qr_code_url: string | null;
  jsapi_params: Record<string, string> | null;
  return_url: string | null;
  callback_url: string | null;
  metadata: Record<string, unknown>;
  provider_txn_id: string | null;
  failure_reason: string | null;
  expires_at: Date;
  paid_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type RefundStatus = 'processing' | 'completed' | 'failed';

export interface RefundRow {
  id: string;
  order_id: string;
  agent_id: string;
  amount_cents: number;
  provider_amount_cents: number;
  reason_code: RefundReasonCode;
  reason: string;
  refund_method: 'original';
  status: RefundStatus;
  provider_refund_id: string | null;
  failure_reason: string | null;
  completed_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type WithdrawalStatus = 'pending_review' | 'processing' | 'completed' | 'failed' | 'rejected';

export interface WithdrawalRow {
  id: string;
  worker_id: string;
  amount_cents: number;
  provider: PayoutProviderName;
  payee_account: string;
  payee_name: string | null;
  status: WithdrawalStatus;
  review_reason: 'large_amount' | 'first_withdrawal' | null;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  rejection_reason: string | null;
  provider_transfer_id: string | null;
  failure_reason: string | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ORDER_NUMBERS = [
  'amount_cents',
  'fx_rate_micros',
  'provider_amount_cents',
  'refunded_cents',
  'provider_refunded_cents',
];

/** pg returns bigint as text; the money columns become numbers here, once. */
export const toOrder = (row: Record<string, unknown>): OrderRow =>
  numericColumns<OrderRow>(row, ORDER_NUMBERS);
export const toRefund = (row: Record<string, unknown>): RefundRow =>
  numericColumns<RefundRow>(row, ['amount_cents', 'provider_amount_cents']);
export const toWithdrawal = (row: Record<string, unknown>): WithdrawalRow =>
  numericColumns<WithdrawalRow>(row, ['amount_cents']);

export async function findOrder(db: Db, id: string, opts: { lock?: boolean } = {}): Promise<OrderRow | null> {
  const rows = await sqlRows(
    db,
    `SELECT * FROM payment_orders WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows.length ? toOrder(rows[0]) : null;
}

export async function findRefund(
  db: Db,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<RefundRow | null> {
  const rows = await sqlRows(
    db,
    `SELECT * FROM payment_refunds WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows.length ? toRefund(rows[0]) : null;
}

export async function findWithdrawal(
  db: Db,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<WithdrawalRow | null> {
  const rows = await sqlRows(db, `SELECT * FROM withdrawals WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`, [
    id,
  ]);
  return rows.length ? toWithdrawal(rows[0]) : null;
}

/** The latest refund of an order (for already_refunded). */
export async function latestRefund(db: Db, orderId: string): Promise<RefundRow | null> {
  const rows = await sqlRows(
    db,
    `SELECT * FROM payment_refunds WHERE order_id = $1 AND status <> 'failed'
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [orderId],
  );
  return rows.length ? toRefund(rows[0]) : null;
}
