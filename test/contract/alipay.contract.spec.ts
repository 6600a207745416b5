import { generateKeyPairSync } from 'node:crypto';
import { AlipayProvider } from '../../src/payment/providers/alipay.provider';
import { ProviderError } from '../../src/payment/providers/provider-error';
import type { CreateOrderInput, NotificationResult } from '../../src/payment/providers/provider.types';
import { waitForNotification } from '../support/waiters';
import { type ContractRig, newId, outcomesFor as outcomesOf, startContractRig } from './contract-rig';

/**
 * Contract: the service's alipay-sdk client against the provider sandbox's independent node:crypto implementation,
 * over real HTTP on loopback. Requests must verify at the sandbox, answers and notifications at the service.
 */
jest.setTimeout(20000);

let rig: ContractRig;
beforeAll(async () => {
  rig = await startContractRig();
});
afterAll(async () => {
  await rig.close();
});

function order(amountCents: number, extra: Partial<CreateOrderInput> = {}): CreateOrderInput {
  return {
    orderId: newId('ali'),
    amountCents,
    subject: 'Legwork 充值 & fees=1+1',
    expiresAt: new Date(Date.now() + 15 * 60_000),
    ...extra,
  };
}

async function paidOrder(amountCents: number): Promise<CreateOrderInput> {
  const input = order(amountCents);
  rig.expect(input.orderId, amountCents);
  await rig.alipay.createOrder('qr', input);
  await rig.api('alipay', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
  return input;
}

function outcomesFor(orderId: string): NotificationResult[] {
  return outcomesOf(rig, orderId);
}

async function expectProviderError(promise: Promise<unknown>, kind: string, providerCode?: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  expect((err as ProviderError).kind).toBe(kind);
  if (providerCode) expect((err as ProviderError).providerCode).toBe(providerCode);
}

describe('Alipay checkout', () => {
  it('precreate returns a QR code whose cashier page shows the order; paying completes it and notifies', async () => {
    const input = order(1234);
    rig.expect(input.orderId, 1234);
    const created = await rig.alipay.createOrder('qr', input);
    expect(created.qrCodeUrl).toMatch(new RegExp(`^${rig.sandbox.alipayBaseUrl}/cashier/`));
    const page = await (await fetch(created.qrCodeUrl!)).text();
    expect(page).toContain('¥12.34');
    expect(page).toContain(input.orderId);
    expect(await rig.alipay.queryOrder(input.orderId)).toMatchObject({
      status: 'pending',
      amountCents: 1234,
    });

    await rig.api('alipay', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
    const state = await rig.alipay.queryOrder(input.orderId);
    expect(state).toMatchObject({ status: 'paid', amountCents: 1234, refunded: false });
    expect(state!.providerTxnId).toBeTruthy();

    const record = await waitForNotification(rig, 'alipay', input.orderId, (r) => r.state === 'acknowledged');
    expect(record.attempts).toBe(1);
    const [result] = outcomesFor(input.orderId);
    expect(result).toEqual({
      ok: true,
      notification: expect.objectContaining({
        kind: 'payment',
        orderId: input.orderId,
        providerTxnId: state!.providerTxnId,
        amountCents: 1234,
        status: 'paid',
        appOrMerchantId: rig.config.payments.alipay!.appId,
      }),
    });
  });

  it.each(['page', 'wap'] as const)(
    '%s pay: the signed URL opens the cashier; Decline closes and notifies',
    async (kind) => {
      const input = order(5000, { returnUrl: 'https://merchant.example/return' });
      rig.expect(input.orderId, 5000);
      const created = await rig.alipay.createOrder(kind, input);
      expect(created.paymentUrl).toMatch(new RegExp(`^${rig.sandbox.alipayBaseUrl}/gateway.do\\?`));
      // Nothing reached Alipay yet: the trade exists once the buyer opens the URL.
      expect(await rig.alipay.queryOrder(input.orderId)).toBeNull();
      const opened = await fetch(created.paymentUrl!, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const cashier = new URL(opened.headers.get('location')!, rig.sandbox.alipayBaseUrl).toString();
      expect(await (await fetch(cashier)).text()).toContain('Let expire');
      expect(await rig.alipay.queryOrder(input.orderId)).toMatchObject({ status: 'pending' });

      const declined = await fetch(`${cashier}/decline`, { method: 'POST', redirect: 'manual' });
      expect(declined.status).toBe(303);
      expect(await rig.alipay.queryOrder(input.orderId)).toMatchObject({ status: 'closed' });
      await waitForNotification(rig, 'alipay', input.orderId, (r) => r.state === 'acknowledged');
      expect(outcomesFor(input.orderId)[0]).toMatchObject({ ok: true, notification: { status: 'closed' } });
    },
  );

  it('a page URL altered after signing is refused by the gateway', async () => {
    const created = await rig.alipay.createOrder(
      'page',
      order(5000, { returnUrl: 'https://merchant.example/r' }),
    );
    const tampered = created.paymentUrl!.replace(encodeURIComponent('"50.00"'), encodeURIComponent('"0.01"'));
    expect(tampered).not.toBe(created.paymentUrl);
    const res = await fetch(tampered, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('isv.invalid-signature');
  });

  it('test cards: 4242 pays, 0002 is declined, 9995 lacks funds, others are refused', async () => {
    const outcomes: string[] = [];
    for (const card of ['4242424242424242', '4000000000000002', '4000000000009995']) {
      const input = order(1000);
      await rig.alipay.createOrder('qr', input);
      const r = await rig.api<{ outcome: string }>(
        'alipay',
        'POST',
        `/__sandbox/orders/${input.orderId}/pay`,
        {
          card_number: card,
        },
      );
      outcomes.push(r.outcome);
      const state = await rig.alipay.queryOrder(input.orderId);
      expect(state!.status).toBe(card === '4242424242424242' ? 'paid' : 'closed');
    }
    expect(outcomes).toEqual(['succeeded', 'card_declined', 'insufficient_funds']);
    const input = order(1000);
    await rig.alipay.createOrder('qr', input);
    const res = await rig.apiRaw('alipay', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {
      card_number: '4111',
    });
    expect(res.status).toBe(400);
  });

  it('close: an unpaid order closes; a paid one is refused; an unknown one counts as closed', async () => {
    const input = order(2000);
    await rig.alipay.createOrder('qr', input);
    await rig.alipay.closeOrder(input.orderId);
    expect(await rig.alipay.queryOrder(input.orderId)).toMatchObject({ status: 'closed' });
    const paid = await paidOrder(2000);
    await expectProviderError(rig.alipay.closeOrder(paid.orderId), 'rejected', 'ACQ.TRADE_STATUS_ERROR');
    await expect(rig.alipay.closeOrder(newId('none'))).resolves.toBeUndefined();
  });

  it('creating the same order twice is idempotent; different details conflict', async () => {
    const input = order(3000);
    const first = await rig.alipay.createOrder('qr', input);
    expect(await rig.alipay.createOrder('qr', input)).toEqual(first);
    await expectProviderError(
      rig.alipay.createOrder('qr', { ...input, amountCents: 3001 }),
      'rejected',
      'ACQ.CONTEXT_INCONSISTENT',
    );
  });

  it('auto-completes an unpaid order after the configured delay', async () => {
    const quick = await startContractRig({ autoCompleteMs: 150 });
    try {
      const input = order(1500);
      quick.expect(input.orderId, 1500);
      await quick.alipay.createOrder('qr', input);
      await quick.receiver.waitFor((r) => r.some((x) => x.outcome?.ok));
      expect(await quick.alipay.queryOrder(input.orderId)).toMatchObject({ status: 'paid' });
    } finally {
      await quick.close();
    }
  });
});

describe('Alipay refunds and transfers', () => {
  it('refunds partially, repeats idempotently, refuses more than paid, and reports to the query', async () => {
    const input = await paidOrder(10000);
    const refundId = newId('r');
    const refund = {
      orderId: input.orderId,
      refundId,
      amountCents: 3000,
      orderAmountCents: 10000,
      reason: 'other',
    };
    expect(await rig.alipay.refund(refund)).toMatchObject({ status: 'succeeded', amountCents: 3000 });
    expect(await rig.alipay.refund(refund)).toMatchObject({ status: 'succeeded', amountCents: 3000 });
    await expectProviderError(
      rig.alipay.refund({ ...refund, refundId: newId('r'), amountCents: 7001 }),
      'rejected',
      'ACQ.REFUND_AMT_NOT_EQUAL_TOTAL',
    );
    expect(await rig.alipay.queryRefund(input.orderId, refundId)).toMatchObject({
      status: 'succeeded',
      amountCents: 3000,
    });
    expect(await rig.alipay.queryRefund(input.orderId, newId('r'))).toBeNull();
    await rig.alipay.refund({ ...refund, refundId: newId('r'), amountCents: 7000 });
    expect(await rig.alipay.queryOrder(input.orderId)).toMatchObject({ status: 'paid', refunded: true });
  });

  it('transfers complete at once; a failure armed by the test API and a bounce are reported', async () => {
    const id = newId('t');
    const ok = await rig.alipay.transfer({
      transferId: id,
      amountCents: 2500,
      payeeAccount: 'worker@example.com',
      payeeName: 'Zhang San',
      remark: 'Legwork withdrawal',
    });
    expect(ok).toMatchObject({ status: 'succeeded', amountCents: 2500 });
    expect(await rig.alipay.queryTransfer(id)).toMatchObject({ status: 'succeeded', amountCents: 2500 });
    expect(await rig.alipay.queryTransfer(newId('t'))).toBeNull();

    await rig.api('alipay', 'POST', '/__sandbox/transfers/fail-next', { reason: 'PAYEE_NOT_EXIST' });
    const failed = await rig.alipay.transfer({
      transferId: newId('t'),
      amountCents: 1000,
      payeeAccount: 'nobody@example.com',
      payeeName: 'Li Si',
      remark: 'Legwork withdrawal',
    });
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'PAYEE_NOT_EXIST' });

    await rig.api('alipay', 'POST', `/__sandbox/transfers/${id}/fail`, { reason: 'PAYEE_ACCOUNT_ABNORMAL' });
    expect(await rig.alipay.queryTransfer(id)).toMatchObject({ status: 'returned' });
  });

  it('the sandbox ledger records money paid, refunded and transferred', async () => {
    const before = await rig.api<Record<string, number>>('alipay', 'GET', '/__sandbox/ledger');
    const input = await paidOrder(4000);
    await rig.alipay.refund({
      orderId: input.orderId,
      refundId: newId('r'),
      amountCents: 1500,
      orderAmountCents: 4000,
      reason: 'x',
    });
    await rig.alipay.transfer({
      transferId: newId('t'),
      amountCents: 1200,
      payeeAccount: '2088000000000001',
      remark: 'w',
    });
    const after = await rig.api<Record<string, number>>('alipay', 'GET', '/__sandbox/ledger');
    expect(after.paid_cents - before.paid_cents).toBe(4000);
    expect(after.refunded_cents - before.refunded_cents).toBe(1500);
    expect(after.transferred_cents - before.transferred_cents).toBe(1200);
    expect(after.net_cents).toBe(after.paid_cents - after.refunded_cents - after.transferred_cents);
  });
});

describe('Alipay request and response integrity', () => {
  it('a request signed with another app key is refused by the gateway (isv.invalid-signature)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const forger = new AlipayProvider({ ...rig.config.payments.alipay!, appPrivateKeyPem: privateKey }, 3000);
    await expectProviderError(
      forger.createOrder('qr', order(1000)),
      'invalid_request',
      'isv.invalid-signature',
    );
  });

  it('a provider 5xx, a tampered response signature and a slow answer surface as typed errors', async () => {
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'response',
      kind: 'server_error',
      status: 502,
    });
    await expectProviderError(rig.alipay.createOrder('qr', order(1000)), 'unavailable');

    const tampered = order(1000);
    await rig.api('alipay', 'POST', '/__sandbox/faults', { target: 'response', kind: 'tampered_signature' });
    await expectProviderError(rig.alipay.createOrder('qr', tampered), 'bad_response_signature');
    // The call itself went through: the outcome was unknown to the caller, not absent.
    expect(await rig.alipay.queryOrder(tampered.orderId)).toMatchObject({ status: 'pending' });

    const slow = new AlipayProvider(rig.config.payments.alipay!, 300);
    const late = order(1000);
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'response',
      kind: 'timeout',
      delay_ms: 1500,
    });
    await expectProviderError(slow.createOrder('qr', late), 'timeout');
    expect(await rig.alipay.queryOrder(late.orderId)).toMatchObject({ status: 'pending' });
    expect(await rig.alipay.probe()).toEqual({ ok: true });
  });
});

