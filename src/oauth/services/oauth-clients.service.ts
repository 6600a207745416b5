import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { randomBase62, safeEqual, sha256Hex } from '../../common/crypto';
import { sqlExec, sqlRows } from '../../database/sql';
import { OAuthError } from '../oauth-error';
import type { ClientAuthMethod, OAuthClientRow } from '../oauth.rows';
import { ClientMetadataDocuments, isMetadataDocumentId, isRedirectUri } from './client-metadata-documents';

/** A registered client that has not been granted anything by then is deleted (product-decisions §21). */
const UNUSED_CLIENT_TTL_MS = 24 * 3600 * 1000;
const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_post', 'client_secret_basic'];

/** RFC 7591 §3.2.1's answer. */
export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
  client_id_issued_at: number;
  client_secret_expires_at?: number;
  client_name?: string;
  client_uri?: string;
  redirect_uris: string[];
  token_endpoint_auth_method: ClientAuthMethod;
  grant_types: string[];
  response_types: string[];
}

/** How the token and revocation endpoints saw the client authenticate. */
export interface ClientCredentials {
  clientId: string | null;
  secret: string | null;
  via: ClientAuthMethod;
}

/**
 * OAuth clients: dynamic registration (RFC 7591, public route rate-limited per IP) and Client ID Metadata
 * Documents, looked up by client_id for the authorization and token endpoints. A registered client's secret (for
 * the client_secret methods) is shown once and stored as its SHA-256 hash; it is compared in constant time.
 */
@Injectable()
export class OAuthClients {
  constructor(
    private readonly ds: DataSource,
    private readonly documents: ClientMetadataDocuments,
    private readonly clock: Clock,
  ) {}

  async register(body: Record<string, unknown>): Promise<RegisteredClient> {
    const uris = body.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10 || !uris.every(isRedirectUri)) {
      throw new OAuthError(
        'invalid_redirect_uri',
        'redirect_uris must list 1 to 10 absolute URLs without fragments',
      );
    }
    const method = (body.token_endpoint_auth_method ?? 'none') as ClientAuthMethod;
    if (!AUTH_METHODS.includes(method)) {
      throw new OAuthError(
        'invalid_client_metadata',
        `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`,
      );
    }
    const grantTypes = body.grant_types ?? ['authorization_code', 'refresh_token'];
    if (
      !Array.isArray(grantTypes) ||
      grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')
    ) {
      throw new OAuthError(
        'invalid_client_metadata',
        'grant_types may list authorization_code and refresh_token only',
      );
    }
    const responseTypes = body.response_types ?? ['code'];
    if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== 'code')) {
      throw new OAuthError('invalid_client_metadata', 'response_types may list code only');
    }
    const name = optionalText(body.client_name, 'client_name', 200);
    const clientUri = optionalText(body.client_uri, 'client_uri', 2048);
    const now = this.clock.now();
    const clientId = `lwc_${randomBase62(32)}`;
    const secret = method === 'none' ? null : `lwcs_${randomBase62(43)}`;
    // Registration is open, so clients nobody ever approved are cleared as new ones come.
    await sqlExec(this.ds, `DELETE FROM oauth_clients WHERE expires_at < $1`, [now]);
    await sqlExec(
      this.ds,
      `INSERT INTO oauth_clients (client_id, kind, client_name, client_uri, redirect_uris, token_endpoint_auth_method,
                                  secret_hash, created_at, expires_at)
       VALUES ($1, 'registered', $2, $3, $4, $5, $6, $7, $8)`,
      [
        clientId,
        name,
        clientUri,
        uris,
        method,
        secret && sha256Hex(secret),
        now,
        new Date(now.getTime() + UNUSED_CLIENT_TTL_MS),
      ],
    );
    return {
      client_id: clientId,
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      ...(name ? { client_name: name } : {}),
      ...(clientUri ? { client_uri: clientUri } : {}),
      redirect_uris: uris,
      token_endpoint_auth_method: method,
      grant_types: grantTypes as string[],
      response_types: ['code'],
    };
  }

  /**
   * The client an authorization request names: a registered one (unexpired), or one known by its metadata
   * document, fetched now and recorded (its row is refreshed at each authorization, so a changed document counts).
   */
  async forAuthorization(clientId: string): Promise<OAuthClientRow> {
    if (isMetadataDocumentId(clientId)) {
      const doc = await this.documents.fetch(clientId);
      const [row] = await sqlRows<OAuthClientRow>(
        this.ds,
        `INSERT INTO oauth_clients (client_id, kind, client_name, client_uri, redirect_uris, token_endpoint_auth_method,
                                    created_at)
         VALUES ($1, 'metadata_document', $2, $3, $4, 'none', $5)
         ON CONFLICT (client_id) DO UPDATE
           SET client_name = EXCLUDED.client_name, client_uri = EXCLUDED.client_uri,
               redirect_uris = EXCLUDED.redirect_uris
         WHERE oauth_clients.kind = 'metadata_document'
         RETURNING *`,
        [clientId, doc.client_name, doc.client_uri, doc.redirect_uris, this.clock.now()],
      );
      if (!row) throw new OAuthError('invalid_client', 'client_id is not known');
      return row;
    }
    const client = await this.find(clientId);
    if (!client)
      throw new OAuthError('invalid_client', 'client_id is not known (or it expired unused: register again)');
    return client;
  }

  /** RFC 6749 §2.3: the client of a token or revocation request, authenticated as it registered. */
  async authenticate(creds: ClientCredentials): Promise<OAuthClientRow> {
    const client = creds.clientId ? await this.find(creds.clientId) : undefined;
    const ok =
      client &&
      (client.token_endpoint_auth_method === 'none'
        ? creds.secret === null
        : creds.via === client.token_endpoint_auth_method &&
          creds.secret !== null &&
          safeEqual(sha256Hex(creds.secret), client.secret_hash ?? ''));
    if (!client || !ok) throw new OAuthError('invalid_client', 'client authentication failed', 401);
    return client;
  }

  private async find(clientId: string): Promise<OAuthClientRow | undefined> {
    const [row] = await sqlRows<OAuthClientRow>(
      this.ds,
      `SELECT * FROM oauth_clients WHERE client_id = $1 AND (expires_at IS NULL OR expires_at > $2)`,
      [clientId, this.clock.now()],
    );
    return row;
  }
}

function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) {
    throw new OAuthError('invalid_client_metadata', `${field} must be a string of at most ${max} characters`);
  }
  return value;
}
