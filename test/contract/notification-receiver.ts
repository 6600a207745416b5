import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../support/waiters';

/**
 * A real HTTP endpoint on loopback that receives provider notifications in tests. Each request is recorded with its
 * raw body and headers, and answered by `respond` (which typically verifies it with a provider and returns the
 * provider's acknowledgement).
 */
export interface ReceivedRequest<R = unknown> {
  /** 1-based arrival number. */
  readonly n: number;
  readonly at: number;
  readonly path: string;
  readonly rawBody: Buffer;
  readonly headers: IncomingHttpHeaders;
  /** What `respond` decided about it (for example a verification result). */
  outcome?: R;
  /** A label `respond` gave it (for example the order id it is about). */
  tag?: string;
}

export interface ReceiverAnswer<R> {
  readonly status: number;
  readonly contentType?: string;
  readonly body: string;
  readonly outcome?: R;
  readonly tag?: string;
}

export interface NotificationReceiver<R> {
  readonly url: string;
  readonly received: ReceivedRequest<R>[];
  /** Resolves once `predicate` holds for the received list; rejects after `timeoutMs`. */
  waitFor(
    predicate: (received: ReceivedRequest<R>[]) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedRequest<R>[]>;
  close(): Promise<void>;
}

export async function startNotificationReceiver<R>(
  respond: (request: ReceivedRequest<R>) => Promise<ReceiverAnswer<R>> | ReceiverAnswer<R>,
): Promise<NotificationReceiver<R>> {
  const received: ReceivedRequest<R>[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: ReceivedRequest<R> = {
        n: received.length + 1,
        at: Date.now(),
        path: req.url ?? '/',
        rawBody: Buffer.concat(chunks),
        headers: req.headers,
      };
      received.push(request);
      Promise.resolve(respond(request))
        .then((answer) => {
          request.outcome = answer.outcome;
          request.tag = answer.tag;
          res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'text/plain' });
          res.end(answer.body);
        })
        .catch((err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async waitFor(predicate, timeoutMs) {
      await waitFor(() => predicate(received), "the notification receiver's condition", timeoutMs);
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
