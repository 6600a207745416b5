import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { randomBase62 } from '../../common/crypto';

const VERSION = 'v1';

/**
 * Encrypts webhook signing secrets at rest (AES-256-GCM). They cannot be hashed: the service needs them in clear
 * to sign every delivery. The key is derived from the configured master key with HKDF, and each sealed value is
 * bound to its owner's id (additional authenticated data), so a sealed secret copied to another row fails to open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, 'legwork', 'webhook signing secrets v1', 32));
  }

  seal(plain: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ct]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string, boundTo: string): string {
    const [version, iv, tag, ct] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ct === undefined) throw new Error('unrecognised sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** A new signing secret: `whsec_` and 40 base62 characters (238 bits). */
export function newSigningSecret(): string {
  return `whsec_${randomBase62(40)}`;
}
