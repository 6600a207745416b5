import type { ServerResponse } from 'node:http';
import type { FaultRegistry } from './faults';
import { BadRequest, jsonBody, type Router, type SandboxRequest, sendJson } from './http';
import { type OrderLifecycle, SandboxConflict } from './lifecycle';
import type { Notifier } from './notifier';
import type { SandboxOrder, SandboxRefund, SandboxStore, SandboxTransfer } from './store';

/**
 * The sandbox's JSON test API, under /__sandbox/ on each provider's port: drive payments and transfers, arm faults,
 * read the notification log and the money the provider moved. It is not part of either provider's protocol.
 */
export interface TransferControls {
  /** The payee accepts the transfer (WeChat: WAIT_USER_CONFIRM -> SUCCESS). */
  confirm(transfer: SandboxTransfer): void;
  fail(transfer: SandboxTransfer, reason: string): void;
  /** The next transfer request fails with this reason. */
  failNext(reason: string): void;
}

export interface TestApiOptions {
  readonly provider: string;
  readonly store: SandboxStore;
  readonly lifecycle: OrderLifecycle;
  readonly faults: FaultRegistry;
  readonly notifier: Notifier;
  readonly transfers: TransferControls;
  baseUrl(): string;
}

export function orderView(order: SandboxOrder, baseUrl: string) {
  return {
    out_trade_no: order.outTradeNo,
    trade_no: order.tradeNo,
    amount_cents: order.amountCents,
    subject: order.subject,
    channel: order.channel,
    state: order.state,
    failure_reason: order.failureReason,
    refunded_cents: order.refundedCents,
    payer: order.payer,
    notify_url: order.notifyUrl,
    cashier_url: `${baseUrl}/cashier/${order.cashierToken}`,
    created_at: order.createdAt.toISOString(),
    expires_at: order.expiresAt?.toISOString() ?? null,
    paid_at: order.paidAt?.toISOString() ?? null,
  };
}

function refundView(refund: SandboxRefund) {
  return {
    out_refund_no: refund.outRefundNo,
    refund_id: refund.refundId,
    out_trade_no: refund.outTradeNo,
    amount_cents: refund.amountCents,
    state: refund.state,
    created_at: refund.createdAt.toISOString(),
    succeeded_at: refund.succeededAt?.toISOString() ?? null,
  };
}

function transferView(t: SandboxTransfer) {
  return {
    out_bill_no: t.outBillNo,
    bill_no: t.billNo,
    amount_cents: t.amountCents,
    payee: t.payee,
    payee_name: t.payeeName,
    state: t.state,
    fail_reason: t.failReason,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

function reason(req: SandboxRequest, fallback: string): string {
  const r = jsonBody(req).reason;
  if (r === undefined) return fallback;
  if (typeof r !== 'string' || !/^[A-Za-z0-9_.\- ]{1,64}$/.test(r))
    throw new BadRequest('reason must be a short string');
  return r;
}

export function mountTestApi(router: Router, opts: TestApiOptions): void {
  const { store, lifecycle } = opts;
  const guard = (res: ServerResponse, run: () => unknown): void => {
    try {
      sendJson(res, 200, run());
    } catch (err) {
      if (!(err instanceof SandboxConflict)) throw err;
      sendJson(res, 409, { code: 'CONFLICT', message: err.message });
    }
  };
  const order = (req: SandboxRequest, res: ServerResponse): SandboxOrder | null => {
    const found = store.orders.get(req.params.id) ?? store.orderByTradeNo(req.params.id);
    if (!found) sendJson(res, 404, { code: 'NOT_FOUND', message: `no order ${req.params.id}` });
    return found ?? null;
  };
  const transfer = (req: SandboxRequest, res: ServerResponse): SandboxTransfer | null => {
    const found = store.transfers.get(req.params.id);
    if (!found) sendJson(res, 404, { code: 'NOT_FOUND', message: `no transfer ${req.params.id}` });
    return found ?? null;
  };
  const view = (o: SandboxOrder) => orderView(o, opts.baseUrl());

  router
    .on('GET', '/__sandbox/health', (_req, res) =>
      sendJson(res, 200, { provider: opts.provider, status: 'ok' }),
    )
    .on('GET', '/__sandbox/ledger', (_req, res) => sendJson(res, 200, store.ledger()))
    .on('GET', '/__sandbox/orders', (_req, res) =>
      sendJson(res, 200, { data: [...store.orders.values()].map(view) }),
    )
    .on('GET', '/__sandbox/orders/:id', (req, res) => {
      const o = order(req, res);
      if (o) sendJson(res, 200, view(o));
    })
    .on('POST', '/__sandbox/orders/:id/pay', (req, res) => {
      const o = order(req, res);
      const card = jsonBody(req).card_number;
      if (card !== undefined && typeof card !== 'string')
        throw new BadRequest('card_number must be a string');
      if (o) guard(res, () => ({ outcome: lifecycle.pay(o, card), order: view(o) }));
    })
    .on('POST', '/__sandbox/orders/:id/decline', (req, res) => {
      const o = order(req, res);
      if (o) guard(res, () => (lifecycle.decline(o, reason(req, 'buyer_declined')), view(o)));
    })
    .on('POST', '/__sandbox/orders/:id/expire', (req, res) => {
      const o = order(req, res);
      if (o) guard(res, () => (lifecycle.expire(o), view(o)));
    })
    .on('GET', '/__sandbox/refunds', (_req, res) =>
      sendJson(res, 200, { data: [...store.refunds.values()].map(refundView) }),
    )
    .on('GET', '/__sandbox/transfers', (_req, res) =>
      sendJson(res, 200, { data: [...store.transfers.values()].map(transferView) }),
    )
    .on('POST', '/__sandbox/transfers/fail-next', (req, res) =>
      guard(res, () => (opts.transfers.failNext(reason(req, 'PAYEE_NOT_EXIST')), { armed: true })),
    )
    .on('POST', '/__sandbox/transfers/:id/confirm', (req, res) => {
      const t = transfer(req, res);
      if (t) guard(res, () => (opts.transfers.confirm(t), transferView(t)));
    })
    .on('POST', '/__sandbox/transfers/:id/fail', (req, res) => {
      const t = transfer(req, res);
      if (t)
        guard(res, () => (opts.transfers.fail(t, reason(req, 'PAYEE_ACCOUNT_ABNORMAL')), transferView(t)));
    })
    .on('GET', '/__sandbox/faults', (_req, res) => sendJson(res, 200, { data: opts.faults.list() }))
    .on('POST', '/__sandbox/faults', (req, res) => sendJson(res, 201, opts.faults.arm(jsonBody(req))))
    .on('DELETE', '/__sandbox/faults', (_req, res) => {
      opts.faults.clear();
      sendJson(res, 200, { data: [] });
    })
    .on('GET', '/__sandbox/notifications', (req, res) => {
      const key = req.url.searchParams.get('key');
      const records = opts.notifier
        .list()
        .filter((r) => key === null || r.keys.includes(key) || r.event === key);
      sendJson(res, 200, { data: records });
    });
}
