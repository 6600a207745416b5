import { constants, createDecipheriv, generateKeyPairSync, publicEncrypt } from 'node:crypto';
import {
  decryptSensitive,
  encryptResource,
  parseAuthorization,
  requestMessage,
  responseMessage,
  rsaSign,
  rsaVerify,
  signatureHeaders,
} from './wechat-crypto';

const pair = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
const platform = pair();

describe('Authorization header', () => {
  it('parses the WECHATPAY2-SHA256-RSA2048 scheme in any parameter order', () => {
    const header =
      'WECHATPAY2-SHA256-RSA2048 serial_no="ABC",mchid="1900000001",timestamp="1700000000",' +
      'nonce_str="N1",signature="c2ln"';
    expect(parseAuthorization(header)).toEqual({
      mchid: '1900000001',
      serial_no: 'ABC',
      nonce_str: 'N1',
      timestamp: '1700000000',
      signature: 'c2ln',
    });
  });

  it.each([undefined, '', 'Bearer x', 'WECHATPAY2-SHA256-RSA2048 mchid="1",serial_no="2"'])(
    'refuses %p',
    (header) => expect(parseAuthorization(header)).toBeNull(),
  );

  it('the request message is method, target, timestamp, nonce and body, each followed by a line feed', () => {
    expect(requestMessage('GET', '/v3/x?mchid=1', '17', 'N', '')).toBe('GET\n/v3/x?mchid=1\n17\nN\n\n');
    expect(responseMessage('17', 'N', '{}')).toBe('17\nN\n{}\n');
  });
});

describe('response and notification signatures', () => {
  it('sign timestamp, nonce and body with the platform key; the serial names the key', () => {
    const h = signatureHeaders('{"a":1}', platform.privateKey, 'PUB_KEY_ID_1');
    expect(h['Wechatpay-Serial']).toBe('PUB_KEY_ID_1');
    expect(h['Wechatpay-Nonce']).toMatch(/^[0-9A-Z]{32}$/);
    expect(Math.abs(Number(h['Wechatpay-Timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    const message = responseMessage(h['Wechatpay-Timestamp'], h['Wechatpay-Nonce'], '{"a":1}');
    expect(rsaVerify(message, h['Wechatpay-Signature'], platform.publicKey)).toBe(true);
  });

  it('stale, tampered and SIGNTEST variants', () => {
    const stale = signatureHeaders('', platform.privateKey, 'K', { timestamp: 1_000 });
    expect(stale['Wechatpay-Timestamp']).toBe('1000');
    expect(
      rsaVerify(
        responseMessage('1000', stale['Wechatpay-Nonce'], ''),
        stale['Wechatpay-Signature'],
        platform.publicKey,
      ),
    ).toBe(true);
    const bad = signatureHeaders('x', platform.privateKey, 'K', { tamper: true });
    const msg = responseMessage(bad['Wechatpay-Timestamp'], bad['Wechatpay-Nonce'], 'x');
    expect(rsaVerify(msg, bad['Wechatpay-Signature'], platform.publicKey)).toBe(false);
    const probe = signatureHeaders('x', platform.privateKey, 'K', { signTest: true });
    expect(probe['Wechatpay-Signature']).toMatch(/^WECHATPAY\/SIGNTEST\//);
  });

  it('rsaSign/rsaVerify round-trip and reject other messages', () => {
    const sig = rsaSign('m', platform.privateKey);
    expect(rsaVerify('m', sig, platform.publicKey)).toBe(true);
    expect(rsaVerify('n', sig, platform.publicKey)).toBe(false);
  });
});

describe('resource encryption', () => {
  const key = 'abcdefghijklmnopqrstuvwxyz012345';

  it('AEAD_AES_256_GCM with a 12-character nonce, the associated data and the tag appended', () => {
    const r = encryptResource('{"out_trade_no":"o1"}', key, 'transaction');
    expect(r).toMatchObject({
      algorithm: 'AEAD_AES_256_GCM',
      original_type: 'transaction',
      associated_data: 'transaction',
    });
    expect(r.nonce).toHaveLength(12);
    const data = Buffer.from(r.ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(r.nonce));
    decipher.setAAD(Buffer.from('transaction'));
    decipher.setAuthTag(data.subarray(data.length - 16));
    const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
    expect(plain.toString()).toBe('{"out_trade_no":"o1"}');
  });

  it('a fresh nonce every time', () => {
    expect(encryptResource('x', key, 'refund').nonce).not.toBe(encryptResource('x', key, 'refund').nonce);
  });

  it('decrypts RSA-OAEP sensitive fields; anything else is null', () => {
    const cipher = publicEncrypt(
      { key: platform.publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from('张三'),
    ).toString('base64');
    expect(decryptSensitive(cipher, platform.privateKey)).toBe('张三');
    expect(decryptSensitive('bm90IGVuY3J5cHRlZA==', platform.privateKey)).toBeNull();
  });
});
