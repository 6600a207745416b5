import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { safeEqual, sha256Hex } from '../common/crypto';
import { ApiError } from '../common/errors/api-error';
import type { AgentActor } from '../common/actor';
import { sqlRows } from '../database/sql';

/** Compared against when there is no key row, so a missing key costs the same as a wrong secret. */
const NO_SECRET = sha256Hex('');

/**
 * Checks the `X-API-Secret` header of the reference payment surface (product-decisions §6): it must be the secret issued
 * with the agent's current, enabled API key. With an API key as bearer the secret must belong to that very key;
 * with an agent JWT, to the agent's (single) key. Only SHA-256 hashes are stored, compared in constant time.
 */
@Injectable()
export class ApiSecretVerifier {
  constructor(private readonly ds: DataSource) {}

  async verify(actor: AgentActor, presented: string | undefined): Promise<void> {
    if (!presented) {
      throw new ApiError('invalid_credentials', 'Send the X-API-Secret header issued with your API key.');
    }
    const rows = await sqlRows<{ secret_hash: string }>(
      this.ds,
      actor.keyId
        ? `SELECT secret_hash FROM api_keys WHERE id = $1 AND is_active`
        : `SELECT secret_hash FROM api_keys WHERE agent_id = $1 AND is_active`,
      [actor.keyId ?? actor.id],
    );
    const matches = safeEqual(sha256Hex(presented), rows[0]?.secret_hash ?? NO_SECRET);
    if (!matches || rows.length === 0) {
      throw new ApiError('invalid_credentials', 'The API key or API secret is wrong.');
    }
  }
}
