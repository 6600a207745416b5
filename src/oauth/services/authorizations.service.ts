import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { GrantTokens } from '../../auth/grant-tokens';
import { PERMISSIONS, type Permission } from '../../common/actor';
import { Clock } from '../../common/clock';
import { randomBase62, sha256Hex } from '../../common/crypto';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type {
  ConsentDecisionRequest,
  ConsentDecisionResponse,
  ConsentRequestView,
} from '../dtos/consent.dto';
import { OAuthError } from '../oauth-error';
import type { OAuthClientRow, OAuthRequestRow } from '../oauth.rows';
import { isMetadataDocumentId } from './client-metadata-documents';
import { OAuthClients } from './oauth-clients.service';

/** How long a person has to answer the consent page, and a client to exchange its code. */
const REQUEST_TTL_MS = 10 * 60 * 1000;
const CODE_TTL_MS = 60 * 1000;
/** RFC 7636 §4.1: 43 to 128 unreserved characters (a base64url SHA-256 is 43). */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Where /oauth/authorize sends the browser: the console's consent page, or back to the client with an error. */
export interface AuthorizeOutcome {
  location: string;
}

/**
 * The authorization endpoint and the consent that completes it (product-decisions §21): /oauth/authorize checks the
 * request (client, redirect URI, PKCE S256, scope, resource) and parks it for the console, which shows it to the
 * signed-in person and posts their answer with the console's JWT. An approval makes a grant (the permissions, spend
 * caps and approval ceiling chosen) and a one-time code for the client.
 */
@Injectable()
export class Authorizations {
  constructor(
    private readonly ds: DataSource,
    private readonly clients: OAuthClients,
    private readonly tokens: GrantTokens,
    private readonly clock: Clock,
  ) {}

