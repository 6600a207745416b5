import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * A key of its own for one purpose, derived from the configured master key (WEBHOOK_SECRET_KEY) with HKDF: webhook
 * signing secrets, operator TOTP secrets and recovery-code hashes each get a different key from the one secret the
 * deployment keeps, so one purpose's key opens nothing of another's.
 */
export function deriveKey(masterKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, 'legwork', purpose, 32));
}

/**
 * Encrypts secrets the service must read back in clear (AES-256-GCM): webhook signing secrets sign every delivery,
 * TOTP secrets check every code, so neither can be hashed. Each sealed value is bound to its owner's id (additional
 * authenticated data), so a sealed secret copied to another row fails to open.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** `purpose` names the key (HKDF info); a value sealed for one purpose does not open under another. */
  constructor(masterKey: string, purpose: string) {
    this.key = deriveKey(masterKey, purpose);
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

/**
 * A keyed hash (HMAC-SHA256 under a derived key) for short single-use codes that are only ever compared: unlike a
 * plain SHA-256, a copy of the table alone does not let anyone try every possible code offline.
 */
export class KeyedHash {
  private readonly key: Buffer;

  constructor(masterKey: string, purpose: string) {
    this.key = deriveKey(masterKey, purpose);
  }

  hex(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('hex');
  }
}
