/**
 * A webhook receiver on node:http that checks every delivery's `Legwork-Signature` with the SDK before trusting it
 * (HMAC-SHA256 of `<timestamp>.<raw body>` with the endpoint's secret, at most 5 minutes old, so a captured delivery
 * cannot be replayed). It prints one JSON line per delivery and answers 200, or 400 to a delivery that fails the
 * check (Legwork retries non-2xx answers, so answer 2xx quickly and do slow work afterwards).
 *
 *   LEGWORK_API_KEY=lw_test_... PORT=9000 node dist/examples/webhook-receiver.js
 *
 * With LEGWORK_WEBHOOK_SECRET it verifies with that endpoint's secret. Without it, it registers its own endpoint
 * at PUBLIC_URL (default http://127.0.0.1:PORT/legwork) through the API key, replacing an earlier one at the same
 * URL (a secret is shown only when its endpoint is created). Sandbox mode accepts plain http and local addresses.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Legwork, LegworkSignatureVerificationError } from '@legwork/sdk';

const legwork = new Legwork(); // LEGWORK_API_KEY and LEGWORK_BASE_URL from the environment
const EVENTS = ['task.assigned', 'task.started', 'task.submitted', 'task.completed', 'task.failed'] as const;

function rawBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The endpoint's secret: given, or from registering this receiver's URL now. */
async function signingSecret(url: string): Promise<string> {
  if (process.env.LEGWORK_WEBHOOK_SECRET) return process.env.LEGWORK_WEBHOOK_SECRET;
  const { data: endpoints } = await legwork.webhooks.list();
  for (const endpoint of endpoints.filter((e) => e.url === url))
    await legwork.webhooks.remove(endpoint.webhook_id);
  const created = await legwork.webhooks.create({ url, events: [...EVENTS] });
  console.log(JSON.stringify({ registered: created.webhook_id, url, events: created.events }));
  return created.secret;
}

async function main(): Promise<void> {
  let secret = '';
  const server = createServer((req, res) => {
    rawBody(req)
      .then((body) => {
        // The body exactly as it arrived: a re-serialised JSON object would not match the signature.
        const event = legwork.webhooks.verify(body, req.headers, secret);
        const taskId = 'task_id' in event ? event.task_id : undefined;
        console.log(
          JSON.stringify({ verified: true, event: event.event, event_id: event.event_id, task_id: taskId }),
        );
        res.writeHead(200).end('ok');
      })
      .catch((err: unknown) => {
        const refused = err instanceof LegworkSignatureVerificationError;
        console.log(
          JSON.stringify({ verified: false, reason: String(err instanceof Error ? err.message : err) }),
        );
        res.writeHead(refused ? 400 : 500).end(refused ? 'bad signature' : 'error');
      });
  });
  await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 9000), '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}/legwork`;
  secret = await signingSecret(url);
  console.log(JSON.stringify({ listening: `http://127.0.0.1:${port}/legwork`, url }));
  process.once('SIGTERM', () => server.close());
  process.once('SIGINT', () => server.close());
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
