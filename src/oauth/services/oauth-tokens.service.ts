import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { GrantTokens } from '../../auth/grant-tokens';
import { Clock } from '../../common/clock';
import { randomBase62, safeEqual, sha256Hex } from '../../common/crypto';
import { sqlExec, sqlRows, type SqlRunner } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { OAuthError } from '../oauth-error';
import type { OAuthClientRow, OAuthCodeRow } from '../oauth.rows';
import { type ClientCredentials, OAuthClients } from './oauth-clients.service';

/** A refresh token lives 30 days from its issue; each use rotates it. */
const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** RFC 6749 §5.1's answer. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

interface FamilyGrant {
  grant_id: string;
  agent_id: string;
  client_id: string;
  permissions: string[];
}

/**
 * The token endpoint (authorization code with PKCE S256; rotating refresh tokens) and revocation (RFC 7009).
 * Refresh tokens form a family per code exchange (a session); each is used once, by a conditional update, and one
 * presented again, or after its family or grant was revoked, revokes the whole family: a stolen token stops working
 * as soon as either party uses it twice.
 */
@Injectable()
export class OAuthTokens {
  constructor(
    private readonly ds: DataSource,
    private readonly clients: OAuthClients,
    private readonly tokens: GrantTokens,
    private readonly clock: Clock,
  ) {}

