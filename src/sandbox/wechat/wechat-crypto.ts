import {
  constants,
  createCipheriv,
  createSign,
  createVerify,
  privateDecrypt,
  randomBytes,
  randomInt,
} from 'node:crypto';

/**
 * WeChat Pay APIv3 cryptography, written from the protocol description with node:crypto:
 * - request: `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=..,nonce_str=..,signature=..,timestamp=..,serial_no=..`
 *   over `METHOD\nTARGET\nTIMESTAMP\nNONCE\nBODY\n` with the merchant key (SHA256withRSA, base64);
 * - response and notification: `Wechatpay-Timestamp/Nonce/Signature/Serial` headers over `TIMESTAMP\nNONCE\nBODY\n`
 *   with the platform key, whose id (public key mode: PUB_KEY_ID_...) goes in Wechatpay-Serial;
 * - notification resource: AEAD_AES_256_GCM with the APIv3 key, a 12-character nonce and associated data, the
 *   16-byte tag appended to the ciphertext before base64;
 * - sensitive request fields: RSA-OAEP (SHA-1) with the platform public key.
 */
export interface AuthorizationParts {
  mchid: string;
  serial_no: string;
  nonce_str: string;
  timestamp: string;
  signature: string;
}

const SCHEME = 'WECHATPAY2-SHA256-RSA2048';

export function parseAuthorization(value: string | undefined): AuthorizationParts | null {
  if (!value || !value.startsWith(`${SCHEME} `)) return null;
  const parts: Record<string, string> = {};
  const re = /([a-z_]+)="([^"]*)"/g;
  for (let m = re.exec(value); m; m = re.exec(value)) parts[m[1]] = m[2];
  const { mchid, serial_no, nonce_str, timestamp, signature } = parts;
  if (!mchid || !serial_no || !nonce_str || !timestamp || !signature) return null;
  return { mchid, serial_no, nonce_str, timestamp, signature };
}

export function requestMessage(
  method: string,
  target: string,
  timestamp: string,
  nonce: string,
  body: string,
): string {
  return `${method}\n${target}\n${timestamp}\n${nonce}\n${body}\n`;
}

export function responseMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

export function rsaSign(message: string, privateKeyPem: string): string {
  return createSign('RSA-SHA256').update(message, 'utf8').sign(privateKeyPem, 'base64');
}

export function rsaVerify(message: string, signature: string, publicKeyPem: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(publicKeyPem, signature, 'base64');
  } catch {
    return false;
  }
}

export function nonce32(): string {
  const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let out = '';
  for (let i = 0; i < 32; i++) out += chars[randomInt(chars.length)];
  return out;
}

export interface SignatureOptions {
  /** Seconds since the epoch to sign with (a stale timestamp is still a valid signature over that timestamp). */
  timestamp?: number;
  tamper?: boolean;
  /** WeChat's verification probe: a signature prefixed WECHATPAY/SIGNTEST/ that merchants must reject. */
  signTest?: boolean;
}

export function signatureHeaders(
  body: string,
  privateKeyPem: string,
  keyId: string,
  opts: SignatureOptions = {},
): Record<string, string> {
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = nonce32();
  let signature = rsaSign(responseMessage(timestamp, nonce, body), privateKeyPem);
  if (opts.tamper) {
    const bytes = Buffer.from(signature, 'base64');
    bytes[bytes.length >> 1] ^= 0x5a;
    signature = bytes.toString('base64');
  }
  if (opts.signTest) signature = `WECHATPAY/SIGNTEST/${signature}`;
  return {
    'Wechatpay-Timestamp': timestamp,
    'Wechatpay-Nonce': nonce,
    'Wechatpay-Signature': signature,
    'Wechatpay-Serial': keyId,
  };
}

export interface EncryptedResource {
  original_type: string;
  algorithm: 'AEAD_AES_256_GCM';
  ciphertext: string;
  associated_data: string;
  nonce: string;
}

export function encryptResource(
  plaintext: string,
  apiV3Key: string,
  originalType: string,
): EncryptedResource {
  const nonceChars = randomBytes(9).toString('base64url').slice(0, 12);
  const cipher = createCipheriv(
    'aes-256-gcm',
    Buffer.from(apiV3Key, 'utf8'),
    Buffer.from(nonceChars, 'utf8'),
  );
  cipher.setAAD(Buffer.from(originalType, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return {
    original_type: originalType,
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: ciphertext.toString('base64'),
    associated_data: originalType,
    nonce: nonceChars,
  };
}

/** Decrypts a field the merchant encrypted with the platform public key; null when it does not decrypt. */
export function decryptSensitive(ciphertextB64: string, privateKeyPem: string): string | null {
  try {
    return privateDecrypt(
      { key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      Buffer.from(ciphertextB64, 'base64'),
    ).toString('utf8');
  } catch {
    return null;
  }
}
