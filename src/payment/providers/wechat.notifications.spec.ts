import { createPublicKey } from 'node:crypto';
import { generateSandboxCredentials } from '../../config/sandbox-credentials';
import { encryptResource, signatureHeaders } from '../../sandbox/wechat/wechat-crypto';
import type { WechatPaySettings } from '../../config/payment-config';
import { verifyWechatNotification, wechatAck } from './wechat.notifications';

/**
 * Edge cases of the WeChat verifier, with messages built by the sandbox's independent crypto helpers. The contract
 * tests cover the same verifier end to end over HTTP.
 */
const creds = generateSandboxCredentials().wechat;
const settings: WechatPaySettings = {
  baseUrl: 'http://127.0.0.1:1/',
  mchId: creds.mchId,
  appId: creds.appId,
  merchantSerial: creds.merchantSerial,
  merchantPrivateKeyPem: creds.merchantPrivateKey,
  apiV3Key: creds.apiV3Key,
  platformPublicKeyId: creds.platformPublicKeyId,
  platformPublicKeyPem: creds.platformPublicKey,
  notifyUrl: 'http://127.0.0.1:1/webhooks/wechat',
  transferSceneId: '1005',
};
const publicKey = createPublicKey(creds.platformPublicKey);
const NOW = 1_750_000_000_000;

function message(
  resource: Record<string, unknown>,
  opts: { timestamp?: number; apiV3Key?: string; type?: string } = {},
) {
  const body = JSON.stringify({
    id: 'EV-1',
    create_time: '2025-06-15T23:06:40+08:00',
    resource_type: 'encrypt-resource',
    event_type: opts.type ?? 'TRANSACTION.SUCCESS',
    summary: 'ok',
    resource: encryptResource(JSON.stringify(resource), opts.apiV3Key ?? creds.apiV3Key, 'transaction'),
  });
  const headers = signatureHeaders(body, creds.platformPrivateKey, creds.platformPublicKeyId, {
    timestamp: opts.timestamp ?? NOW / 1000,
  });
  return { rawBody: Buffer.from(body), headers };
}

const paid = {
  appid: creds.appId,
  mchid: creds.mchId,
  out_trade_no: 'order0001',
  transaction_id: '4200000000000000000000000001',
  trade_state: 'SUCCESS',
  success_time: '2025-06-15T23:06:40+08:00',
  amount: { total: 1000, payer_total: 1000, currency: 'CNY' },
};

const verify = (input: { rawBody: Buffer; headers: Record<string, string> }, nowMs = NOW) =>
  verifyWechatNotification(settings, publicKey, input, undefined, nowMs);

