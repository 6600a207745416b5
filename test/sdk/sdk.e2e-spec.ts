import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Legwork,
  LegworkConflictError,
  LegworkInsufficientBalanceError,
  LegworkSignatureVerificationError,
  type WebhookEvent,
} from '@legwork/sdk';
import { type NotificationReceiver, startNotificationReceiver } from '../contract/notification-receiver';
import { AGENT_PASSWORD, registerAgent, uniqueEmail } from '../support/agents';
import { agentBalance } from '../support/balances';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';
import { poll } from '../simulation/simulation-helpers';

/**
 * A pass-through HTTP proxy in front of the real server that answers the first request to each path in `failOnce`
 * with 503 and Retry-After: 1 without forwarding it, as an overloaded load balancer would. It records every request
 * it saw, so the test can check what the SDK sent on each attempt.
 */
async function startFlakyProxy(target: string, failOnce: Set<string>) {
  const seen: { method: string; path: string; headers: IncomingHttpHeaders; forwarded: boolean }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const fail = failOnce.delete(`${req.method} ${path}`);
      seen.push({ method: req.method ?? '', path, headers: req.headers, forwarded: !fail });
      if (fail) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(
          JSON.stringify({
            error: { code: 'service_unavailable', message: 'try again', request_id: 'proxy' },
          }),
        );
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          ([k, v]) => typeof v === 'string' && !['host', 'connection'].includes(k),
        ),
      ) as Record<string, string>;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      fetch(`${target}${path}`, { method: req.method, headers, body })
        .then(async (upstream) => {
          const out = Buffer.from(await upstream.arrayBuffer());
          const copy: Record<string, string> = {};
          upstream.headers.forEach((v, k) => {
            if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(k))
              copy[k] = v;
          });
          res.writeHead(upstream.status, copy);
          res.end(out);
        })
        .catch((err: unknown) => {
          res.writeHead(502);
          res.end(String(err));
        });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

interface Delivery {
  event?: WebhookEvent;
  refused?: string;
}

/**
 * The SDK end to end, as an agent builder uses it: the real app listening on a port (real PostgreSQL, jobs and the
 * provider sandbox in process), a local webhook receiver that verifies deliveries with the SDK, and every call
 * through @legwork/sdk (the first test registers outside it, as an operator would hand out a key; the second
 * registers with Legwork.register).
 */
