import { randomBase62, sha256Hex } from '../common/crypto';

/** 43 base62 characters carry 256 bits: at least the 32 random bytes the decisions ask for. */
const SECRET_LENGTH = 43;
export const API_KEY_VISIBLE_PREFIX_LENGTH = 12;

export interface GeneratedApiKey {
  apiKey: string;
  apiSecret: string;
  keyHash: string;
  secretHash: string;
  prefix: string;
}

/**
 * Makes a new API key (`lw_live_…` or `lw_test_…`) and its API secret. Only SHA-256 hashes are stored: the
 * values are high-entropy random strings, so a fast hash is safe and lets the key be looked up by its hash.
 */
export function generateApiKey(modePrefix: 'lw_live_' | 'lw_test_'): GeneratedApiKey {
  const apiKey = `${modePrefix}${randomBase62(SECRET_LENGTH)}`;
  const apiSecret = `lws_${randomBase62(SECRET_LENGTH)}`;
  return {
    apiKey,
    apiSecret,
    keyHash: sha256Hex(apiKey),
    secretHash: sha256Hex(apiSecret),
    prefix: apiKey.slice(0, API_KEY_VISIBLE_PREFIX_LENGTH),
  };
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith('lw_live_') || token.startsWith('lw_test_');
}
