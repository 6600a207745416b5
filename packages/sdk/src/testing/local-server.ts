import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Test support for the SDK's unit specs (excluded from the package build).

/** A local HTTP server answering from a script, recording what it was sent (the SDK talks real HTTP to it). */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
export type Reply = (req: Seen, res: ServerResponse) => void;

export async function serve(replies: Reply[]) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      const reply = replies[Math.min(seen.length - 1, replies.length - 1)];
      reply(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((r) => server.close(() => r()));
  return { seen, baseUrl: `http://127.0.0.1:${port}`, close };
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
export const envelope = (code: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message: code, request_id: 'req_1', ...extra },
});
