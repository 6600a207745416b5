import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  OAuthClientMetadata,
  OAuthDiscoveryState,
  OAuthClientProvider,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/**
 * The app's side of an OAuth sign-in for the tests: a loopback HTTP server that is the redirect URI (it records each
 * callback's query) and can serve a Client ID Metadata Document, and an OAuthClientProvider for the official MCP
 * client that keeps everything in memory and hands the authorization URL to the test (which drives a browser).
 */
export interface CallbackServer {
  origin: string;
  redirectUri: string;
  /** The next callback's query parameters. */
  next(): Promise<URLSearchParams>;
  /** Serves `doc` as JSON at `path` (a Client ID Metadata Document). */
  serve(path: string, doc: unknown): void;
  close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const waiting: ((q: URLSearchParams) => void)[] = [];
  const arrived: URLSearchParams[] = [];
  const documents = new Map<string, unknown>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/callback') {
      const waiter = waiting.shift();
      if (waiter) waiter(url.searchParams);
      else arrived.push(url.searchParams);
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<title>Signed in</title><link rel="icon" href="data:,"><h1>You may close this tab</h1>');
      return;
    }
    const doc = documents.get(url.pathname);
    if (doc === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    redirectUri: `${origin}/callback`,
    next: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    serve: (path, doc) => documents.set(path, doc),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An in-memory OAuthClientProvider; `onAuthorize` receives the authorization URL the client would open. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  lastState = '';
  private verifier = '';
  /** The browser's work started by the last redirect, awaited by the test. */
  authorizing?: Promise<void>;

  constructor(
    private readonly redirectUri: string,
    private readonly onAuthorize: (url: URL) => Promise<void>,
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Legwork OAuth e2e',
      redirect_uris: [this.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('hex');
    return this.lastState;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.client;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.client = info;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizing = this.onAuthorize(url);
  }

  private discovery?: OAuthDiscoveryState;

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
