/**
 * The sandbox's own books for one provider: orders, refunds and transfers as the provider sees them, and the money
 * moved. Kept in memory (a restart starts empty); the service's reconciliation compares its ledger with `ledger()`.
 */
export type SandboxProvider = 'alipay' | 'wechat';

export type OrderState = 'pending' | 'paid' | 'declined' | 'expired' | 'closed';

export interface SandboxOrder {
  readonly outTradeNo: string;
  /** The provider's transaction id (Alipay trade_no, WeChat transaction_id). */
  readonly tradeNo: string;
  readonly amountCents: number;
  readonly subject: string;
  /** precreate, page, wap (Alipay); native, jsapi, h5 (WeChat). */
  readonly channel: string;
  readonly notifyUrl: string | null;
  readonly returnUrl: string | null;
  readonly payer: string | null;
  readonly attach: string | null;
  readonly cashierToken: string;
  readonly createdAt: Date;
  readonly expiresAt: Date | null;
  state: OrderState;
  failureReason: string | null;
  paidAt: Date | null;
  closedAt: Date | null;
  refundedCents: number;
}

export interface SandboxRefund {
  readonly outRefundNo: string;
  readonly refundId: string;
  readonly outTradeNo: string;
  readonly amountCents: number;
  readonly reason: string | null;
  readonly notifyUrl: string | null;
  readonly createdAt: Date;
  state: 'processing' | 'succeeded';
  succeededAt: Date | null;
}

export type TransferState = 'wait_user_confirm' | 'succeeded' | 'failed' | 'returned' | 'cancelled';

export interface SandboxTransfer {
  readonly outBillNo: string;
  readonly billNo: string;
  readonly amountCents: number;
  /** Alipay login id or user id; WeChat openid. */
  readonly payee: string;
  readonly payeeName: string | null;
  readonly remark: string | null;
  readonly notifyUrl: string | null;
  readonly createdAt: Date;
  state: TransferState;
  failReason: string | null;
  updatedAt: Date;
}

export interface SandboxLedger {
  provider: SandboxProvider;
  currency: 'CNY';
  paid_cents: number;
  refunded_cents: number;
  transferred_cents: number;
  /** Money the merchant holds at the provider: paid - refunded - transferred. */
  net_cents: number;
  orders: Record<OrderState, number>;
  refunds: number;
  transfers: Record<TransferState, number>;
}

export class SandboxStore {
  readonly orders = new Map<string, SandboxOrder>();
  readonly refunds = new Map<string, SandboxRefund>();
  readonly transfers = new Map<string, SandboxTransfer>();
  private readonly tokens = new Map<string, string>();

  constructor(readonly provider: SandboxProvider) {}

  addOrder(order: SandboxOrder): void {
    this.orders.set(order.outTradeNo, order);
    this.tokens.set(order.cashierToken, order.outTradeNo);
  }

  orderByToken(token: string): SandboxOrder | undefined {
    const id = this.tokens.get(token);
    return id === undefined ? undefined : this.orders.get(id);
  }

  orderByTradeNo(tradeNo: string): SandboxOrder | undefined {
    for (const order of this.orders.values()) if (order.tradeNo === tradeNo) return order;
    return undefined;
  }

  refundsOf(outTradeNo: string): SandboxRefund[] {
    return [...this.refunds.values()].filter((r) => r.outTradeNo === outTradeNo);
  }

  ledger(): SandboxLedger {
    const orders: Record<OrderState, number> = { pending: 0, paid: 0, declined: 0, expired: 0, closed: 0 };
    let paid = 0;
    for (const o of this.orders.values()) {
      orders[o.state] += 1;
      if (o.paidAt) paid += o.amountCents;
    }
    let refunded = 0;
    for (const r of this.refunds.values()) if (r.state === 'succeeded') refunded += r.amountCents;
    const transfers: Record<TransferState, number> = {
      wait_user_confirm: 0,
      succeeded: 0,
      failed: 0,
      returned: 0,
      cancelled: 0,
    };
    let transferred = 0;
    for (const t of this.transfers.values()) {
      transfers[t.state] += 1;
      if (t.state === 'succeeded') transferred += t.amountCents;
    }
    return {
      provider: this.provider,
      currency: 'CNY',
      paid_cents: paid,
      refunded_cents: refunded,
      transferred_cents: transferred,
      net_cents: paid - refunded - transferred,
      orders,
      refunds: this.refunds.size,
      transfers,
    };
  }
}
