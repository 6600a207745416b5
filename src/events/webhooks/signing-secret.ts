import { randomBase62 } from '../../common/crypto';

/** The HKDF purpose of the key that seals signing secrets (its text is part of every sealed secret's key). */
export const SIGNING_SECRETS_PURPOSE = 'webhook signing secrets v1';

/** A new signing secret: `whsec_` and 40 base62 characters (238 bits). */
export function newSigningSecret(): string {
  return `whsec_${randomBase62(40)}`;
}
