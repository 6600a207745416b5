import { generateKeyPairSync } from 'node:crypto';
import {
  notifySignContent,
  requestSignContent,
  rsa2Sign,
  rsa2Verify,
  signedResponse,
  signNotification,
  tamper,
} from './alipay-crypto';

const keys = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const platform = keys();
const other = keys();

describe('Alipay sign content', () => {
  it('request: every parameter but sign, empty values left out, sorted by name, raw values', () => {
    const content = requestSignContent({
      method: 'alipay.trade.query',
      app_id: '2021000000000001',
      sign: 'ignored',
      sign_type: 'RSA2',
      empty: '',
      biz_content: '{"out_trade_no":"a&b=c"}',
      timestamp: '2024-01-02 03:04:05',
    });
    expect(content).toBe(
      'app_id=2021000000000001&biz_content={"out_trade_no":"a&b=c"}&method=alipay.trade.query' +
        '&sign_type=RSA2&timestamp=2024-01-02 03:04:05',
    );
  });

  it('notification: sign and sign_type are both left out', () => {
    expect(notifySignContent({ b: '2', a: '1', sign: 'x', sign_type: 'RSA2' })).toBe('a=1&b=2');
  });
});

describe('RSA2 signatures', () => {
  it('verify with the matching public key only', () => {
    const sig = rsa2Sign('a=1&b=2', platform.privateKey);
    expect(rsa2Verify('a=1&b=2', sig, platform.publicKey)).toBe(true);
    expect(rsa2Verify('a=1&b=3', sig, platform.publicKey)).toBe(false);
    expect(rsa2Verify('a=1&b=2', sig, other.publicKey)).toBe(false);
    expect(rsa2Verify('a=1&b=2', tamper(sig), platform.publicKey)).toBe(false);
    expect(rsa2Verify('a=1&b=2', 'not base64!', platform.publicKey)).toBe(false);
  });

  it('a signed notification verifies over its own parameters, without sign_type', () => {
    const signed = signNotification(
      { out_trade_no: 'o1', total_amount: '1.00', sign: 'stale' },
      platform.privateKey,
    );
    expect(signed.sign_type).toBe('RSA2');
    expect(signed.sign).not.toBe('stale');
    expect(rsa2Verify('out_trade_no=o1&total_amount=1.00', signed.sign, platform.publicKey)).toBe(true);
  });
});

describe('signed responses', () => {
  it('sign the exact JSON text of the <method>_response value', () => {
    const body = signedResponse(
      'alipay.trade.query',
      { code: '10000', msg: 'Success', total_amount: '9.99' },
      platform.privateKey,
    );
    const parsed = JSON.parse(body) as { alipay_trade_query_response: object; sign: string };
    expect(parsed.alipay_trade_query_response).toEqual({
      code: '10000',
      msg: 'Success',
      total_amount: '9.99',
    });
    const inner = body.slice(body.indexOf(':') + 1, body.lastIndexOf(',"sign"'));
    expect(inner).toBe('{"code":"10000","msg":"Success","total_amount":"9.99"}');
    expect(rsa2Verify(inner, parsed.sign, platform.publicKey)).toBe(true);
  });

  it('a tampered response keeps its shape but no longer verifies', () => {
    const body = signedResponse(
      'alipay.trade.close',
      { code: '10000', msg: 'Success' },
      platform.privateKey,
      {
        tamper: true,
      },
    );
    const parsed = JSON.parse(body) as { sign: string };
    expect(rsa2Verify('{"code":"10000","msg":"Success"}', parsed.sign, platform.publicKey)).toBe(false);
  });
});
