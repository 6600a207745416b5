import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createSecretKey, KeyObject, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Clock } from '../common/clock';
import { sha256Hex } from '../common/crypto';
import { ApiError } from '../common/errors/api-error';
import type { ActorKind } from '../common/actor';
import { sqlExec, sqlRows, type SqlRunner } from '../database/sql';
import type { RefreshTokenRow } from './auth.rows';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'bearer';
  expires_in: number;
}

/** Distinct audiences keep a worker token from ever passing as an agent token, and refresh from passing as access. */
export const AUDIENCE: Record<ActorKind, string> = {
  agent: 'legwork:agent',
  worker: 'legwork:worker',
  admin: 'legwork:admin',
};
const REFRESH_AUDIENCE = (kind: ActorKind): string => `${AUDIENCE[kind]}:refresh`;
const ISSUER = 'legwork';
const ALGORITHM = 'HS256' as const;

/**
 * What an access token must be, whoever verifies it (JwtStrategy on HTTP requests, verifyAccess for sockets): signed
 * with HS256 (a token with alg "none" or any other algorithm is refused), by this issuer, for one of the three
 * access audiences. Expiry is not among them: accessSubject reads it against the service's Clock, which tests and
 * sandbox test clocks move, where jsonwebtoken would read the machine's.
 */
export const ACCESS_TOKEN_RULES = {
  issuer: ISSUER,
  audience: [AUDIENCE.agent, AUDIENCE.worker, AUDIENCE.admin] as [string, ...string[]],
  algorithms: [ALGORITHM],
  ignoreExpiration: true,
};

/** The claims of an access token whose signature, issuer and audience were verified. */
export interface AccessClaims {
  sub: string;
  aud?: unknown;
  exp?: unknown;
  /** The session (refresh family); absent from tokens signed before sessions had ids. */
  sid?: unknown;
}

export interface AccessSubject {
  kind: ActorKind;
  subjectId: string;
  sessionId: string | null;
}

/**
 * The kind (from the audience), subject and session of a verified access token, or invalid_token once it expired
 * at `now`.
 */
export function accessSubject(claims: AccessClaims, now: Date): AccessSubject {
  const kind = (Object.keys(AUDIENCE) as ActorKind[]).find((k) => AUDIENCE[k] === claims.aud);
  const alive = typeof claims.exp === 'number' && Math.floor(now.getTime() / 1000) < claims.exp;
  if (!kind || !alive) throw invalidAccessToken();
  return { kind, subjectId: claims.sub, sessionId: typeof claims.sid === 'string' ? claims.sid : null };
}

export function invalidAccessToken(): ApiError {
  return new ApiError('invalid_token', 'The access token is invalid or expired.');
}

/**
 * How long a session may last from its sign-in, whatever the activity, for the kinds that have a limit (operators:
 * 12 hours, product-decisions §16). Refreshing keeps the sign-in time; no access token reaches past the end, and a
 * refresh past it is refused (session_expired).
 */
export const SESSION_MAX_SECONDS: Partial<Record<ActorKind, number>> = { admin: 12 * 3600 };

/** A new pair and the session it belongs to. */
export interface IssuedSession {
  pair: TokenPair;
  /** The refresh family: the session's id (the access token's `sid`). */
  sessionId: string;
  /** When the session ends whatever the activity; null for kinds without a limit. */
  sessionEndsAt: Date | null;
}

export interface IssueOptions {
  /** The caller's transaction, so the session and what it records commit together. */
  db?: SqlRunner;
  /** Set by rotation: the new pair continues this session. */
  session?: { id: string; startedAt: Date };
}

/**
 * Short-lived access JWTs and rotating refresh JWTs. Refresh tokens are recorded (hashed) by jti and family;
 * each can be used once, and presenting a used one revokes its whole family, which ends a stolen session.
 */
@Injectable()
export class Tokens {
  /**
   * The secrets as KeyObjects, made once. Given a string, jsonwebtoken first tries to parse it as a PEM key on every
   * sign and verify (an exception each time) before treating it as an HMAC secret: a fifth of the API's CPU under
   * load, measured by the benchmark's profile.
   */
  private readonly accessKey: KeyObject;
  private readonly refreshKey: KeyObject;