describe('WeChat notification verification', () => {
  it('accepts a fresh, signed, decryptable notification for our merchant', async () => {
    expect(await verify(message(paid))).toEqual({
      ok: true,
      notification: {
        provider: 'wechat',
        kind: 'payment',
        eventId: 'EV-1',
        appOrMerchantId: creds.mchId,
        orderId: 'order0001',
        providerTxnId: paid.transaction_id,
        amountCents: 1000,
        status: 'paid',
        paidAt: new Date('2025-06-15T15:06:40Z'),
      },
    });
  });

  it('refuses an event created more than 48 hours before now, even freshly signed', async () => {
    const hour = 3_600_000;
    const later = NOW + 49 * hour;
    const signedLater = message(paid, { timestamp: later / 1000 });
    expect(await verify(signedLater, later)).toMatchObject({
      failure: { code: 'stale_notification', message: expect.stringContaining('create_time') },
    });
    expect(wechatAck(await verify(signedLater, later)).status).toBe(400);
    const earlier = NOW + 47 * hour;
    expect(await verify(message(paid, { timestamp: earlier / 1000 }), earlier)).toMatchObject({ ok: true });
  });

  it('accepts timestamps up to 300 s off in either direction and refuses 301 s', async () => {
    const m = message(paid);
    expect((await verify(m, NOW + 300_000)).ok).toBe(true);
    expect((await verify(m, NOW - 300_000)).ok).toBe(true);
    expect(await verify(m, NOW + 301_000)).toMatchObject({ ok: false, failure: { code: 'stale_timestamp' } });
    expect(await verify(m, NOW - 301_000)).toMatchObject({ ok: false, failure: { code: 'stale_timestamp' } });
  });

  it('refuses a body changed after signing, missing headers, an unknown key id and the SIGNTEST probe', async () => {
    const m = message(paid);
    const changed = { ...m, rawBody: Buffer.from(m.rawBody.toString().replace('"ok"', '"OK"')) };
    expect(await verify(changed)).toMatchObject({ ok: false, failure: { code: 'invalid_signature' } });
    const { ['Wechatpay-Nonce']: _n, ...noNonce } = m.headers;
    expect(await verify({ ...m, headers: noNonce })).toMatchObject({
      ok: false,
      failure: { code: 'malformed' },
    });
    const other = { ...m.headers, 'Wechatpay-Serial': 'PUB_KEY_ID_OTHER' };
    expect(await verify({ ...m, headers: other })).toMatchObject({
      ok: false,
      failure: { code: 'unknown_key' },
    });
    const probe = {
      ...m.headers,
      'Wechatpay-Signature': `WECHATPAY/SIGNTEST/${m.headers['Wechatpay-Signature']}`,
    };
    expect(await verify({ ...m, headers: probe })).toMatchObject({
      ok: false,
      failure: { code: 'signature_probe' },
    });
  });

  it('reads headers case-insensitively (Node lowercases them)', async () => {
    const m = message(paid);
    const lower = Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect((await verify({ ...m, headers: lower })).ok).toBe(true);
  });

  it('refuses a resource encrypted with another APIv3 key, another merchant or app, and unknown events', async () => {
    const wrongKey = message(paid, { apiV3Key: 'x'.repeat(32) });
    expect(await verify(wrongKey)).toMatchObject({ ok: false, failure: { code: 'decrypt_failed' } });
    expect(await verify(message({ ...paid, mchid: '1999999999' }))).toMatchObject({
      ok: false,
      failure: { code: 'app_mismatch' },
    });
    expect(await verify(message({ ...paid, appid: 'wx0000000000000000' }))).toMatchObject({
      ok: false,
      failure: { code: 'app_mismatch' },
    });
    expect(await verify(message(paid, { type: 'COMPLAINT.CREATE' }))).toMatchObject({
      ok: false,
      failure: { code: 'unsupported_event' },
    });
    expect(await verify(message({ ...paid, amount: {} }))).toMatchObject({
      ok: false,
      failure: { code: 'malformed' },
    });
  });

  it('compares the amount with what the service expects, and flags unknown references', async () => {
    const m = message(paid);
    const check = (expected: number | null) =>
      verifyWechatNotification(settings, publicKey, m, () => expected, NOW);
    expect((await check(1000)).ok).toBe(true);
    expect(await check(999)).toMatchObject({
      ok: false,
      failure: { code: 'amount_mismatch', expectedAmountCents: 999, actualAmountCents: 1000 },
    });
    expect(await check(null)).toMatchObject({ ok: false, failure: { code: 'unknown_reference' } });
  });

  it('acknowledges with 200 SUCCESS, and refuses with 401 for signature problems, 400 otherwise', () => {
    expect(wechatAck({ ok: true, notification: {} as never })).toMatchObject({ status: 200 });
    expect(wechatAck({ ok: false, failure: { code: 'stale_timestamp', message: 'm' } }).status).toBe(401);
    const mismatch = wechatAck({ ok: false, failure: { code: 'amount_mismatch', message: 'm' } });
    expect(mismatch.status).toBe(400);
    expect(JSON.parse(mismatch.body)).toEqual({ code: 'FAIL', message: 'm' });
  });
});
