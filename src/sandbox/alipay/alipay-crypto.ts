import { createSign, createVerify } from 'node:crypto';

/**
 * Alipay OpenAPI v2 signatures (RSA2 = SHA256withRSA, base64), written from the protocol description with node:crypto:
 * - request: every parameter except `sign`, empty values left out, sorted by name, joined as `k=v&k=v`;
 * - async notification: the same, but `sign_type` is left out too;
 * - response: the exact JSON text of the `<method>_response` value, signed and placed next to it as `sign`.
 */
export type Params = Record<string, string>;

function signContent(params: Params, exclude: readonly string[]): string {
  return Object.keys(params)
    .filter((k) => !exclude.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}

export function requestSignContent(params: Params): string {
  return signContent(params, ['sign']);
}

export function notifySignContent(params: Params): string {
  return signContent(params, ['sign', 'sign_type']);
}

export function rsa2Sign(content: string, privateKeyPem: string): string {
  return createSign('RSA-SHA256').update(content, 'utf8').sign(privateKeyPem, 'base64');
}

export function rsa2Verify(content: string, signature: string, publicKeyPem: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(content, 'utf8').verify(publicKeyPem, signature, 'base64');
  } catch {
    return false;
  }
}

/** Changes a valid base64 signature into a different, still well-formed one. */
export function tamper(signature: string): string {
  const bytes = Buffer.from(signature, 'base64');
  bytes[bytes.length >> 1] ^= 0x5a;
  return bytes.toString('base64');
}

/**
 * The response body: `{"<method>_response":{...},"sign":"..."}`. The signed text is the serialised inner object,
 * byte for byte as it appears in the body.
 */
export function signedResponse(
  method: string,
  payload: Record<string, unknown>,
  privateKeyPem: string,
  opts: { tamper?: boolean } = {},
): string {
  const key = `${method.replace(/\./g, '_')}_response`;
  const inner = JSON.stringify(payload);
  let sign = rsa2Sign(inner, privateKeyPem);
  if (opts.tamper) sign = tamper(sign);
  return `{"${key}":${inner},"sign":${JSON.stringify(sign)}}`;
}

/** Signs notification parameters in place of any previous signature. */
export function signNotification(params: Params, privateKeyPem: string): Params {
  const signed: Params = { ...params, sign_type: 'RSA2' };
  delete signed.sign;
  signed.sign = rsa2Sign(notifySignContent(signed), privateKeyPem);
  return signed;
}
