import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { sha256Hex } from '../common/crypto';
import { ApiError } from '../common/errors/api-error';
import { Actor, ActorKind, PERMISSIONS, Permission } from '../common/actor';
import { sqlRows } from '../database/sql';
import { looksLikeApiKey } from './api-keys';
import { AuthCache } from './auth-cache';
import type { AccountAccessRow, KeyAccessRow } from './auth.rows';
import { type AccessClaims, accessSubject, Tokens } from './tokens';
import { UsageTracker } from './usage-tracker';

const TABLE: Record<ActorKind, string> = { agent: 'agents', worker: 'workers', admin: 'admins' };

/**
 * Turns a credential into an Actor, checking that the account may act: an API key (ApiKeyStrategy on HTTP), the
 * verified claims of an access JWT (JwtStrategy), or either as a bare token (a socket's handshake).
 */
@Injectable()
export class Authenticator {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
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

  private async fromAccess({ kind, subjectId }: { kind: ActorKind; subjectId: string }): Promise<Actor> {
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

  private account(kind: ActorKind, id: string): Promise<AccountAccessRow | undefined> {
    return this.cache.get(
      kind,
      id,
      () => this.lookupAccount(kind, id),
      (r) => r.account_status === 'active',
    );
  }

  private async lookupAccount(kind: ActorKind, id: string): Promise<AccountAccessRow | undefined> {
    const columns =
      kind === 'agent'
        ? 'account_status, rate_limit_per_minute, rate_limit_per_day'
        : kind === 'worker'
          ? 'account_status, 0 AS rate_limit_per_minute, 0 AS rate_limit_per_day'
          : `'active' AS account_status, 0 AS rate_limit_per_minute, 0 AS rate_limit_per_day`;
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
