import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small router on node:http for the provider sandbox. Handlers see the raw body bytes and the raw request target,
 * because both providers sign exactly what went over the wire.
 */
export interface SandboxRequest {
  readonly method: string;
  /** Request target exactly as received (path and query), e.g. for WeChat's signature message. */
  readonly target: string;
  readonly url: URL;
  readonly params: Record<string, string>;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
}

export type Handler = (req: SandboxRequest, res: ServerResponse) => Promise<void> | void;

interface Route {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: Handler;
}

const MAX_BODY = 1024 * 1024;

export class Router {
  private readonly routes: Route[] = [];

  /** `path` may hold `:name` segments; they match one URL segment each. */
  on(method: string, path: string, handler: Handler): this {
    const keys: string[] = [];
    const source = path.replace(/\/:([a-zA-Z_]+)/g, (_m, key: string) => {
      keys.push(key);
      return '/([^/]+)';
    });
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), keys, handler });
    return this;
  }

  async handle(req: SandboxRequest, res: ServerResponse): Promise<boolean> {
    let pathMatched = false;
    for (const route of this.routes) {
      const m = route.pattern.exec(req.url.pathname);
      if (!m) continue;
      pathMatched = true;
      if (route.method !== req.method) continue;
      route.keys.forEach((key, i) => (req.params[key] = decodeURIComponent(m[i + 1])));
      await route.handler(req, res);
      return true;
    }
    if (pathMatched) {
      sendJson(res, 405, { code: 'METHOD_NOT_ALLOWED', message: `${req.method} is not allowed here` });
      return true;
    }
    return false;
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(text);
}

export function sendText(res: ServerResponse, status: number, text: string, type = 'text/plain'): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  res.end(text);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location });
  res.end();
}

/** Parses a JSON request body; an empty body is {}. Throws BadRequest on anything else. */
export function jsonBody(req: SandboxRequest): Record<string, unknown> {
  if (req.rawBody.length === 0) return {};
  try {
    const value: unknown = JSON.parse(req.rawBody.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new BadRequest('the body must be a JSON object');
}

export function formBody(req: SandboxRequest): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(req.rawBody.toString('utf8')));
}

export class BadRequest extends Error {}

export interface ListeningServer {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts an HTTP server; `fallback` answers requests no router claimed and errors handlers threw. */
export async function listen(
  host: string,
  port: number,
  dispatch: (req: SandboxRequest, res: ServerResponse) => Promise<void>,
): Promise<ListeningServer> {
  const server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) incoming.destroy();
      else chunks.push(chunk);
    });
    incoming.on('end', () => {
      const target = incoming.url ?? '/';
      const req: SandboxRequest = {
        method: (incoming.method ?? 'GET').toUpperCase(),
        target,
        url: new URL(target, 'http://sandbox.invalid'),
        params: {},
        headers: incoming.headers,
        rawBody: Buffer.concat(chunks),
      };
      dispatch(req, res).catch((err: unknown) => {
        if (res.headersSent) return res.destroy();
        if (err instanceof BadRequest) sendJson(res, 400, { code: 'BAD_REQUEST', message: err.message });
        else sendJson(res, 500, { code: 'SANDBOX_ERROR', message: String((err as Error)?.message ?? err) });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function header(req: SandboxRequest, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