  async token(body: Record<string, unknown>, creds: ClientCredentials): Promise<TokenResponse> {
    const grantType = body.grant_type;
    if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
      throw new OAuthError(
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token',
      );
    }
    const client = await this.clients.authenticate(creds);
    const resource = body.resource;
    if (resource !== undefined && resource !== this.tokens.resource) {
      throw new OAuthError('invalid_target', `resource must be ${this.tokens.resource}`);
    }
    return grantType === 'authorization_code' ? this.exchangeCode(client, body) : this.refresh(client, body);
  }

  private async exchangeCode(client: OAuthClientRow, body: Record<string, unknown>): Promise<TokenResponse> {
    const code = text(body, 'code');
    const verifier = text(body, 'code_verifier');
    if (!PKCE_VERIFIER.test(verifier)) throw new OAuthError('invalid_request', 'code_verifier is malformed');
    const hash = sha256Hex(code);
    const issued = await inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      // Taken once by a conditional update: two concurrent exchanges of one code cannot both pass.
      const [row] = await sqlRows<OAuthCodeRow>(
        em,
        `WITH used AS (UPDATE oauth_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL RETURNING *)
         SELECT u.grant_id, u.client_id, u.redirect_uri, u.code_challenge, u.expires_at, u.used_at,
                g.agent_id, g.permissions, g.revoked_at IS NOT NULL AS grant_revoked
           FROM used u JOIN oauth_grants g ON g.id = u.grant_id`,
        [hash, now],
      );
      if (!row) return null;
      if (row.client_id !== client.client_id) throw invalidGrant('the code was issued to another client');
      if (row.expires_at <= now) throw invalidGrant('the code expired');
      if (row.grant_revoked) throw invalidGrant('the grant was revoked');
      const redirectUri = body.redirect_uri;
      if (redirectUri !== undefined && redirectUri !== row.redirect_uri) {
        throw invalidGrant('redirect_uri differs from the authorization request');
      }
      const computed = createHash('sha256').update(verifier).digest('base64url');
      if (!safeEqual(computed, row.code_challenge)) throw invalidGrant('code_verifier does not match (PKCE)');
      return this.issue(em, { ...row, client_id: client.client_id }, randomUUID(), now);
    });
    if (issued) return issued;
    const [used] = await sqlRows<{ grant_id: string }>(
      this.ds,
      `SELECT grant_id FROM oauth_codes WHERE code_hash = $1`,
      [hash],
    );
    if (!used) throw invalidGrant('the code is unknown');
    // RFC 6749 §4.1.2: a code presented twice was intercepted; the grant it made and its tokens are revoked.
    await this.revokeGrantTokens(this.ds, used.grant_id, this.clock.now());
    throw invalidGrant('the code was already used; the grant it made is revoked');
  }

  private async refresh(client: OAuthClientRow, body: Record<string, unknown>): Promise<TokenResponse> {
    const presented = text(body, 'refresh_token');
    const hash = sha256Hex(presented);
    const [known] = await sqlRows<{ family_id: string; client_id: string }>(
      this.ds,
      `SELECT r.family_id, g.client_id FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id
        WHERE r.token_hash = $1`,
      [hash],
    );
    if (!known) throw invalidGrant('the refresh token is unknown');
    if (known.client_id !== client.client_id)
      throw invalidGrant('the refresh token was issued to another client');
    const scope = body.scope;
    const issued = await inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      // A family with any revoked token is dead, so a concurrent reuse that revoked it first also refuses the
      // winner's rotation.
      const [row] = await sqlRows<FamilyGrant>(
        em,
        `UPDATE oauth_refresh_tokens r SET used_at = $2 FROM oauth_grants g
          WHERE r.token_hash = $1 AND g.id = r.grant_id AND r.used_at IS NULL AND r.revoked_at IS NULL
            AND r.expires_at > $2 AND g.revoked_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM oauth_refresh_tokens f WHERE f.family_id = r.family_id AND f.revoked_at IS NOT NULL)
          RETURNING g.id AS grant_id, g.agent_id, g.client_id, g.permissions`,
        [hash, now],
      );
      if (!row) return null;
      if (typeof scope === 'string' && scope.split(' ').some((s) => s && !row.permissions.includes(s))) {
        throw new OAuthError('invalid_scope', 'a refresh cannot widen the scope the person granted');
      }
      return this.issue(em, row, known.family_id, now);
    });
    if (issued) return issued;
    // Reuse (or a token of a revoked session or grant): the whole family is revoked, committed before answering.
    await this.revokeFamily(this.ds, known.family_id, this.clock.now());
    throw invalidGrant(
      'the refresh token was already used or revoked; this session is revoked: sign in again',
    );
  }

  private async issue(
    em: SqlRunner,
    grant: FamilyGrant,
    familyId: string,
    now: Date,
  ): Promise<TokenResponse> {
    const refresh = `lwr_${randomBase62(43)}`;
    await sqlExec(
      em,
      `INSERT INTO oauth_refresh_tokens (id, family_id, grant_id, token_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        randomUUID(),
        familyId,
        grant.grant_id,
        sha256Hex(refresh),
        now,
        new Date(now.getTime() + REFRESH_TTL_MS),
      ],
    );
    await sqlExec(em, `UPDATE oauth_grants SET last_used_at = $2 WHERE id = $1`, [grant.grant_id, now]);
    const access = await this.tokens.signAccess({
      agentId: grant.agent_id,
      grantId: grant.grant_id,
      familyId,
      clientId: grant.client_id,
      permissions: grant.permissions,
    });
    return {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: access.expiresIn,
      refresh_token: refresh,
      scope: grant.permissions.join(' '),
    };
  }

  /**
   * RFC 7009: revokes the session (refresh family) of a refresh or access token the client holds, so its access
   * tokens stop working at /mcp at once too. An unknown token, or one of another client, changes nothing and is
   * answered alike (§2.2).
   */
  async revoke(body: Record<string, unknown>, creds: ClientCredentials): Promise<void> {
    const client = await this.clients.authenticate(creds);
    const token = text(body, 'token');
    const now = this.clock.now();
    const [refresh] = await sqlRows<{ family_id: string; client_id: string }>(
      this.ds,
      `SELECT r.family_id, g.client_id FROM oauth_refresh_tokens r JOIN oauth_grants g ON g.id = r.grant_id
        WHERE r.token_hash = $1`,
      [sha256Hex(token)],
    );
    const access = refresh ? null : await this.tokens.readAccess(token);
    const family = refresh ?? (access && { family_id: access.familyId, client_id: access.clientId });
    if (family && family.client_id === client.client_id)
      await this.revokeFamily(this.ds, family.family_id, now);
  }

  private async revokeFamily(db: SqlRunner, familyId: string, now: Date): Promise<void> {
    await sqlExec(
      db,
      `UPDATE oauth_refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL`,
      [familyId, now],
    );
  }

  private async revokeGrantTokens(db: SqlRunner, grantId: string, now: Date): Promise<void> {
    await sqlExec(
      db,
      `UPDATE oauth_refresh_tokens SET revoked_at = $2 WHERE grant_id = $1 AND revoked_at IS NULL`,
      [grantId, now],
    );
    await sqlExec(db, `UPDATE oauth_grants SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [
      grantId,
      now,
    ]);
  }
}

function text(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== 'string' || v.length === 0 || v.length > 4096) {
    throw new OAuthError('invalid_request', `${name} is required`);
  }
  return v;
}

function invalidGrant(description: string): OAuthError {
  return new OAuthError('invalid_grant', description);
}
