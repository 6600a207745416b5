import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../clock';
import { sqlRows } from '../../database/sql';

/** Decisions §4: stored responses are kept 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface StoredKey {
  request_hash: string;
  status_code: number | null;
  response: unknown;
}

/**
 * The idempotency_keys table. Every statement runs on its own (autocommit): the claim must be visible to
 * concurrent repeats at once, independent of the transaction of the request it guards.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  /**
   * Claims the key for this request: true when the caller now owns it (a new key, or one whose 24 hours are over),
   * otherwise the stored row (null if it vanished meanwhile: claim again).
   */
  async claim(agentId: string, key: string, hash: string): Promise<true | StoredKey | null> {
    const now = this.clock.now();
    const claimed = await sqlRows(
      this.ds,
      `INSERT INTO idempotency_keys (agent_id, key, request_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (agent_id, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, status_code = NULL, response = NULL,
              created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at <= $4
       RETURNING key`,
      [agentId, key, hash, now, new Date(now.getTime() + IDEMPOTENCY_TTL_MS)],
    );
    if (claimed.length) return true;
    const rows = await sqlRows<StoredKey>(
      this.ds,
      `SELECT request_hash, status_code, response FROM idempotency_keys WHERE agent_id = $1 AND key = $2`,
      [agentId, key],
    );
    return rows[0] ?? null;
  }

  async complete(agentId: string, key: string, status: number, body: unknown): Promise<void> {
    await this.ds.query(
      `UPDATE idempotency_keys SET status_code = $3, response = $4
        WHERE agent_id = $1 AND key = $2 AND status_code IS NULL`,
      [agentId, key, status, JSON.stringify(body ?? null)],
    );
  }

  /** Gives the key back after a server error, so a retry runs the request again. */
  async release(agentId: string, key: string): Promise<void> {
    await this.ds.query(
      `DELETE FROM idempotency_keys WHERE agent_id = $1 AND key = $2 AND status_code IS NULL`,
      [agentId, key],
    );
  }

  /** Deletes expired keys in batches (the purge job); returns how many. */
  async purgeExpired(batch = 1000): Promise<number> {
    const now = this.clock.now();
    let total = 0;
    for (;;) {
      const rows = await sqlRows(
        this.ds,
        `DELETE FROM idempotency_keys WHERE ctid IN (
           SELECT ctid FROM idempotency_keys WHERE expires_at <= $1 LIMIT $2) RETURNING 1`,
        [now, batch],
      );
      total += rows.length;
      if (rows.length < batch) return total;
    }
  }
}
