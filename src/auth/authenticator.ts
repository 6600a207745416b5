import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { sha256Hex } from '../common/crypto';
import { ApiError } from '../common/errors/api-error';
import { Actor, ActorKind, PERMISSIONS, Permission } from '../common/actor';
import { sqlRows } from '../database/sql';
import { looksLikeApiKey } from './api-keys';
import { AuthCache } from './auth-cache';
import type { AccountAccessRow, AdminSessionRow, KeyAccessRow } from './auth.rows';
import { type AccessClaims, type AccessSubject, accessSubject, Tokens } from './tokens';
import { UsageTracker } from './usage-tracker';

/** The kinds whose account row is cached (operators are looked up on every request: `operator`). */
type AccountKind = Exclude<ActorKind, 'admin'>;
const TABLE: Record<AccountKind, string> = { agent: 'agents', worker: 'workers' };

/**
 * Turns a credential into an Actor, checking that the account may act: an API key (ApiKeyStrategy on HTTP), the
 * verified claims of an access JWT (JwtStrategy), or either as a bare token (a socket's handshake).
 */
@Injectable()
export class Authenticator {
  constructor(
    private readonly ds: DataSource,
    private readonly tokens: Tokens,
    private readonly usage: UsageTracker,
    private readonly cache: AuthCache,
    private readonly clock: Clock,
  ) {}

  /** A bearer token outside an HTTP request (a socket's handshake): an API key or an access JWT. */
  async authenticate(token: string): Promise<Actor> {
    return looksLikeApiKey(token)
      ? this.fromApiKey(token)
      : this.fromAccess(await this.tokens.verifyAccess(token));
  }

  /** An access JWT's claims, its signature, issuer, audience and algorithm already verified. */
  fromAccessClaims(claims: AccessClaims): Promise<Actor> {
    return this.fromAccess(accessSubject(claims, this.clock.now()));
  }

  async fromApiKey(key: string): Promise<Actor> {
    const keyHash = sha256Hex(key);
    const row = await this.cache.get(
      'api_key',
      keyHash,
      async () =>
        (
          await sqlRows<KeyAccessRow>(
            this.ds,
            `SELECT k.id, k.agent_id, k.permissions, k.is_active, a.account_status,
                    a.rate_limit_per_minute, a.rate_limit_per_day
               FROM api_keys k JOIN agents a ON a.id = k.agent_id WHERE k.key_hash = $1`,
            [keyHash],
          )
        )[0],
      (r) => r.is_active && r.account_status === 'active',
    );
    if (!row || !row.is_active)
      throw new ApiError('invalid_api_key', 'The API key is invalid, disabled or rotated.');
    if (row.account_status !== 'active') throw disabled();
    this.usage.record(row.agent_id, { id: row.id, hash: keyHash });
    return {
      kind: 'agent',
      id: row.agent_id,
      scheme: 'api_key',
      keyId: row.id,
      permissions: row.permissions.filter((p): p is Permission =>
        (PERMISSIONS as readonly string[]).includes(p),
      ),
      limits: { perMinute: row.rate_limit_per_minute, perDay: row.rate_limit_per_day },
    };
  }

  private async fromAccess({ kind, subjectId, sessionId }: AccessSubject): Promise<Actor> {
    if (kind === 'admin') return this.operator(subjectId, sessionId);
    const account = await this.account(kind, subjectId);
    if (!account) throw new ApiError('invalid_token', 'The account of this token no longer exists.');
    if (account.account_status !== 'active') throw disabled();
    if (kind === 'agent') {
      this.usage.record(subjectId, null);
      return {
        kind,
        id: subjectId,
        scheme: 'jwt',
        keyId: null,
        permissions: PERMISSIONS,
        limits: { perMinute: account.rate_limit_per_minute, perDay: account.rate_limit_per_day },
      };
    }
    return { kind, id: subjectId, scheme: 'jwt' };
  }

  /**
   * Operators are few and powerful, so their session is looked up on every request instead of cached: signing out,
   * a two-factor reset or a new password (on any instance) ends the access tokens of the session at once, not when
   * they expire.
   */
  private async operator(id: string, sessionId: string | null): Promise<Actor> {
    if (!sessionId) throw new ApiError('invalid_token', 'This operator token has no session: sign in again.');
    // A session is live while its family has tokens of this operator and none revoked: an unknown family counts
    // as ended, so every live operator token has a session row to read its start from.
    const rows = await sqlRows<AdminSessionRow>(
      this.ds,
      `SELECT (a.totp_required AND a.totp_enabled_at IS NULL) AS needs_enrolment,
              (count(r.id) = 0 OR bool_or(r.revoked_at IS NOT NULL)) AS ended
         FROM admins a LEFT JOIN refresh_tokens r ON r.family_id = $2 AND r.subject_id = a.id
        WHERE a.id = $1 GROUP BY a.id`,
      [id, sessionId],
    );
    const row = rows[0];
    if (!row) throw new ApiError('invalid_token', 'The account of this token no longer exists.');
    if (row.ended) throw new ApiError('invalid_token', 'This operator session has ended: sign in again.');
    if (row.needs_enrolment) {
      throw new ApiError('invalid_token', 'This account must set up two-factor sign-in: sign in again.');
    }
    return { kind: 'admin', id, scheme: 'jwt', sessionId };
  }

  private account(kind: AccountKind, id: string): Promise<AccountAccessRow | undefined> {
    return this.cache.get(
      kind,
      id,
      () => this.lookupAccount(kind, id),
      (r) => r.account_status === 'active',
    );
  }

  private async lookupAccount(kind: AccountKind, id: string): Promise<AccountAccessRow | undefined> {
    const columns =
      kind === 'agent'
        ? 'account_status, rate_limit_per_minute, rate_limit_per_day'
        : 'account_status, 0 AS rate_limit_per_minute, 0 AS rate_limit_per_day';
    const rows = await sqlRows<AccountAccessRow>(
      this.ds,
      `SELECT ${columns} FROM ${TABLE[kind]} WHERE id = $1`,
      [id],
    );
    return rows[0];
  }
}

function disabled(): ApiError {
  return new ApiError('account_disabled', 'This account is suspended or closed.');
}
