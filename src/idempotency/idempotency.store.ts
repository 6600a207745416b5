import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import { sqlExec, sqlRows } from '../database/sql';
import type { IdempotencyClaim, KeyRef, KeyScope } from './idempotency-context';
import { InstanceLease } from './instance-lease';

/** Product-decisions §4: stored responses are kept 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** Keys that name an effect for good (a task's body key, an operator credit's key) never expire. */
const KEPT_FOR_GOOD: ReadonlySet<KeyScope> = new Set(['task', 'admin_credit']);
/**
 * A claim still in progress after this long is taken over even if its process looks alive (a hung request).
 * Far above any request's duration; token fencing keeps a late original from committing anyway.
 */
export const CLAIM_LEASE_MS = 5 * 60_000;

/** An idempotency_keys row: a claim while status_code is null, then the stored answer, kept until expires_at. */
export interface IdempotencyKeyRow {
  agent_id: string;
  /** What the key guards (KeyScope): a client may use one key string in two scopes for two effects. */
  scope: KeyScope;
  key: string;
  request_hash: string;
  status_code: number | null;
  /** The answer's body (jsonb), returned as is to a repeat. */
  response: unknown;
  created_at: Date;
  expires_at: Date;
  /** The InstanceLease key of the process that claimed it (bigint, compared in SQL only). */
  owner: string | null;
  claim_token: string | null;
}

export type StoredKey = Pick<IdempotencyKeyRow, 'request_hash' | 'status_code' | 'response'>;

/**
 * The owner of an in-progress claim is gone when no session holds its advisory lock (see InstanceLease). Claims
 * without an owner (written before owners were recorded) count as abandoned too.
 */
const OWNER_GONE = `NOT EXISTS (
  SELECT 1 FROM pg_locks l
   WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
     AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
     AND l.classid::bigint = (idempotency_keys.owner >> 32)
     AND l.objid::bigint = (idempotency_keys.owner & 4294967295))`;

const SETTLE_RETRY_MS = 1_000;
const SETTLE_ATTEMPTS = 60;
/** Bounds the memory of given-up claims; older ones are then only recovered by the lease. */
const MAX_GIVEN_UP = 10_000;

/**
 * The idempotency_keys table. Claims and answers outside a transaction run on their own (autocommit): a claim must be
 * visible to concurrent repeats at once, independent of the transaction of the request it guards.
 */
