import { Inject, Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { classifyAddress } from '../../events/url-safety/ip-address';
import { type ResolvedAddress, UnsafeDestinationError, UrlSafety } from '../../events/url-safety/url-safety';
import { OAuthError } from '../oauth-error';

/** The draft's advice: a client metadata document is small; anything larger is refused. */
const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;

/** What this server keeps of a Client ID Metadata Document. */
export interface ClientMetadataDocument {
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  redirect_uris: string[];
}

/** Whether a client_id is a URL (a Client ID Metadata Document) rather than an id this server registered. */
export function isMetadataDocumentId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP authorization spec's preferred
 * way for a client unknown to the server): the client_id is an https URL whose JSON document names the client and
 * its redirect URIs. It is fetched through the webhook SSRF guard (UrlSafety: public addresses only in live mode,
 * the connection pinned to the checked addresses, so a DNS rebind between check and connect cannot reach inside).
 * A plain-http client_id is accepted only in sandbox mode and only on a loopback address (a developer's own
 * machine); live mode takes https only.
 */
@Injectable()
export class ClientMetadataDocuments {
  private readonly sandbox: boolean;

  constructor(
    private readonly safety: UrlSafety,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.sandbox = config.paymentMode === 'sandbox';
  }

  async fetch(clientId: string): Promise<ClientMetadataDocument> {
    const url = this.checkUrl(clientId);
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.safety.destination(url);
    } catch (err) {
      if (err instanceof UnsafeDestinationError) throw invalidClient(`client_id ${err.message}`);
      throw err;
    }
    if (url.protocol === 'http:' && !addresses.every((a) => classifyAddress(a.address) === 'loopback')) {
      throw invalidClient('an http client_id is accepted only on a loopback address (sandbox mode)');
    }
    const body = await download(url, addresses);
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch {
      throw invalidClient('the client metadata document is not JSON');
    }
    return parseDocument(doc, clientId);
  }

  /** The draft's rules for the URL itself: https, a path, no fragment, credentials or dot segments. */
  private checkUrl(clientId: string): URL {
    let url: URL;
    try {
      url = this.safety.parse(clientId);
    } catch (err) {
      if (err instanceof UnsafeDestinationError) throw invalidClient(`client_id ${err.message}`);
      throw err;
    }
    if (url.protocol !== 'https:' && !(this.sandbox && url.protocol === 'http:')) {
      throw invalidClient('a client_id URL must use https');
    }
    if (url.pathname === '/' || /(^|\/)\.\.?(\/|$)/.test(clientId.replace(/^[a-z]+:\/\/[^/]+/i, ''))) {
      throw invalidClient('a client_id URL must have a path without dot segments');
    }
    if (clientId.includes('#')) throw invalidClient('a client_id URL must not have a fragment');
    return url;
  }
}

function parseDocument(doc: unknown, clientId: string): ClientMetadataDocument {
  if (typeof doc !== 'object' || doc === null)
    throw invalidClient('the client metadata document is not an object');
  const d = doc as Record<string, unknown>;
  if (d.client_id !== clientId) throw invalidClient("the document's client_id is not its own URL");
  const uris = d.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10 || !uris.every(isRedirectUri)) {
    throw invalidClient('the document must list its redirect_uris (absolute URLs, at most 10)');
  }
  const method = d.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    throw invalidClient(
      'a client known by its metadata document is a public client (token_endpoint_auth_method none)',
    );
  }
  return {
    client_id: clientId,
    client_name: typeof d.client_name === 'string' ? d.client_name.slice(0, 200) : null,
    client_uri: typeof d.client_uri === 'string' ? d.client_uri.slice(0, 2048) : null,
    redirect_uris: uris,
  };
}

/** An absolute URL without a fragment (RFC 6749 §3.1.2), at most 2048 characters. */
export function isRedirectUri(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048 || value.includes('#')) return false;
  try {
    const url = new URL(value);
    return url.protocol !== 'javascript:' && url.protocol !== 'data:';
  } catch {
    return false;
  }
}

/** GET with the connection pinned to the checked addresses, a deadline and a size cap; no redirects followed. */
function download(url: URL, addresses: ResolvedAddress[]): Promise<string> {
  const lookup: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
    } else callback(null, addresses[0].address, addresses[0].family);
  };
  const get = url.protocol === 'https:' ? https.get : http.get;
  return new Promise((resolve, reject) => {
    const req = get(
      url,
      { lookup, timeout: FETCH_TIMEOUT_MS, headers: { accept: 'application/json' }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(invalidClient(`the client metadata document answered HTTP ${res.statusCode ?? 0}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_DOCUMENT_BYTES) {
            req.destroy();
            reject(invalidClient('the client metadata document is larger than 5 KB'));
          } else chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', () => reject(invalidClient('the client metadata document could not be read')));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => reject(invalidClient('the client metadata document could not be fetched')));
  });
}

function invalidClient(description: string): OAuthError {
  return new OAuthError('invalid_client', description);
}
