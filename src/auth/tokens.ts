import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectDataSource } from '@nestjs/typeorm';
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
}

/** The kind (from the audience) and subject of a verified access token, or invalid_token once it expired at `now`. */
export function accessSubject(claims: AccessClaims, now: Date): { kind: ActorKind; subjectId: string } {
  const kind = (Object.keys(AUDIENCE) as ActorKind[]).find((k) => AUDIENCE[k] === claims.aud);
  const alive = typeof claims.exp === 'number' && Math.floor(now.getTime() / 1000) < claims.exp;
  if (!kind || !alive) throw invalidAccessToken();
  return { kind, subjectId: claims.sub };
}

export function invalidAccessToken(): ApiError {
  return new ApiError('invalid_token', 'The access token is invalid or expired.');
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
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.accessKey = createSecretKey(Buffer.from(config.jwt.accessSecret));
    this.refreshKey = createSecretKey(Buffer.from(config.jwt.refreshSecret));
  }

  async issuePair(kind: ActorKind, subjectId: string, familyId: string = randomUUID()): Promise<TokenPair> {
    const { accessTtlSeconds, refreshTtlSeconds } = this.config.jwt;
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const jti = randomUUID();
    const access = await this.jwt.signAsync(
      { sub: subjectId, iat: now, exp: now + accessTtlSeconds },
      {
        secret: asSecret(this.accessKey),
        audience: AUDIENCE[kind],
        issuer: ISSUER,
        algorithm: ALGORITHM,
        jwtid: randomUUID(),
      },
    );
    const refresh = await this.jwt.signAsync(
      { sub: subjectId, fam: familyId, iat: now, exp: now + refreshTtlSeconds },
      {
        secret: asSecret(this.refreshKey),
        audience: REFRESH_AUDIENCE(kind),
        issuer: ISSUER,
        algorithm: ALGORITHM,
        jwtid: jti,
      },
    );
    await sqlExec(
      this.ds,
      `INSERT INTO refresh_tokens (id, family_id, subject_kind, subject_id, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [jti, familyId, kind, subjectId, sha256Hex(refresh), new Date((now + refreshTtlSeconds) * 1000)],
    );
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: accessTtlSeconds,
    };
  }

  /**
   * Verifies an access token given outside an HTTP request (a socket's handshake; on HTTP, JwtStrategy does it with
   * the same rules); returns the kind and subject, or throws invalid_token.
   */
  async verifyAccess(token: string): Promise<{ kind: ActorKind; subjectId: string }> {
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
   * issues a new pair in the same family. A token already used, revoked or expired revokes its family.
   */
  async rotate(kind: ActorKind, refreshToken: string): Promise<{ subjectId: string; pair: TokenPair }> {
    const payload = await this.verify(refreshToken, this.refreshKey, REFRESH_AUDIENCE(kind));
    if (!payload?.jti || !payload.fam)
      throw new ApiError('invalid_token', 'The refresh token is invalid or expired.');
    const now = this.clock.now();
    // A family with any revoked token is dead: a concurrent reuse may revoke the family before the winner's new
    // token row exists, and that new token must still be refused.
    const used = await sqlRows<Pick<RefreshTokenRow, 'id'>>(
      this.ds,
      `UPDATE refresh_tokens SET used_at = $3
        WHERE id = $1 AND token_hash = $2 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > $3
          AND NOT EXISTS (SELECT 1 FROM refresh_tokens f WHERE f.family_id = $4 AND f.revoked_at IS NOT NULL)
        RETURNING id`,
      [payload.jti, sha256Hex(refreshToken), now, payload.fam],
    );
    if (used.length === 0) {
      await this.revokeFamily(payload.fam);
      throw new ApiError(
        'invalid_token',
        'The refresh token was already used or revoked; this session has been ended. Log in again.',
      );
    }
    return { subjectId: payload.sub, pair: await this.issuePair(kind, payload.sub, payload.fam) };
  }

  /**
   * Logout: ends the session (the family) of a refresh token, so neither it nor any later token of the session
   * refreshes again (401 invalid_token). Only a token this service signed for `kind` is accepted; a session already
   * ended is not an error, so a repeated logout answers alike.
   */
  async revoke(kind: ActorKind, refreshToken: string): Promise<void> {
    const payload = await this.verify(refreshToken, this.refreshKey, REFRESH_AUDIENCE(kind));
    if (!payload?.jti || !payload.fam)
      throw new ApiError('invalid_token', 'The refresh token is invalid or expired.');
    await this.revokeFamily(payload.fam);
  }

  async revokeFamily(familyId: string): Promise<void> {
    await sqlExec(
      this.ds,
      `UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`,
      [familyId, this.clock.now()],
    );
  }

  /** Ends every session of a subject (for example after a password reset). */
  async revokeAllFor(kind: ActorKind, subjectId: string): Promise<void> {
    await revokeSessions(this.ds, kind, subjectId, this.clock.now());
  }

  private async verify(
    token: string,
    key: KeyObject,
    audience: string,
  ): Promise<{ sub: string; jti?: string; fam?: string } | null> {
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

/** Revokes every refresh token of a subject, in the caller's transaction when given one (the admin CLI's). */
export async function revokeSessions(
  db: SqlRunner,
  kind: ActorKind,
  subjectId: string,
  now: Date,
): Promise<void> {
  await sqlExec(
    db,
    `UPDATE refresh_tokens SET revoked_at = $3 WHERE subject_kind = $1 AND subject_id = $2 AND revoked_at IS NULL`,
    [kind, subjectId, now],
  );
}

/** @nestjs/jwt types the secret as string | Buffer; jsonwebtoken, which receives it, takes a KeyObject too. */
function asSecret(key: KeyObject): string {
  return key as unknown as string;
}
