import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorker } from './actors';
import type { TestApp } from './app';

/** Makes the app listen on a free local port (held uploads need a real socket) and returns its base URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
}

export interface Answer {
  status: number;
  body: { error?: Record<string, unknown> } & Record<string, unknown>;
}

/** Held requests still open: a failing test must not leave them holding the server open. */
const open = new Set<ReturnType<typeof httpRequest>>();

/** Cuts every held upload still open (afterAll): a failing test must not leave the server waiting on them. */
export function closeHeldUploads(): void {
  for (const req of open) req.destroy();
}

/**
 * An upload whose body is sent in two steps over a real socket: the first half now, the rest on finish(). While it
 * waits the server holds the upload open, exactly like a slow mobile client.
 */
export function heldUpload(base: string, worker: TestWorker, file: Buffer) {
  const boundary = `held${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.pdf"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = httpRequest(`${base}/v1/upload/task-proof`, {
    method: 'POST',
    headers: {
      authorization: worker.bearer,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + file.length + tail.length,
    },
  });
  const answer = new Promise<Answer>((ok, fail) => {
    req.on('error', fail);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        ok({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') }),
      );
    });
  });
  const half = Math.floor(file.length / 2);
  open.add(req);
  void answer.finally(() => open.delete(req)).catch(() => undefined);
  req.write(head);
  req.write(file.subarray(0, half));
  return {
    answer,
    finish: (): Promise<Answer> => {
      req.end(Buffer.concat([file.subarray(half), tail]));
      return answer;
    },
  };
}

/** Polls until `cond` holds (an event this test cannot be told about), failing with `what` after a while. */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never happened: ${what}`);
}
