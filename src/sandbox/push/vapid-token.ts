import { createPublicKey, verify } from 'node:crypto';

/** What a valid VAPID authorization carried (RFC 8292). */
export interface VapidClaims {
  /** The application server's public key (`k`), base64url: the key the token is signed with. */
  publicKey: string;
  aud: string;
  exp: number;
  sub: string;
}

export class VapidRefused extends Error {}

/** A push service refuses tokens valid for longer than a day (RFC 8292 §2). */
const MAX_LIFETIME_SECONDS = 24 * 3600;

/**
 * Checks `Authorization: vapid t=<JWT>, k=<public key>` as a push service does, with node:crypto alone (never the
 * web-push library the service signs with, so the two sides are independent): an ES256 JWT signed by the P-256 key
 * `k`, whose audience is this push service's origin, which expires within a day and names a contact.
 */
export function checkVapid(
  authorization: string | undefined,
  origin: string,
  nowSeconds: number,
): VapidClaims {
  const m = /^vapid\s+(.+)$/i.exec(authorization ?? '');
  if (!m) throw new VapidRefused('missing Authorization: vapid t=..., k=...');
  const params = Object.fromEntries(
    m[1].split(',').map((part) => {
      const i = part.indexOf('=');
      return [part.slice(0, i).trim(), part.slice(i + 1).trim()];
    }),
  );
  const token = params.t;
  const key = params.k;
  if (!token || !key) throw new VapidRefused('the vapid scheme needs t and k');
  const [head, body, signature] = token.split('.');
  if (!head || !body || !signature) throw new VapidRefused('t is not a JWT');
  const header = parseJson(head);
  if (header.alg !== 'ES256') throw new VapidRefused('the JWT must be ES256');
  if (!verifyEs256(`${head}.${body}`, signature, key)) throw new VapidRefused('bad JWT signature for key k');
  const claims = parseJson(body);
  if (claims.aud !== origin) throw new VapidRefused(`aud must be ${origin}`);
  if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)
    throw new VapidRefused('the JWT has expired');
  if (claims.exp > nowSeconds + MAX_LIFETIME_SECONDS)
    throw new VapidRefused('exp is more than 24 hours ahead');
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) {
    throw new VapidRefused('sub must be a mailto: or https: contact');
  }
  return { publicKey: key, aud: claims.aud, exp: claims.exp, sub: claims.sub };
}

function parseJson(part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (value && typeof value === 'object') return value as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw new VapidRefused('malformed JWT');
}

/** ES256: ECDSA P-256 over SHA-256, the signature as r || s (64 bytes), the key an uncompressed point. */
function verifyEs256(signed: string, signature: string, publicKey: string): boolean {
  const point = Buffer.from(publicKey, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04) return false;
  try {
    const key = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: point.subarray(1, 33).toString('base64url'),
        y: point.subarray(33).toString('base64url'),
      },
      format: 'jwk',
    });
    return verify(
      'sha256',
      Buffer.from(signed),
      { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
  } catch {
    return false;
  }
}
