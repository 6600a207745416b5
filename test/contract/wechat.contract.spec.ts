import { generateKeyPairSync } from 'node:crypto';
import { ProviderError } from '../../src/payment/providers/provider-error';
import type { CreateOrderInput, NotificationResult } from '../../src/payment/providers/provider.types';
import { WechatPayProvider } from '../../src/payment/providers/wechat.provider';
import { waitForNotification } from '../support/waiters';
import { type ContractRig, newId, outcomesFor as outcomesOf, startContractRig } from './contract-rig';

/**
 * Contract: the service's wechatpay-axios-plugin client against the provider sandbox's independent node:crypto
 * implementation of WeChat Pay APIv3 (public key mode), over real HTTP on loopback.
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
    orderId: newId('wx'),
    amountCents,
    subject: 'Legwork 充值 & fees=1+1',
    expiresAt: new Date(Date.now() + 15 * 60_000),
    ...extra,
  };
}

async function paidOrder(amountCents: number): Promise<CreateOrderInput> {
  const input = order(amountCents);
  rig.expect(input.orderId, amountCents);
  await rig.wechat.createOrder('native', input);
  await rig.api('wechat', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
  return input;
}

/** Verification outcomes of deliveries about `key`, once at least `count` arrived. */
async function outcomesFor(key: string, count: number): Promise<NotificationResult[]> {
  await rig.receiver.waitFor(() => outcomesOf(rig, key).length >= count);
  return outcomesOf(rig, key);
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

describe('WeChat Pay checkout', () => {
  it('native returns a code_url; paying on the cashier page completes it and TRANSACTION.SUCCESS verifies', async () => {
    const input = order(8800);
    rig.expect(input.orderId, 8800);
    const created = await rig.wechat.createOrder('native', input);
    expect(created.qrCodeUrl).toMatch(new RegExp(`^${rig.sandbox.wechatBaseUrl}/cashier/`));
    expect(await rig.wechat.queryOrder(input.orderId)).toMatchObject({
      status: 'pending',
      providerTxnId: null,
    });

    const paid = await fetch(`${created.qrCodeUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const state = await rig.wechat.queryOrder(input.orderId);
    expect(state).toMatchObject({ status: 'paid', amountCents: 8800 });

    const record = await waitForNotification(rig, 'wechat', input.orderId, (r) => r.state === 'acknowledged');
    expect(record).toMatchObject({ event: 'TRANSACTION.SUCCESS', attempts: 1 });
    expect(record.deliveries[0].status).toBe(200);
    const [result] = await outcomesFor(input.orderId, 1);
    expect(result).toEqual({
      ok: true,
      notification: expect.objectContaining({
        kind: 'payment',
        orderId: input.orderId,
        providerTxnId: state!.providerTxnId,
        amountCents: 8800,
        status: 'paid',
        appOrMerchantId: rig.config.payments.wechat!.mchId,
      }),
    });
  });

  it('jsapi returns signed wx.requestPayment parameters the sandbox verifies; a forged paySign is refused', async () => {
    const input = order(1000, { openid: 'o-sandbox-payer' });
    const created = await rig.wechat.createOrder('jsapi', input);
    const params = created.jsapiParams!;
    expect(params).toMatchObject({ appId: rig.config.payments.wechat!.appId, signType: 'RSA' });
    expect(params.package).toMatch(/^prepay_id=wx/);
    const forged = await rig.apiRaw('wechat', 'POST', '/__sandbox/jsapi/pay', { ...params, timeStamp: '1' });
    expect(forged.status).toBe(400);
    const paid = await rig.api<{ outcome: string }>('wechat', 'POST', '/__sandbox/jsapi/pay', params);
    expect(paid.outcome).toBe('succeeded');
    expect(await rig.wechat.queryOrder(input.orderId)).toMatchObject({ status: 'paid' });
    await expectProviderError(rig.wechat.createOrder('jsapi', order(1000)), 'invalid_request');
  });

  it('h5 returns an h5_url to the cashier; declining reads PAYERROR (failed) and sends no notification', async () => {
    const input = order(1200, { clientIp: '203.0.113.7' });
    const created = await rig.wechat.createOrder('h5', input);
    expect(created.paymentUrl).toMatch(new RegExp(`^${rig.sandbox.wechatBaseUrl}/cashier/`));
    expect(await (await fetch(created.paymentUrl!)).text()).toContain('¥12.00');
    await rig.api('wechat', 'POST', `/__sandbox/orders/${input.orderId}/decline`, {});
    expect(await rig.wechat.queryOrder(input.orderId)).toMatchObject({ status: 'failed' });
    const expired = order(1200);
    await rig.wechat.createOrder('native', expired);
    await rig.api('wechat', 'POST', `/__sandbox/orders/${expired.orderId}/expire`, {});
    expect(await rig.wechat.queryOrder(expired.orderId)).toMatchObject({ status: 'closed' });
    const { data } = await rig.api<{ data: unknown[] }>(
      'wechat',
      'GET',
      `/__sandbox/notifications?key=${input.orderId}`,
    );
    expect(data).toEqual([]);
  });

  it('test cards decide the outcome', async () => {
    const results: string[] = [];
    for (const card of ['4000000000009995', '4000000000000002', '4242424242424242']) {
      const input = order(1000);
      await rig.wechat.createOrder('native', input);
      const r = await rig.api<{ outcome: string }>(
        'wechat',
        'POST',
        `/__sandbox/orders/${input.orderId}/pay`,
        {
          card_number: card,
        },
      );
      results.push(`${r.outcome}:${(await rig.wechat.queryOrder(input.orderId))!.status}`);
    }
    expect(results).toEqual(['insufficient_funds:failed', 'card_declined:failed', 'succeeded:paid']);
  });

  it('close answers 204 and closes; a paid order refuses; an unknown order is null to query and closes', async () => {
    const input = order(1300);
    await rig.wechat.createOrder('native', input);
    await rig.wechat.closeOrder(input.orderId);
    expect(await rig.wechat.queryOrder(input.orderId)).toMatchObject({ status: 'closed' });
    const paid = await paidOrder(1300);
    await expectProviderError(rig.wechat.closeOrder(paid.orderId), 'rejected', 'ORDERPAID');
    expect(await rig.wechat.queryOrder(newId('none'))).toBeNull();
    await expect(rig.wechat.closeOrder(newId('none'))).resolves.toBeUndefined();
  });

  it('the same out_trade_no with other details is OUT_TRADE_NO_USED; the same request is idempotent', async () => {
    const input = order(1400);
    const first = await rig.wechat.createOrder('native', input);
    expect(await rig.wechat.createOrder('native', input)).toEqual(first);
    await expectProviderError(
      rig.wechat.createOrder('native', { ...input, amountCents: 1401 }),
      'rejected',
      'OUT_TRADE_NO_USED',
    );
  });
});

describe('WeChat Pay refunds and transfers', () => {
  it('a refund is PROCESSING, then SUCCESS by query and by a REFUND.SUCCESS notification', async () => {
    const input = await paidOrder(10000);
    const refundId = newId('rf');
    rig.expect(refundId, 2500);
    const refund = {
      orderId: input.orderId,
      refundId,
      amountCents: 2500,
      orderAmountCents: 10000,
      reason: 'other',
    };
    expect(await rig.wechat.refund(refund)).toMatchObject({ status: 'processing', amountCents: 2500 });
    expect(await rig.wechat.refund(refund)).toMatchObject({ amountCents: 2500 });
    await waitForNotification(rig, 'wechat', refundId, (r) => r.state === 'acknowledged');
    expect(await rig.wechat.queryRefund(input.orderId, refundId)).toMatchObject({ status: 'succeeded' });
    const [result] = await outcomesFor(refundId, 1);
    expect(result).toMatchObject({
      ok: true,
      notification: { kind: 'refund', amountCents: 2500, status: 'succeeded' },
    });
    await expectProviderError(
      rig.wechat.refund({ ...refund, refundId: newId('rf'), amountCents: 7501 }),
      'rejected',
      'INVALID_REQUEST',
    );
    expect(await rig.wechat.queryRefund(input.orderId, newId('rf'))).toBeNull();
    expect(await rig.wechat.queryOrder(input.orderId)).toMatchObject({ status: 'paid', refunded: true });
  });

  it('a transfer bill waits for the payee; confirm makes it SUCCESS and MCHTRANSFER.BILL.FINISHED verifies', async () => {
    const id = newId('tb');
    rig.expect(id, 5000);
    const created = await rig.wechat.transfer({
      transferId: id,
      amountCents: 5000,
      payeeAccount: 'o-worker',
      remark: 'withdrawal',
    });
    expect(created).toMatchObject({ status: 'waiting_payee', amountCents: 5000 });
    expect(created.packageInfo).toBeTruthy();
    expect(await rig.wechat.queryTransfer(id)).toMatchObject({ status: 'waiting_payee' });
    await rig.api('wechat', 'POST', `/__sandbox/transfers/${id}/confirm`, {});
    expect(await rig.wechat.queryTransfer(id)).toMatchObject({ status: 'succeeded', amountCents: 5000 });
    const [result] = await outcomesFor(id, 1);
    expect(result).toMatchObject({
      ok: true,
      notification: { kind: 'transfer', status: 'succeeded', amountCents: 5000 },
    });
    expect(await rig.wechat.queryTransfer(newId('tb'))).toBeNull();
  });

  it('a failed bill is reported; a payee name travels encrypted; large bills need the name', async () => {
    const id = newId('tb');
    rig.expect(id, 3000);
    await rig.wechat.transfer({
      transferId: id,
      amountCents: 3000,
      payeeAccount: 'o-worker',
      payeeName: '张三',
      remark: 'w',
    });
    const { data } = await rig.api<{ data: { out_bill_no: string; payee_name: string }[] }>(
      'wechat',
      'GET',
      '/__sandbox/transfers',
    );
    expect(data.find((t) => t.out_bill_no === id)?.payee_name).toBe('张三');
    await rig.api('wechat', 'POST', `/__sandbox/transfers/${id}/fail`, { reason: 'PAYEE_ACCOUNT_ABNORMAL' });
    expect(await rig.wechat.queryTransfer(id)).toMatchObject({
      status: 'failed',
      failureReason: 'PAYEE_ACCOUNT_ABNORMAL',
    });
    const [result] = await outcomesFor(id, 1);
    expect(result).toMatchObject({ ok: true, notification: { kind: 'transfer', status: 'failed' } });
    await expectProviderError(
      rig.wechat.transfer({
        transferId: newId('tb'),
        amountCents: 200_000,
        payeeAccount: 'o-worker',
        remark: 'w',
      }),
      'invalid_request',
      'PARAM_ERROR',
    );
    await rig.api('wechat', 'POST', '/__sandbox/transfers/fail-next', { reason: 'NOT_ENOUGH' });
    expect(
      await rig.wechat.transfer({
        transferId: newId('tb'),
        amountCents: 1000,
        payeeAccount: 'o-worker',
        remark: 'w',
      }),
    ).toMatchObject({ status: 'failed', failureReason: 'NOT_ENOUGH' });
  });

  it('the sandbox ledger records money paid, refunded and transferred', async () => {
    const before = await rig.api<Record<string, number>>('wechat', 'GET', '/__sandbox/ledger');
    const input = await paidOrder(6000);
    const refundId = newId('rf');
    rig.expect(refundId, 1000);
    await rig.wechat.refund({
      orderId: input.orderId,
      refundId,
      amountCents: 1000,
      orderAmountCents: 6000,
      reason: 'x',
    });
    const t = newId('tb');
    rig.expect(t, 2000);
    await rig.wechat.transfer({ transferId: t, amountCents: 2000, payeeAccount: 'o-w', remark: 'w' });
    await rig.api('wechat', 'POST', `/__sandbox/transfers/${t}/confirm`, {});
    await waitForNotification(rig, 'wechat', refundId, (r) => r.state === 'acknowledged');
    const after = await rig.api<Record<string, number>>('wechat', 'GET', '/__sandbox/ledger');
    expect(after.paid_cents - before.paid_cents).toBe(6000);
    expect(after.refunded_cents - before.refunded_cents).toBe(1000);
    expect(after.transferred_cents - before.transferred_cents).toBe(2000);
  });
});

describe('WeChat Pay request and response integrity', () => {
  it('a request signed with another merchant key is refused (401 SIGN_ERROR)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const forger = new WechatPayProvider(
      { ...rig.config.payments.wechat!, merchantPrivateKeyPem: privateKey },
      3000,
    );
    await expectProviderError(forger.createOrder('native', order(1000)), 'invalid_request', 'SIGN_ERROR');
  });

  it('a provider 5xx, a tampered response signature and a slow answer surface as typed errors', async () => {
    await rig.api('wechat', 'POST', '/__sandbox/faults', {
      target: 'response',
      kind: 'server_error',
      match: 'native',
    });
    await expectProviderError(rig.wechat.createOrder('native', order(1000)), 'unavailable', 'SYSTEM_ERROR');
    const tampered = order(1000);
    await rig.api('wechat', 'POST', '/__sandbox/faults', { target: 'response', kind: 'tampered_signature' });
    await expectProviderError(rig.wechat.createOrder('native', tampered), 'bad_response_signature');
    expect(await rig.wechat.queryOrder(tampered.orderId)).toMatchObject({ status: 'pending' });
    const slow = new WechatPayProvider(rig.config.payments.wechat!, 300);
    await rig.api('wechat', 'POST', '/__sandbox/faults', {
      target: 'response',
      kind: 'timeout',
      delay_ms: 1500,
    });
    await expectProviderError(slow.createOrder('native', order(1000)), 'timeout');
    expect(await rig.wechat.probe()).toEqual({ ok: true });
  });
});

describe('WeChat Pay notifications', () => {
  it.each([
    ['tampered_signature', 'invalid_signature'],
    ['wrong_app', 'app_mismatch'],
    ['wrong_amount', 'amount_mismatch'],
    ['stale_timestamp', 'stale_timestamp'],
    ['signtest_probe', 'signature_probe'],
  ])('a %s notification is rejected (4xx), and the genuine redelivery is accepted', async (kind, code) => {
    const input = order(3131);
    rig.expect(input.orderId, 3131);
    await rig.wechat.createOrder('native', input);
    await rig.api('wechat', 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind,
      match: input.orderId,
    });
    await rig.api('wechat', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
    const record = await waitForNotification(rig, 'wechat', input.orderId, (r) => r.state === 'acknowledged');
    expect(record.attempts).toBe(2);
    expect(record.deliveries[0].status).toBeGreaterThanOrEqual(400);
    const [first, second] = await outcomesFor(input.orderId, 2);
    expect(first).toMatchObject({ ok: false, failure: { code } });
    expect(second).toMatchObject({ ok: true, notification: { orderId: input.orderId, amountCents: 3131 } });
  });

  it('redelivers on the WeChat schedule until answered 200/204', async () => {
    const input = order(3232);
    rig.expect(input.orderId, 3232);
    await rig.wechat.createOrder('native', input);
    rig.forceAnswers(input.orderId, { status: 500, body: '{"code":"FAIL"}' }, { status: 503, body: '' });
    await rig.api('wechat', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
    const record = await waitForNotification(rig, 'wechat', input.orderId, (r) => r.state === 'acknowledged');
    expect(record.attempts).toBe(3);
    expect(record.deliveries.map((d) => d.status)).toEqual([500, 503, 200]);
  });

  it('duplicates: N copies, some concurrent, all verify', async () => {
    const input = order(3333);
    rig.expect(input.orderId, 3333);
    await rig.wechat.createOrder('native', input);
    await rig.api('wechat', 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind: 'duplicate',
      copies: 5,
      concurrent: 3,
      match: input.orderId,
    });
    await rig.api('wechat', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
    const record = await waitForNotification(
      rig,
      'wechat',
      input.orderId,
      (r) => r.state === 'acknowledged' && r.deliveries.length === 5,
    );
    expect(record.deliveries.every((d) => d.acknowledged)).toBe(true);
    const outcomes = await outcomesFor(input.orderId, 5);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
  });

  it('out of order: a refund notification can arrive before the payment notification', async () => {
    const input = order(4000);
    rig.expect(input.orderId, 4000);
    await rig.wechat.createOrder('native', input);
    await rig.api('wechat', 'POST', '/__sandbox/faults', {
      target: 'notification',
      kind: 'out_of_order',
      match: 'TRANSACTION.SUCCESS',
      hold_ms: 5000,
    });
    await rig.api('wechat', 'POST', `/__sandbox/orders/${input.orderId}/pay`, {});
    const refundId = newId('rf');
    rig.expect(refundId, 1000);
    await rig.wechat.refund({
      orderId: input.orderId,
      refundId,
      amountCents: 1000,
      orderAmountCents: 4000,
      reason: 'x',
    });
    await waitForNotification(
      rig,
      'wechat',
      input.orderId,
      (r) => r.event === 'TRANSACTION.SUCCESS' && r.state === 'acknowledged',
    );
    const arrivals = rig.receiver.received
      .filter((r) => r.outcome?.ok && (r.tag === refundId || r.tag === input.orderId))
      .map((r) => r.tag);
    expect(arrivals).toEqual([refundId, input.orderId]);
  });
});