describe('@legwork/sdk against the real service', () => {
  let rig: PaymentRig;
  let proxy: Awaited<ReturnType<typeof startFlakyProxy>>;
  let receiver: NotificationReceiver<Delivery>;
  let webhookSecret = '';
  let legwork: Legwork;
  const uploadDir = mkdtempSync(join(tmpdir(), 'legwork-sdk-uploads-'));
  const failOnce = new Set<string>();

  beforeAll(async () => {
    rig = await startPaymentRig({ JOBS_IN_PROCESS: 'true', UPLOAD_DIR: uploadDir });
    proxy = await startFlakyProxy(rig.baseUrl, failOnce);
    receiver = await startNotificationReceiver<Delivery>((req) => {
      try {
        const event = legwork.webhooks.verify(req.rawBody, req.headers, webhookSecret);
        return { status: 200, body: 'ok', outcome: { event } };
      } catch (err) {
        return { status: 400, body: 'bad signature', outcome: { refused: String(err) } };
      }
    });
  });
  afterAll(async () => {
    await receiver.close();
    await proxy.close();
    await rig.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('funds, adds a reliable simulated worker, creates a task, verifies its webhooks, reviews the result', async () => {
    const agent = await registerAgent(rig.t);
    legwork = new Legwork({ apiKey: agent.apiKey, baseUrl: proxy.url, retry: { initialDelayMs: 50 } });
    const at = { latitude: 31.2304, longitude: 121.4737 };
    const body = {
      title: 'Photograph the storefront',
      description: 'One photo of the shop front with its opening hours.',
      location: { ...at, max_distance_meters: 2000 },
      budget_cents: 5000,
      deadline_at: new Date(Date.now() + 2 * 3_600_000).toISOString(),
      task_type: 'photo' as const,
    };

    // A typed error: nothing funded yet, so creation is 402 with the envelope's fields on the error.
    const short = await legwork.tasks.create(body).catch((e: unknown) => e);
    expect(short).toBeInstanceOf(LegworkInsufficientBalanceError);
    expect(short).toMatchObject({
      status: 402,
      code: 'insufficient_balance',
      required_cents: 5000,
      balance_cents: 0,
      request_id: expect.stringMatching(/.+/),
    });

    // Funding through a proxy that answers the first attempt 503 + Retry-After: the SDK waits, retries with the
    // same Idempotency-Key, and the balance is credited once.
    failOnce.add('POST /v1/sandbox/balance');
    const funded = await legwork.sandbox.balance.fund({ amount_cents: 100_000 });
    expect(funded.balance_cents).toBe(100_000);
    const fundCalls = proxy.seen.filter((s) => s.path === '/v1/sandbox/balance');
    expect(fundCalls.map((s) => s.forwarded)).toEqual([false, true]);
    expect(fundCalls[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(fundCalls[1].headers['idempotency-key']).toBe(fundCalls[0].headers['idempotency-key']);
    expect((await legwork.balance.retrieve()).balance_cents).toBe(100_000);
    expect(await agentBalance(rig.t, agent.id)).toBe(100_000);

    // Webhook endpoint managed with the API key (webhook:manage).
    const hook = await legwork.webhooks.create({
      url: `${receiver.url}/legwork`,
      events: ['task.assigned', 'task.started', 'task.submitted', 'task.completed'],
    });
    webhookSecret = hook.secret;

    const quote = await legwork.tasks.quote(body);
    expect(quote).toMatchObject({ can_create: true, total_to_hold_cents: 5000 });

    const task = await legwork.tasks.create(body);
    expect(task.status).toBe('pending');
    const worker = await legwork.sandbox.workers.create({
      name: 'Reliable Li',
      persona: 'reliable',
      near_task: { task_id: task.task_id, distance_m: 50 },
    });
    expect(worker.persona).toBe('reliable');

    const submitted = await poll(
      async () => {
        const t = await legwork.tasks.get(task.task_id);
        return t.status === 'submitted' ? t : undefined;
      },
      'the simulated worker to submit',
      30_000,
      1000,
    );
    const [assignment] = submitted.assignments;
    expect(assignment).toMatchObject({ worker_id: worker.worker_id, status: 'submitted' });

    const review = await legwork.tasks.review(task.task_id, {
      accept_result: true,
      rating: 5,
      quality_score: 4.5,
    });
    expect(review).toMatchObject({ status: 'completed' });
    const result = await legwork.tasks.result(task.task_id);
    expect(result.status).toBe('completed');
    expect(result.results).toHaveLength(1);
    expect(result.results[0]).toMatchObject({ assignment_id: assignment.assignment_id });

    // Another typed error: a completed task cannot be cancelled (409 invalid_state, current_status on the error).
    const late = await legwork.tasks.cancel(task.task_id).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(LegworkConflictError);
    expect(late).toMatchObject({ code: 'invalid_state', current_status: 'completed' });

    // Every delivery verified with the SDK; the lifecycle arrived (webhooks promise delivery, not order).
    await receiver.waitFor((r) => r.some((x) => x.outcome?.event?.event === 'task.completed'), 15_000);
    expect(receiver.received.filter((r) => r.outcome?.refused)).toEqual([]);
    const names = receiver.received
      .map((r) => r.outcome?.event)
      .filter((e): e is WebhookEvent => e !== undefined && 'task_id' in e && e.task_id === task.task_id)
      .map((e) => e.event)
      .sort();
    expect(names).toEqual(['task.assigned', 'task.completed', 'task.started', 'task.submitted']);

    // A tampered body, another secret, or a captured delivery replayed after the tolerance are refused.
    const real = receiver.received[0];
    const signedAt = Number(/t=(\d+)/.exec(String(real.headers['legwork-signature']))![1]);
    expect(legwork.webhooks.verify(real.rawBody, real.headers, webhookSecret).event).toBeDefined();
    const tampered = Buffer.from(real.rawBody.toString('utf8').replace('"task.', '"tusk.'));
    expect(() => legwork.webhooks.verify(tampered, real.headers, webhookSecret)).toThrow(
      LegworkSignatureVerificationError,
    );
    expect(() => legwork.webhooks.verify(real.rawBody, real.headers, 'whsec_other')).toThrow(
      LegworkSignatureVerificationError,
    );
    expect(() =>
      legwork.webhooks.verify(real.rawBody, real.headers, webhookSecret, { now: signedAt + 301 }),
    ).toThrow(LegworkSignatureVerificationError);

    // The event list, page by page (2 a page) through async iteration, holds what the webhooks carried.
    const listed: string[] = [];
    for await (const e of legwork.events.list({ limit: 2 })) {
      if ('task_id' in e && e.task_id === task.task_id) listed.push(e.event);
    }
    expect(listed).toEqual(expect.arrayContaining(names));
    const pages = proxy.seen.filter((s) => s.path.startsWith('/v1/agent/events'));
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[1].path).toContain('starting_after=');

    // The money: 5000 held and paid out, nothing else moved.
    expect((await legwork.balance.retrieve()).balance_cents).toBe(95_000);
  });
  it('registers with Legwork.register, and each answer tells how it went: a replayed write says so', async () => {
    const reg = await Legwork.register(
      { email: uniqueEmail('sdk'), password: AGENT_PASSWORD },
      { baseUrl: rig.baseUrl },
    );
    expect(reg.api_key).toMatch(/^lw_test_/);
    expect(reg.lastResponse).toMatchObject({
      status: 201,
      idempotencyKey: undefined,
      idempotentReplayed: false,
    });
    expect(reg.lastResponse.requestId).toMatch(/.+/);
    const client = new Legwork({ apiKey: reg.api_key, baseUrl: rig.baseUrl });

    // The same write twice under one key: the API runs it once and answers the second from its store.
    const first = await client.sandbox.balance.fund({ amount_cents: 5000 }, { idempotencyKey: 'fund-once' });
    const again = await client.sandbox.balance.fund({ amount_cents: 5000 }, { idempotencyKey: 'fund-once' });
    expect(first.lastResponse).toMatchObject({ idempotentReplayed: false, idempotencyKey: 'fund-once' });
    expect(again.lastResponse).toMatchObject({
      status: first.lastResponse.status,
      idempotentReplayed: true,
      idempotencyKey: 'fund-once',
    });
    expect(again).toEqual(first);
    expect(again.lastResponse.requestId).not.toBe(first.lastResponse.requestId);
    expect(await agentBalance(rig.t, reg.agent_id)).toBe(5000);

    // A read carries no key; an answer without a body (204) is an empty object that still carries its status.
    const me = await client.account.retrieve();
    expect([me.agent_id, me.lastResponse.status, me.lastResponse.idempotencyKey]).toEqual([
      reg.agent_id,
      200,
      undefined,
    ]);
    const hook = await client.webhooks.create({ url: `${receiver.url}/other`, events: ['task.completed'] });
    const removed = await client.webhooks.remove(hook.webhook_id);
    expect([removed, removed.lastResponse.status]).toEqual([{}, 204]);
  });
});
