import { Inject, Injectable } from '@nestjs/common';
import { hkdfSync, randomUUID } from 'node:crypto';
import { decodeProtectedHeader, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Clock } from '../common/clock';
import { ApiError } from '../common/errors/api-error';
import { type AgentActor, PERMISSIONS, type Permission } from '../common/actor';
import { sqlRows } from '../database/sql';
import type { GrantAccessRow } from './auth.rows';
import { UsageTracker } from './usage-tracker';

/** RFC 9068's media type for OAuth access tokens: the `typ` that tells one from any other JWT. */
const ACCESS_TYP = 'at+jwt';
/** The internal agent token's own type, so it can never pass as an OAuth access token or a login JWT. */
const AGENT_TYP = 'legwork-grant+jwt';
const AGENT_AUDIENCE = 'legwork:agent:grant';
/** OAuth access tokens are short-lived: a stolen one is useful for minutes, and revocation is checked anyway. */
export const OAUTH_ACCESS_TTL_SECONDS = 600;
/** Long enough for one /mcp request's tool calls (wait_for_task holds up to 50 s); checked live on every use. */
const AGENT_TOKEN_TTL_SECONDS = 300;

/** What an OAuth access token or internal agent token names: the grant, its session (refresh family). */
export interface GrantTokenSubject {
  agentId: string;
  grantId: string;
  familyId: string;
}

/** An agent authenticated by one of a grant's tokens. */
export type GrantActor = AgentActor & { grantId: string; familyId: string };

export function isGrantActor(actor: AgentActor): actor is GrantActor {
  return typeof actor.grantId === 'string' && typeof (actor as Partial<GrantActor>).familyId === 'string';
}

interface GrantClaims extends JWTPayload {
  gid?: unknown;
  fam?: unknown;
  client_id?: unknown;
  scope?: unknown;
}

/**
 * The two tokens of an OAuth grant (product-decisions §21), signed and verified with jose (HS256, keys derived from
 * the access-token secret with HKDF under their own labels, so neither key ever verifies a console JWT):
 *
 * - the OAuth access token an MCP host presents at /mcp: RFC 9068 shape, issuer = the service origin, audience =
 *   `<origin>/mcp`, typ `at+jwt`; accepted by routes that list the `oauth` scheme (only /mcp);
 * - the internal agent token /mcp mints for the tools' API calls: the grant's permissions, never the OAuth token
 *   (no pass-through). It authenticates like an API key (scheme api_key, key_id null, grant_id set).
 *
 * Both are checked against the database on every use: a revoked grant, a revoked session (refresh family) or a
 * disabled account refuses them at once, whatever their expiry says.
 */