@Injectable()
export class IdempotencyStore {
  /**
   * Claims this process gave up on: their request is over but the answer or release never reached the database
   * (it was briefly unreachable). A repeat may take such a claim over at once instead of waiting out the lease.
   */
  private readonly givenUp = new Set<string>();

  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly lease: InstanceLease,
  ) {}

  /**
   * Claims the key for this request: `{ token }` when the caller now owns it (a new key, one whose time is over,
   * or the same request abandoned by a process that died or hung past CLAIM_LEASE_MS), otherwise the stored
   * row (null if it vanished meanwhile: claim again).
   */
  async claim(ref: KeyRef, hash: string): Promise<{ token: string } | StoredKey | null> {
    const now = this.clock.now();
    const claimed = await sqlRows<{ claim_token: string }>(
      this.ds,
      `INSERT INTO idempotency_keys (agent_id, scope, key, request_hash, created_at, expires_at, owner, claim_token)
       VALUES ($1, $2, $3, $4, $5, COALESCE($6::timestamptz, 'infinity'), $7, gen_random_uuid())
       ON CONFLICT (agent_id, scope, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, status_code = NULL, response = NULL,
              created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
              owner = EXCLUDED.owner, claim_token = EXCLUDED.claim_token
        WHERE idempotency_keys.expires_at <= $5
           OR (idempotency_keys.status_code IS NULL AND idempotency_keys.request_hash = EXCLUDED.request_hash
               AND (idempotency_keys.created_at <= $8
                    OR (idempotency_keys.owner = $7 AND idempotency_keys.claim_token = ANY($9::uuid[]))
                    OR ${OWNER_GONE}))
       RETURNING claim_token`,
      [
        ref.agentId,
        ref.scope,
        ref.key,
        hash,
        now,
        KEPT_FOR_GOOD.has(ref.scope) ? null : new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        this.lease.key,
        new Date(now.getTime() - CLAIM_LEASE_MS),
        [...this.givenUp],
      ],
    );
    if (claimed.length) return { token: claimed[0].claim_token };
    const rows = await sqlRows<StoredKey>(
      this.ds,
      `SELECT request_hash, status_code, response FROM idempotency_keys
        WHERE agent_id = $1 AND scope = $2 AND key = $3`,
      [ref.agentId, ref.scope, ref.key],
    );
    return rows[0] ?? null;
  }

  /** Stores the answer of a claim still in progress (a no-op once the claim was taken over or answered). */
  async complete(claim: IdempotencyClaim, status: number, body: unknown): Promise<void> {
    await sqlExec(
      this.ds,
      `UPDATE idempotency_keys SET status_code = $5, response = $6
        WHERE agent_id = $1 AND scope = $2 AND key = $3 AND claim_token = $4 AND status_code IS NULL`,
      [...keyParams(claim), status, JSON.stringify(body ?? null)],
    );
  }

  /**
   * Replaces the answer the request stored inside its transaction with the one it finally gave: they differ when the
   * request went on after its commit (a refund asks the provider). The claim token still fences it.
   */
  async replaceAnswer(claim: IdempotencyClaim, body: unknown): Promise<void> {
    await sqlExec(
      this.ds,
      `UPDATE idempotency_keys SET response = $5
        WHERE agent_id = $1 AND scope = $2 AND key = $3 AND claim_token = $4 AND status_code IS NOT NULL`,
      [...keyParams(claim), JSON.stringify(body ?? null)],
    );
  }

  /** Gives the key back after a server error, so a retry runs again (unless the effect committed its answer). */
  async release(claim: IdempotencyClaim): Promise<void> {
    await sqlExec(
      this.ds,
      `DELETE FROM idempotency_keys
        WHERE agent_id = $1 AND scope = $2 AND key = $3 AND claim_token = $4 AND status_code IS NULL`,
      keyParams(claim),
    );
  }

  /**
   * An answer or release of this claim failed (the database was briefly unreachable): it is retried in the
   * background, so the key does not stay in progress until the lease runs out. A failed release gives the claim up
   * at once (its request is over and committed nothing it answered); a failed answer keeps the claim until the
   * answer is stored, or until the retries run out.
   */
  settleLater(token: string, op: () => Promise<void>, kind: 'answer' | 'release'): void {
    if (kind === 'release') this.giveUp(token);
    const attempt = (n: number): void => {
      setTimeout(() => {
        op().then(
          () => this.givenUp.delete(token),
          () => (n < SETTLE_ATTEMPTS ? attempt(n + 1) : this.giveUp(token)),
        );
      }, SETTLE_RETRY_MS).unref();
    };
    attempt(1);
  }

  private giveUp(token: string): void {
    if (this.givenUp.size >= MAX_GIVEN_UP) this.givenUp.delete(this.givenUp.values().next().value!);
    this.givenUp.add(token);
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

/**
 * Stores `body` as the answer of `claim` inside the transaction that makes its effect, so the effect and its stored
 * answer commit together: a crash between the commit and a later write cannot leave an effect whose key then runs
 * again, and an ambiguous commit (connection lost during COMMIT) is settled by whether the answer is there. The claim
 * token fences it: if the claim was taken over (its process looked dead), nothing is written and the transaction is
 * refused, so only one of the two ever commits. Safe to run again when inTransaction retries the work.
 */
export async function recordAnswer(em: EntityManager, claim: IdempotencyClaim, body: unknown): Promise<void> {
  const rows = await sqlRows(
    em,
    `UPDATE idempotency_keys SET status_code = $5, response = $6
      WHERE agent_id = $1 AND scope = $2 AND key = $3 AND claim_token = $4 AND status_code IS NULL RETURNING 1`,
    [...keyParams(claim), claim.successStatus, JSON.stringify(body ?? null)],
  );
  if (rows.length === 0) {
    throw new ApiError(
      'idempotency_conflict',
      'Another request with this idempotency key finished first; retry to get its answer.',
    );
  }
}

function keyParams(claim: IdempotencyClaim): [string, KeyScope, string, string] {
  return [claim.ref.agentId, claim.ref.scope, claim.ref.key, claim.token];
}
