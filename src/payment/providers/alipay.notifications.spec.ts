import { AlipaySdk } from 'alipay-sdk';
import { generateSandboxCredentials } from '../../config/sandbox-credentials';
import { signNotification, tamper } from '../../sandbox/alipay/alipay-crypto';
import { alipayAck, verifyAlipayNotification } from './alipay.notifications';

/**
 * Edge cases of the Alipay verifier (the SDK's checkNotifySignV2 plus our checks), with notifications signed by the
 * sandbox's independent helper.
 */
const creds = generateSandboxCredentials().alipay;
const sdk = new AlipaySdk({
  appId: creds.appId,
  privateKey: creds.appPrivateKey,
  keyType: 'PKCS8',
  alipayPublicKey: creds.platformPublicKey,
});

const base = {
  notify_time: '2025-01-01 12:00:00',
  notify_type: 'trade_status_sync',
  notify_id: 'n-1',
  charset: 'utf-8',
  version: '1.0',
  app_id: creds.appId,
  trade_no: '2025010122001400000000000001',
  out_trade_no: 'order0001',
  trade_status: 'TRADE_SUCCESS',
  total_amount: '10.50',
  subject: 'Legwork recharge & more',
  gmt_payment: '2025-01-01 11:59:59',
};

function body(params: Record<string, string>, opts: { tamper?: boolean } = {}) {
  const signed = signNotification(params, creds.platformPrivateKey);
  if (opts.tamper) signed.sign = tamper(signed.sign);
  return { rawBody: Buffer.from(new URLSearchParams(signed).toString()), headers: {} };
}

/** 2025-01-01 12:00:00 in Beijing, when `base` says it was sent. */
const NOW = Date.parse('2025-01-01T04:00:00Z');
const HOUR = 3_600_000;

const verify = (
  input: { rawBody: Buffer; headers: Record<string, string> },
  expected?: number | null,
  nowMs = NOW,
) =>
  verifyAlipayNotification(
    sdk,
    creds.appId,
    input,
    expected === undefined ? undefined : () => expected,
    nowMs,
  );

describe('Alipay notification verification', () => {
  it('accepts a signed notification for our app, special characters included', async () => {
    expect(await verify(body(base), 1050)).toEqual({
      ok: true,
      notification: {
        provider: 'alipay',
        kind: 'payment',
        eventId: 'n-1',
        appOrMerchantId: creds.appId,
        orderId: 'order0001',
        providerTxnId: base.trade_no,
        amountCents: 1050,
        status: 'paid',
        paidAt: new Date('2025-01-01T03:59:59Z'),
      },
    });
  });

  it('refuses a tampered signature, another app, a mismatched amount and garbage', async () => {
    expect(await verify(body(base, { tamper: true }))).toMatchObject({
      failure: { code: 'invalid_signature' },
    });
    expect(await verify(body({ ...base, app_id: '2021999999999999' }))).toMatchObject({
      failure: { code: 'app_mismatch' },
    });
    expect(await verify(body(base), 1049)).toMatchObject({
      failure: { code: 'amount_mismatch', expectedAmountCents: 1049, actualAmountCents: 1050 },
    });
    expect(await verify({ rawBody: Buffer.from('{"json":true}'), headers: {} })).toMatchObject({
      failure: { code: 'malformed' },
    });
  });

  it('refuses a notify_time more than 48 hours old, or none, and accepts one 47 hours old', async () => {
    expect(await verify(body(base), 1050, NOW + 49 * HOUR)).toMatchObject({
      failure: { code: 'stale_notification', message: expect.stringContaining('older than 48 hours') },
    });
    expect(await verify(body(base), 1050, NOW + 47 * HOUR)).toMatchObject({ ok: true });
    const { notify_time: _dropped, ...undated } = base;
    expect(await verify(body(undated), 1050)).toMatchObject({ failure: { code: 'malformed' } });
  });

  it('a parameter added after signing breaks the signature', async () => {
    const signed = body(base);
    const extended = Buffer.concat([signed.rawBody, Buffer.from('&refund_fee=10.50')]);
    expect(await verify({ rawBody: extended, headers: {} })).toMatchObject({
      failure: { code: 'invalid_signature' },
    });
  });

  it('maps closed trades and recognises refund notifications as refunds, not payments', async () => {
    expect(await verify(body({ ...base, trade_status: 'TRADE_CLOSED' }))).toMatchObject({
      ok: true,
      notification: { kind: 'payment', status: 'closed', paidAt: null },
    });
    const refund = await verify(
      body({ ...base, out_biz_no: 'refund01', refund_fee: '3.00', gmt_refund: '2025-01-02 00:00:00' }),
    );
    expect(refund).toMatchObject({
      ok: true,
      notification: { kind: 'refund', refundId: 'refund01', totalRefundedCents: 300, amountCents: null },
    });
  });

  it('refuses other notify types and unknown trade states', async () => {
    expect(await verify(body({ ...base, notify_type: 'fund_auth_freeze' }))).toMatchObject({
      failure: { code: 'unsupported_event' },
    });
    expect(await verify(body({ ...base, trade_status: 'SOMETHING' }))).toMatchObject({
      failure: { code: 'malformed' },
    });
  });

  it('answers exactly success or failure', () => {
    expect(alipayAck({ ok: true, notification: {} as never }).body).toBe('success');
    expect(alipayAck({ ok: false, failure: { code: 'malformed', message: 'm' } }).body).toBe('failure');
  });
});
