import { createECDH } from 'node:crypto';
import { ApiError } from '../common/errors/api-error';

/**
 * The two keys of a PushSubscription, checked before they are stored (a bad key would otherwise fail every offer
 * later, where nobody sees it) and normalised to unpadded base64url: the P-256 point the payload is encrypted to
 * (RFC 8291) must be a point of the curve, and the authentication secret must be 16 bytes.
 */
export function checkPushKeys(keys: { p256dh: string; auth: string }): { p256dh: string; auth: string } {
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 0x04 || !onCurve(point)) {
    throw ApiError.field('keys.p256dh', 'must be an uncompressed P-256 public key (65 bytes, base64url)');
  }
  const auth = Buffer.from(keys.auth, 'base64url');
  if (auth.length !== 16) throw ApiError.field('keys.auth', 'must be 16 bytes, base64url');
  return { p256dh: point.toString('base64url'), auth: auth.toString('base64url') };
}

function onCurve(point: Buffer): boolean {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  try {
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}
