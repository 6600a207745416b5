import type { ServerResponse } from 'node:http';
import { formBody, redirect, type Router, type SandboxRequest, sendText } from './http';
import { type OrderLifecycle, SandboxConflict, TEST_CARDS, UnknownTestCard } from './lifecycle';
import type { SandboxOrder, SandboxStore } from './store';

/**
 * The buyer's side of a sandbox payment: one HTML page per order (the QR code, payment URL or H5 URL points here)
 * with Pay, Decline and Let expire buttons and a test-card form. Pages refresh while the order is pending, so the
 * automatic completion shows up.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function htmlPage(title: string, body: string, refreshSeconds?: number): string {
  const refresh = refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${refresh}
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#222}
.box{border:1px solid #ccc;border-radius:8px;padding:1rem 1.25rem}.amount{font-size:2rem;margin:.5rem 0}
button{font-size:1rem;padding:.5rem 1rem;margin:.25rem .25rem .25rem 0;cursor:pointer}
.state{font-weight:bold}.note{color:#666;font-size:.9rem}input{font-size:1rem;padding:.4rem;width:14rem}</style>
</head><body>${body}</body></html>`;
}

export interface CashierOptions {
  readonly title: string;
  readonly store: SandboxStore;
  readonly lifecycle: OrderLifecycle;
  readonly autoCompleteMs: number | null;
  /** Where the buyer goes back to after paying (Alipay page/wap: a signed return URL); null for none. */
  returnLink(order: SandboxOrder): string | null;
}

function yuan(cents: number): string {
  return `¥${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function render(opts: CashierOptions, order: SandboxOrder, message: string | null): string {
  const pending = order.state === 'pending';
  const action = (name: string, label: string) =>
    `<form method="post" action="/cashier/${order.cashierToken}/${name}" style="display:inline">` +
    `<button type="submit">${label}</button></form>`;
  const cards = Object.entries(TEST_CARDS)
    .map(([n, o]) => `<li><code>${n}</code> ${o.replace('_', ' ')}</li>`)
    .join('');
  const auto =
    pending && opts.autoCompleteMs !== null
      ? `<p class="note">Sandbox: this order completes by itself ${opts.autoCompleteMs / 1000} s after creation ` +
        `unless declined.</p>`
      : '';
  const back = !pending ? opts.returnLink(order) : null;
  const body = `<h1>${escapeHtml(opts.title)} sandbox cashier</h1><div class="box">
<div>${escapeHtml(order.subject)}</div><div class="amount">${yuan(order.amountCents)}</div>
<div class="note">Order ${escapeHtml(order.outTradeNo)} · ${escapeHtml(order.channel)}</div>
<p>Status: <span class="state" id="state">${order.state}</span>${
    order.failureReason && order.state !== 'paid' ? ` (${escapeHtml(order.failureReason)})` : ''
  }</p>
${message ? `<p id="message">${escapeHtml(message)}</p>` : ''}
${
  pending
    ? `${action('pay', 'Pay')}${action('decline', 'Decline')}${action('expire', 'Let expire')}
<form method="post" action="/cashier/${order.cashierToken}/pay"><p>Or pay by test card:</p>
<input name="card_number" placeholder="4242 4242 4242 4242" autocomplete="off"> <button type="submit">Pay by card</button>
</form><ul class="note">${cards}</ul>${auto}`
    : ''
}
${back ? `<p><a id="return" href="${escapeHtml(back)}">Return to the merchant</a></p>` : ''}
</div>`;
  return htmlPage(`${opts.title} cashier`, body, pending ? 2 : undefined);
}

export function mountCashier(router: Router, opts: CashierOptions): void {
  const find = (req: SandboxRequest, res: ServerResponse): SandboxOrder | null => {
    const order = opts.store.orderByToken(req.params.token);
    if (!order) sendText(res, 404, htmlPage('Not found', '<h1>No such order</h1>'), 'text/html');
    return order ?? null;
  };
  router.on('GET', '/cashier/:token', (req, res) => {
    const order = find(req, res);
    if (order) sendText(res, 200, render(opts, order, req.url.searchParams.get('message')), 'text/html');
  });
  const act = (name: string, run: (order: SandboxOrder, form: Record<string, string>) => string) => {
    router.on('POST', `/cashier/:token/${name}`, (req, res) => {
      const order = find(req, res);
      if (!order) return;
      let message: string;
      try {
        message = run(order, formBody(req));
      } catch (err) {
        if (!(err instanceof SandboxConflict) && !(err instanceof UnknownTestCard)) throw err;
        message = err.message;
      }
      redirect(res, `/cashier/${order.cashierToken}?message=${encodeURIComponent(message)}`);
    });
  };
  act('pay', (order, form) => {
    const card = form.card_number?.trim() ? form.card_number : undefined;
    const outcome = opts.lifecycle.pay(order, card);
    return outcome === 'succeeded' ? 'Payment succeeded.' : `Payment failed: ${outcome.replace('_', ' ')}.`;
  });
  act('decline', (order) => {
    opts.lifecycle.decline(order);
    return 'Payment declined.';
  });
  act('expire', (order) => {
    opts.lifecycle.expire(order);
    return 'The order expired.';
  });
}