  constructor(
    private readonly jwt: JwtService,
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.accessKey = createSecretKey(Buffer.from(config.jwt.accessSecret));
    this.refreshKey = createSecretKey(Buffer.from(config.jwt.refreshSecret));
  }

  async issuePair(kind: ActorKind, subjectId: string): Promise<TokenPair> {
    return (await this.issueSession(kind, subjectId)).pair;
  }

  /**
   * Signs a pair and records its refresh token: a new session (sign-in), or the next pair of `opts.session`. The
   * access token carries the session id (`sid`) and, where the kind has a session limit, expires by the session's
   * end at the latest.
   */
  async issueSession(kind: ActorKind, subjectId: string, opts: IssueOptions = {}): Promise<IssuedSession> {
    const { accessTtlSeconds, refreshTtlSeconds } = this.config.jwt;
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const session = opts.session ?? { id: randomUUID(), startedAt: new Date(now * 1000) };
    const limit = SESSION_MAX_SECONDS[kind];
    const endsAt = limit === undefined ? null : Math.floor(session.startedAt.getTime() / 1000) + limit;
    const accessExp = Math.min(now + accessTtlSeconds, endsAt ?? Infinity);
    const jti = randomUUID();
    const access = await this.jwt.signAsync(
      { sub: subjectId, sid: session.id, iat: now, exp: accessExp },
      {
        secret: asSecret(this.accessKey),
        audience: AUDIENCE[kind],
        issuer: ISSUER,
        algorithm: ALGORITHM,
        jwtid: randomUUID(),
      },
    );
    // The refresh token itself (JWT and row) runs its usual life: past the session's end it still verifies, so a
    // refresh then is refused by the session check with session_expired (a clear reason) rather than as a bad token.
    const refresh = await this.jwt.signAsync(
      { sub: subjectId, fam: session.id, iat: now, exp: now + refreshTtlSeconds },
      {
        secret: asSecret(this.refreshKey),
        audience: REFRESH_AUDIENCE(kind),
        issuer: ISSUER,
        algorithm: ALGORITHM,
        jwtid: jti,
      },
    );
    await sqlExec(
      opts.db ?? this.ds,
      `INSERT INTO refresh_tokens (id, family_id, subject_kind, subject_id, token_hash, expires_at,
                                   session_started_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        jti,
        session.id,
        kind,
        subjectId,
        sha256Hex(refresh),
        new Date((now + refreshTtlSeconds) * 1000),
        session.startedAt,
      ],
    );
    return {
      pair: {
        access_token: access,
        refresh_token: refresh,
        token_type: 'bearer',
        expires_in: accessExp - now,
      },
      sessionId: session.id,
      sessionEndsAt: endsAt === null ? null : new Date(endsAt * 1000),
    };
  }

  /**
   * Verifies an access token given outside an HTTP request (a socket's handshake; on HTTP, JwtStrategy does it with
   * the same rules); returns the kind and subject, or throws invalid_token.
   */
  async verifyAccess(token: string): Promise<AccessSubject> {
    let claims: AccessClaims;
    try {
      claims = await this.jwt.verifyAsync<AccessClaims>(token, {
        secret: asSecret(this.accessKey),
        ...ACCESS_TOKEN_RULES,
      });
    } catch {
      throw invalidAccessToken();
    }
    return accessSubject(claims, this.clock.now());
  }

  /** The access tokens' HMAC key, for JwtStrategy (made once: see the constructor). */
  get accessVerificationKey(): KeyObject {
    return this.accessKey;
  }

  /**
   * Rotates a refresh token: marks it used (a conditional update, so two concurrent refreshes cannot both win) and
   * issues a new pair in the same family, keeping the session's sign-in time. A token already used, revoked or
   * expired revokes its family; so does a session past its limit (401 session_expired).
   */
  async rotate(kind: ActorKind, refreshToken: string): Promise<{ subjectId: string; pair: TokenPair }> {
    const payload = await this.verify(refreshToken, this.refreshKey, REFRESH_AUDIENCE(kind));
    if (!payload?.jti || !payload.fam)
      throw new ApiError('invalid_token', 'The refresh token is invalid or expired.');
    const now = this.clock.now();
    // A family with any revoked token is dead: a concurrent reuse may revoke the family before the winner's new
    // token row exists, and that new token must still be refused.
    const used = await sqlRows<Pick<RefreshTokenRow, 'session_started_at'>>(
      this.ds,
      `UPDATE refresh_tokens SET used_at = $3
        WHERE id = $1 AND token_hash = $2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $3
          AND NOT EXISTS (SELECT 1 FROM refresh_tokens f WHERE f.family_id = $4 AND f.revoked_at IS NOT NULL)
        RETURNING session_started_at`,
      [payload.jti, sha256Hex(refreshToken), now, payload.fam],
    );
    if (used.length === 0) {
      await this.revokeFamily(payload.fam);
      throw new ApiError(
        'invalid_token',
        'The refresh token was already used or revoked; this session has been ended. Log in again.',
      );
    }
    const startedAt = used[0].session_started_at;
    const limit = SESSION_MAX_SECONDS[kind];
    if (limit !== undefined && now.getTime() >= startedAt.getTime() + limit * 1000) {
      await this.revokeFamily(payload.fam);
      throw new ApiError(
        'session_expired',
        `This session began ${limit / 3600} hours ago, the longest a session lasts: sign in again.`,
      );
    }
    const next = await this.issueSession(kind, payload.sub, { session: { id: payload.fam, startedAt } });
    return { subjectId: payload.sub, pair: next.pair };
  }

  /**
   * Logout: ends the session (the family) of a refresh token, so neither it nor any later token of the session
   * refreshes again (401 invalid_token). Only a token this service signed for `kind` is accepted; a session already
   * ended is not an error, so a repeated logout answers alike (`ended` then says this call ended nothing).
   */
  async revoke(
    kind: ActorKind,
    refreshToken: string,
    db: SqlRunner = this.ds,
  ): Promise<{ subjectId: string; sessionId: string; ended: boolean }> {
    const payload = await this.verify(refreshToken, this.refreshKey, REFRESH_AUDIENCE(kind));
    if (!payload?.jti || !payload.fam)
      throw new ApiError('invalid_token', 'The refresh token is invalid or expired.');
    const ended = await this.revokeFamily(payload.fam, db);
    return { subjectId: payload.sub, sessionId: payload.fam, ended };
  }

  /** Revokes every live token of a session; true when any was live. */
  async revokeFamily(familyId: string, db: SqlRunner = this.ds): Promise<boolean> {
    const rows = await sqlRows<Pick<RefreshTokenRow, 'id'>>(
      db,
      `UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL RETURNING id`,
      [familyId, this.clock.now()],
    );
    return rows.length > 0;
  }

  /** Ends every session of a subject (for example after a password reset). */
  async revokeAllFor(kind: ActorKind, subjectId: string): Promise<void> {
    await revokeSessions(this.ds, kind, subjectId, this.clock.now());
  }

  private async verify(
    token: string,
    key: KeyObject,
    audience: string,
  ): Promise<{ sub: string; jti?: string; fam?: string; sid?: string } | null> {
    try {
      // Only HS256 is accepted: a token with alg "none" or any other algorithm fails here.
      return await this.jwt.verifyAsync(token, {
        secret: asSecret(key),
        audience,
        issuer: ISSUER,
        algorithms: [ALGORITHM],
        clockTimestamp: Math.floor(this.clock.now().getTime() / 1000),
      });
    } catch {
      return null;
    }
  }
}

/**
 * Revokes every refresh token of a subject, in the caller's transaction when given one (the admin CLI's), except
 * those of the session `keep` (the one asking, when it ends the others).
 */
export async function revokeSessions(
  db: SqlRunner,
  kind: ActorKind,
  subjectId: string,
  now: Date,
  keep: string | null = null,
): Promise<void> {
  await sqlExec(
    db,
    `UPDATE refresh_tokens SET revoked_at = $3
      WHERE subject_kind = $1 AND subject_id = $2 AND revoked_at IS NULL AND family_id IS DISTINCT FROM $4`,
    [kind, subjectId, now, keep],
  );
}

/** @nestjs/jwt types the secret as string | Buffer; jsonwebtoken, which receives it, takes a KeyObject too. */
function asSecret(key: KeyObject): string {
  return key as unknown as string;
}