describe('Alipay notifications', () => {
  it.each([
    ['tampered_signature', 'invalid_signature'],
    ['wrong_app', 'app_mismatch'],
    ['wrong_amount', 'amount_mismatch'],
  ])('a %s notification is rejected, and the genuine redelivery is accepted', async (kind, code) => {
    const input = order(2222);
    rig.expect(input.orderId, 2222);
    await rig.alipay.createOrder('qr', input);
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind,
      match: input.orderId,
    });
    await rig.api('alipay', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
    const record = await waitForNotification(rig, 'alipay', input.orderId, (r) => r.state === 'acknowledged');
    expect(record.attempts).toBe(2);
    expect(record.deliveries[0]).toMatchObject({ attempt: 1, body: 'failure', acknowledged: false });
    const [first, second] = outcomesFor(input.orderId);
    expect(first).toMatchObject({ ok: false, failure: { code } });
    expect(second).toMatchObject({ ok: true, notification: { amountCents: 2222, status: 'paid' } });
    if (kind === 'wrong_amount') {
      expect(first).toMatchObject({ failure: { expectedAmountCents: 2222, actualAmountCents: 2223 } });
    }
  });

  it('stale timestamps and SIGNTEST probes are WeChat faults the Alipay sandbox refuses to arm', async () => {
    for (const kind of ['stale_timestamp', 'signtest_probe']) {
      const res = await rig.apiRaw('alipay', 'POST', '/__sandbox/faults', { target: 'notification', kind });
      expect(res.status).toBe(400);
    }
  });

  it('redelivers on the Alipay schedule until the body is exactly "success"', async () => {
    const input = order(3333);
    rig.expect(input.orderId, 3333);
    await rig.alipay.createOrder('qr', input);
    rig.forceAnswers(input.orderId, { status: 200, body: 'fail' }, { status: 500, body: 'oops' });
    await rig.api('alipay', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
    const record = await waitForNotification(rig, 'alipay', input.orderId, (r) => r.state === 'acknowledged');
    expect(record.attempts).toBe(3);
    expect(record.deliveries.map((d) => d.acknowledged)).toEqual([false, false, true]);
    const times = rig.receiver.received.filter((r) => r.tag === input.orderId).map((r) => r.at);
    // 4 min then 10 min, scaled by 0.0001: 24 ms and 60 ms.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(20);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(55);
  });

  it('duplicates: N copies (some concurrent) all verify as the same notification', async () => {
    const input = order(4444);
    rig.expect(input.orderId, 4444);
    await rig.alipay.createOrder('qr', input);
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind: 'duplicate',
      copies: 4,
      concurrent: 2,
      match: input.orderId,
    });
    await rig.api('alipay', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
    await waitForNotification(
      rig,
      'alipay',
      input.orderId,
      (r) => r.state === 'acknowledged' && r.deliveries.length === 4,
    );
    const outcomes = outcomesFor(input.orderId);
    expect(outcomes).toHaveLength(4);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    const ids = new Set(outcomes.map((o) => (o.ok ? o.notification.eventId : '')));
    expect(ids.size).toBe(1);
  });

  it('out of order: a held notification arrives after the next one', async () => {
    const a = order(1001);
    const b = order(1002);
    rig.expect(a.orderId, 1001);
    rig.expect(b.orderId, 1002);
    await rig.alipay.createOrder('qr', a);
    await rig.alipay.createOrder('qr', b);
    await rig.api('alipay', 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind: 'out_of_order',
      match: a.orderId,
    });
    await rig.api('alipay', 'POST', `/__sandbox/orders/${a.orderId}/pay`, {});
    await rig.api('alipay', 'POST', `/__sandbox/orders/${b.orderId}/pay`, {});
    await waitForNotification(rig, 'alipay', a.orderId, (r) => r.state === 'acknowledged');
    const arrivals = rig.receiver.received
      .filter((r) => r.outcome?.ok && (r.tag === a.orderId || r.tag === b.orderId))
      .map((r) => r.tag);
    expect(arrivals).toEqual([b.orderId, a.orderId]);
  });
});