@Injectable()
export class GrantTokens {
  private readonly accessKey: Uint8Array;
  private readonly agentKey: Uint8Array;
  readonly issuer: string;
  readonly resource: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly ds: DataSource,
    private readonly usage: UsageTracker,
    private readonly clock: Clock,
  ) {
    const derive = (label: string): Uint8Array =>
      new Uint8Array(hkdfSync('sha256', config.jwt.accessSecret, 'legwork', label, 32));
    this.accessKey = derive('oauth access token');
    this.agentKey = derive('oauth grant agent token');
    this.issuer = config.publicBaseUrl;
    this.resource = `${config.publicBaseUrl}/mcp`;
  }

  async signAccess(
    subject: GrantTokenSubject & { clientId: string; permissions: readonly string[] },
  ): Promise<{ token: string; expiresIn: number }> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const token = await new SignJWT({
      gid: subject.grantId,
      fam: subject.familyId,
      client_id: subject.clientId,
      scope: subject.permissions.join(' '),
    })
      .setProtectedHeader({ alg: 'HS256', typ: ACCESS_TYP })
      .setIssuer(this.issuer)
      .setAudience(this.resource)
      .setSubject(subject.agentId)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(now + OAUTH_ACCESS_TTL_SECONDS)
      .sign(this.accessKey);
    return { token, expiresIn: OAUTH_ACCESS_TTL_SECONDS };
  }

  /** The internal agent token for an actor authenticated by an OAuth access token (at /mcp). */
  async signAgentToken(actor: GrantActor): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ gid: actor.grantId, fam: actor.familyId })
      .setProtectedHeader({ alg: 'HS256', typ: AGENT_TYP })
      .setIssuer(this.issuer)
      .setAudience(AGENT_AUDIENCE)
      .setSubject(actor.id)
      .setIssuedAt(now)
      .setExpirationTime(now + AGENT_TOKEN_TTL_SECONDS)
      .sign(this.agentKey);
  }

  /**
   * An OAuth access token's grant, session and client when this server signed it for its resource (expired or not:
   * revocation takes expired tokens too), else null. For the revocation endpoint (RFC 7009).
   */
  async readAccess(token: string): Promise<(GrantTokenSubject & { clientId: string }) | null> {
    try {
      const { payload } = await jwtVerify<GrantClaims>(token, this.accessKey, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        audience: this.resource,
        typ: ACCESS_TYP,
        currentDate: new Date(0),
      });
      const { gid, fam, client_id: clientId, sub } = payload;
      if (typeof gid !== 'string' || typeof fam !== 'string' || typeof clientId !== 'string' || !sub)
        return null;
      return { agentId: sub, grantId: gid, familyId: fam, clientId };
    } catch {
      return null;
    }
  }

  /**
   * The actor of a bearer token when it is one of the grant's tokens (false when it is not: passport then tries the
   * next strategy); invalid_token when it is one but is bad, expired, for another resource or revoked.
   */
  async authenticate(token: string): Promise<GrantActor | false> {
    let typ: unknown;
    try {
      typ = decodeProtectedHeader(token).typ;
    } catch {
      return false;
    }
    if (typ === ACCESS_TYP) return this.actor(await this.verify(token, this.accessKey, ACCESS_TYP), 'oauth');
    if (typ === AGENT_TYP) return this.actor(await this.verify(token, this.agentKey, AGENT_TYP), 'api_key');
    return false;
  }

  private async verify(token: string, key: Uint8Array, typ: string): Promise<GrantTokenSubject> {
    let payload: GrantClaims;
    try {
      // Only HS256 with this key, this issuer and this audience: a token for another resource is refused here.
      ({ payload } = await jwtVerify<GrantClaims>(token, key, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        audience: typ === ACCESS_TYP ? this.resource : AGENT_AUDIENCE,
        typ,
        currentDate: this.clock.now(),
        requiredClaims: ['exp', 'sub'],
      }));
    } catch {
      throw refused();
    }
    if (typeof payload.gid !== 'string' || typeof payload.fam !== 'string' || !payload.sub) throw refused();
    return { agentId: payload.sub, grantId: payload.gid, familyId: payload.fam };
  }

  private async actor(subject: GrantTokenSubject, scheme: 'oauth' | 'api_key'): Promise<GrantActor> {
    // One indexed read per request, never cached: revoking a grant or a session must refuse its tokens at once,
    // on every instance.
    const [row] = await sqlRows<GrantAccessRow>(
      this.ds,
      `SELECT g.permissions, a.account_status, a.rate_limit_per_minute, a.rate_limit_per_day,
              (g.revoked_at IS NULL AND NOT EXISTS (
                 SELECT 1 FROM oauth_refresh_tokens r WHERE r.family_id = $3 AND r.revoked_at IS NOT NULL)) AS live
         FROM oauth_grants g JOIN agents a ON a.id = g.agent_id
        WHERE g.id = $1 AND g.agent_id = $2`,
      [subject.grantId, subject.agentId, subject.familyId],
    );
    if (!row || !row.live)
      throw new ApiError('invalid_token', 'This OAuth grant was revoked: sign in again.');
    if (row.account_status !== 'active') {
      throw new ApiError('account_disabled', 'This account is suspended or closed.');
    }
    this.usage.record(subject.agentId, null);
    return {
      kind: 'agent',
      id: subject.agentId,
      scheme,
      keyId: null,
      grantId: subject.grantId,
      familyId: subject.familyId,
      permissions: row.permissions.filter((p): p is Permission =>
        (PERMISSIONS as readonly string[]).includes(p),
      ),
      limits: { perMinute: row.rate_limit_per_minute, perDay: row.rate_limit_per_day },
    };
  }
}

function refused(): ApiError {
  return new ApiError('invalid_token', 'The OAuth token is invalid, expired or not for this resource.');
}