  /**
   * RFC 6749 §4.1.1 with OAuth 2.1's rules. Until the client and its redirect URI are known good, errors are
   * answered here (never redirected to an unchecked URI); after, they go back to the client (§4.1.2.1).
   */
  async authorize(q: Record<string, unknown>): Promise<AuthorizeOutcome> {
    const clientId = single(q, 'client_id');
    if (!clientId) throw new OAuthError('invalid_request', 'client_id is required');
    const client = await this.clients.forAuthorization(clientId);
    const redirectUri = chooseRedirect(client, single(q, 'redirect_uri'));
    const state = single(q, 'state');
    const back = (error: string, description: string): AuthorizeOutcome => ({
      location: withParams(redirectUri, {
        error,
        error_description: description,
        state,
        iss: this.tokens.issuer,
      }),
    });
    if (single(q, 'response_type') !== 'code')
      return back('unsupported_response_type', 'response_type must be code');
    const challenge = single(q, 'code_challenge');
    if (!challenge || !PKCE_VALUE.test(challenge)) {
      return back('invalid_request', 'code_challenge is required (PKCE with S256)');
    }
    if (single(q, 'code_challenge_method') !== 'S256') {
      return back('invalid_request', 'code_challenge_method must be S256; plain is not supported');
    }
    const resource = single(q, 'resource');
    if (resource !== undefined && resource !== this.tokens.resource) {
      return back('invalid_target', `resource must be ${this.tokens.resource}`);
    }
    const permissions = parseScope(single(q, 'scope'));
    if (!permissions) return back('invalid_scope', `scope may name only: ${PERMISSIONS.join(' ')}`);

    const handle = randomBase62(43);
    const now = this.clock.now();
    await sqlExec(
      this.ds,
      `INSERT INTO oauth_requests (id, handle_hash, client_id, redirect_uri, state, code_challenge, permissions,
                                   created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        randomUUID(),
        sha256Hex(handle),
        client.client_id,
        redirectUri,
        state ?? null,
        challenge,
        permissions,
        now,
        new Date(now.getTime() + REQUEST_TTL_MS),
      ],
    );
    return { location: `${this.tokens.issuer}/console/oauth/consent?request=${handle}` };
  }

  /** What the consent page shows: who asks, where the browser goes back to, and what it asks for. */
  async view(handle: string): Promise<ConsentRequestView> {
    const [row] = await sqlRows<OAuthRequestRow & Pick<OAuthClientRow, 'client_name' | 'kind'>>(
      this.ds,
      `SELECT r.*, c.client_name, c.kind FROM oauth_requests r JOIN oauth_clients c USING (client_id)
        WHERE r.handle_hash = $1 AND r.decided_at IS NULL AND r.expires_at > $2`,
      [sha256Hex(handle), this.clock.now()],
    );
    if (!row) throw requestNotFound();
    return {
      client_id: row.client_id,
      client_name: row.client_name,
      client_host: clientHost(row.client_id, row.redirect_uri),
      redirect_uri: row.redirect_uri,
      verified_by: row.kind === 'metadata_document' ? 'metadata_document' : 'registration',
      permissions: row.permissions as Permission[],
      expires_at: row.expires_at.toISOString(),
    };
  }

  /**
   * The person's answer. The request is taken with one conditional update, so it is answered once however many
   * tabs post; an approval writes the grant and the code in the same transaction.
   */
  async decide(agentId: string, dto: ConsentDecisionRequest): Promise<ConsentDecisionResponse> {
    return inTransaction(this.ds, async (em) => {
      const now = this.clock.now();
      const [req] = await sqlRows<OAuthRequestRow>(
        em,
        `UPDATE oauth_requests SET decided_at = $2
          WHERE handle_hash = $1 AND decided_at IS NULL AND expires_at > $2 RETURNING *`,
        [sha256Hex(dto.request), now],
      );
      if (!req) throw requestNotFound();
      const iss = this.tokens.issuer;
      if (!dto.approve) {
        const description = 'The person declined.';
        return {
          redirect_to: withParams(req.redirect_uri, {
            error: 'access_denied',
            error_description: description,
            state: req.state ?? undefined,
            iss,
          }),
        };
      }
      const [client] = await sqlRows<OAuthClientRow>(
        em,
        `UPDATE oauth_clients SET expires_at = NULL WHERE client_id = $1 RETURNING *`,
        [req.client_id],
      );
      const permissions = PERMISSIONS.filter((p) => (dto.permissions ?? req.permissions).includes(p));
      const grantId = randomUUID();
      await sqlExec(
        em,
        `INSERT INTO oauth_grants (id, agent_id, client_id, client_name, client_host, permissions, spend_caps,
                                   ceiling_cents, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          grantId,
          agentId,
          req.client_id,
          client.client_name,
          clientHost(req.client_id, req.redirect_uri),
          permissions,
          dto.spend_caps ? JSON.stringify(dto.spend_caps) : null,
          dto.ceiling_cents ?? null,
          now,
        ],
      );
      const code = randomBase62(43);
      await sqlExec(
        em,
        `INSERT INTO oauth_codes (code_hash, grant_id, client_id, redirect_uri, code_challenge, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          sha256Hex(code),
          grantId,
          req.client_id,
          req.redirect_uri,
          req.code_challenge,
          new Date(now.getTime() + CODE_TTL_MS),
        ],
      );
      return {
        redirect_to: withParams(req.redirect_uri, { code, state: req.state ?? undefined, iss }),
        grant_id: grantId,
      };
    });
  }
}

function requestNotFound(): ApiError {
  return new ApiError(
    'oauth_request_not_found',
    'This sign-in request is unknown, expired or already answered: start again from the app.',
  );
}

/** A query parameter given once (RFC 6749 §3.1: parameters must not be repeated). */
function single(q: Record<string, unknown>, name: string): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new OAuthError('invalid_request', `${name} must be given once`);
  return v;
}

/** The registered redirect URI, matched exactly (OAuth 2.1 §4.1.1); may be left out when only one is registered. */
function chooseRedirect(client: OAuthClientRow, given: string | undefined): string {
  if (given === undefined) {
    if (client.redirect_uris.length === 1) return client.redirect_uris[0];
    throw new OAuthError('invalid_request', 'redirect_uri is required: the client registered several');
  }
  if (!client.redirect_uris.includes(given)) {
    throw new OAuthError('invalid_request', 'redirect_uri is not one the client registered');
  }
  return given;
}

/** The requested permissions (space-separated scope of permission names); all of them when none are named. */
function parseScope(scope: string | undefined): Permission[] | null {
  const names = (scope ?? '').split(' ').filter(Boolean);
  if (names.length === 0) return [...PERMISSIONS];
  if (!names.every((n) => (PERMISSIONS as readonly string[]).includes(n))) return null;
  return PERMISSIONS.filter((p) => names.includes(p));
}

/** The host a person should recognise: the metadata document's for such a client, else the redirect URI's. */
export function clientHost(clientId: string, redirectUri: string): string {
  return new URL(isMetadataDocumentId(clientId) ? clientId : redirectUri).host;
}

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}
