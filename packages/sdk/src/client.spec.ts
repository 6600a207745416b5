import { createHmac } from 'node:crypto';
import {
  Legwork,
  LegworkAPIError,
  LegworkConflictError,
  LegworkConnectionError,
  LegworkIdempotencyError,
  LegworkInsufficientBalanceError,
  LegworkNotFoundError,
  LegworkRateLimitError,
  LegworkSignatureVerificationError,
  verifyWebhook,
} from './index';
import { retryDelayMs, DEFAULT_RETRY } from './retry';
import { envelope, json, serve } from './testing/local-server';

const client = (baseUrl: string, maxRetries = 2) =>
  new Legwork({ apiKey: 'lw_test_x', baseUrl, maxRetries, retry: { initialDelayMs: 5, maxDelayMs: 2000 } });

const createBody = {
  title: 't',
  description: 'd',
  location: { latitude: 31.23, longitude: 121.47 },
  budget_cents: 5000,
  deadline_at: '2030-01-01T00:00:00Z',
  task_type: 'photo' as const,
};

describe('Legwork client over HTTP', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('sends the API key, and a write its Idempotency-Key, the same on every retry (503 Retry-After, 409 in progress)', async () => {
    const s = await serve([
      json(503, envelope('service_unavailable'), { 'retry-after': '0' }),
      json(409, envelope('idempotency_conflict', { in_progress: true }), { 'retry-after': '0' }),
      json(201, { task_id: 'task_1' }),
    ]);
    stop = s.close;
    const task = await client(s.baseUrl).tasks.create(createBody);
    expect(task).toEqual({ task_id: 'task_1' });
    expect(s.seen).toHaveLength(3);
    const keys = s.seen.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(1);
    expect(s.seen.every((r) => r.headers.authorization === 'Bearer lw_test_x')).toBe(true);
    expect(s.seen.every((r) => r.body === JSON.stringify(createBody))).toBe(true);
  });

  it('a caller-chosen idempotency key is used; reads carry none', async () => {
    const s = await serve([json(200, { balance_cents: 1 })]);
    stop = s.close;
    const c = client(s.baseUrl);
    await c.balance.retrieve();
    await c.sandbox.balance.fund({ amount_cents: 100 }, { idempotencyKey: 'mine-1' });
    expect(s.seen[0].headers['idempotency-key']).toBeUndefined();
    expect(s.seen[1].headers['idempotency-key']).toBe('mine-1');
  });

  it('gives up after maxRetries and throws the typed error with the envelope fields', async () => {
    const s = await serve([
      json(429, envelope('rate_limit_exceeded', { retry_after: 0 }), { 'retry-after': '0' }),
    ]);
    stop = s.close;
    const err = await client(s.baseUrl, 1)
      .tasks.get('t1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LegworkRateLimitError);
    expect(err).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      request_id: 'req_1',
      retry_after: 0,
    });
    expect(s.seen).toHaveLength(2);
  });

  it('does not retry final answers: 402, 404, a plain 409, idempotency_conflict', async () => {
    const s = await serve([
      json(402, envelope('insufficient_balance', { required_cents: 5000, balance_cents: 10 })),
      json(404, envelope('task_not_found')),
      json(409, envelope('invalid_state', { current_status: 'completed' })),
      json(409, envelope('idempotency_conflict')),
    ]);
    stop = s.close;
    const c = client(s.baseUrl);
    const e402 = await c.tasks.create(createBody).catch((e: unknown) => e);
    expect(e402).toBeInstanceOf(LegworkInsufficientBalanceError);
    expect(e402).toMatchObject({ required_cents: 5000, balance_cents: 10, code: 'insufficient_balance' });
    expect((e402 as LegworkInsufficientBalanceError).idempotency_key).toBe(
      s.seen[0].headers['idempotency-key'],
    );
    await expect(c.tasks.get('x')).rejects.toBeInstanceOf(LegworkNotFoundError);
    const e409 = await c.tasks.cancel('x').catch((e: unknown) => e);
    expect(e409).toBeInstanceOf(LegworkConflictError);
    expect(e409).toMatchObject({ current_status: 'completed' });
    await expect(c.tasks.cancel('x')).rejects.toBeInstanceOf(LegworkIdempotencyError);
    expect(s.seen).toHaveLength(4);
  });

  it('retries a dropped connection with the same key, then answers', async () => {
    const s = await serve([
      (_req, res) => res.socket?.destroy(),
      json(200, { task_id: 't', status: 'cancelled' }),
    ]);
    stop = s.close;
    await expect(client(s.baseUrl).tasks.cancel('t')).resolves.toMatchObject({ status: 'cancelled' });
    expect(s.seen).toHaveLength(2);
    expect(s.seen[0].headers['idempotency-key']).toBe(s.seen[1].headers['idempotency-key']);
  });

  it('a service that never answers becomes LegworkConnectionError; 5xx after retries LegworkAPIError', async () => {
    const s = await serve([(_req, res) => res.socket?.destroy()]);
    const err = await client(s.baseUrl, 1)
      .tasks.get('t')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LegworkConnectionError);
    expect(s.seen).toHaveLength(2);
    await s.close();
    const s2 = await serve([json(500, envelope('internal_error'), { 'retry-after': '0' })]);
    stop = s2.close;
    await expect(client(s2.baseUrl, 0).tasks.get('t')).rejects.toBeInstanceOf(LegworkAPIError);
    expect(s2.seen).toHaveLength(1);
  });

  it('iterates cursor pages with starting_after = next_cursor', async () => {
    const s = await serve([
      json(200, { data: [{ task_id: 'a' }, { task_id: 'b' }], has_more: true, next_cursor: 'b' }),
      json(200, { data: [{ task_id: 'c' }], has_more: false, next_cursor: null }),
    ]);
    stop = s.close;
    const ids: string[] = [];
    for await (const t of client(s.baseUrl).tasks.list({ limit: 2, status: 'pending' })) ids.push(t.task_id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(s.seen.map((r) => r.url)).toEqual([
      '/v1/tasks?limit=2&status=pending',
      '/v1/tasks?limit=2&status=pending&starting_after=b',
    ]);
  });
});

describe('retryDelayMs', () => {
  it('honours Retry-After in seconds or as a date, capped; else exponential backoff with jitter', () => {
    const r = (h: Record<string, string>) => new Response(null, { status: 503, headers: h });
    expect(retryDelayMs(r({ 'retry-after': '2' }), 0, DEFAULT_RETRY)).toBe(2000);
    expect(retryDelayMs(r({ 'retry-after': '3600' }), 0, DEFAULT_RETRY)).toBe(20_000);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryDelayMs(r({ 'retry-after': 'Tue, 01 Jan 2030 00:00:05 GMT' }), 0, DEFAULT_RETRY, now)).toBe(
      5000,
    );
    expect(retryDelayMs(undefined, 0, DEFAULT_RETRY, now, () => 1)).toBe(500);
    expect(retryDelayMs(undefined, 2, DEFAULT_RETRY, now, () => 0)).toBe(1000);
  });
});

describe('verifyWebhook', () => {
  const secret = 'whsec_test';
  const body = JSON.stringify({ event: 'task.completed', event_id: 'e1', data: { task_id: 't' } });
  const sign = (t: number, b = body, key = secret) =>
    `t=${t},v1=${createHmac('sha256', key).update(`${t}.${b}`).digest('hex')}`;
  const now = 1_800_000_000;

  it('accepts a fresh, correctly signed delivery and answers the event', () => {
    const event = verifyWebhook(body, { 'Legwork-Signature': sign(now) }, secret, { now });
    expect(event).toMatchObject({ event: 'task.completed', event_id: 'e1' });
    const headers = new Headers({ 'legwork-signature': sign(now - 299) });
    expect(verifyWebhook(Buffer.from(body), headers, secret, { now }).event).toBe('task.completed');
  });

  it.each([
    [
      'a tampered body',
      () => verifyWebhook(body.replace('t"', 'u"'), { 'legwork-signature': sign(now) }, secret, { now }),
    ],
    [
      'another secret',
      () => verifyWebhook(body, { 'legwork-signature': sign(now, body, 'other') }, secret, { now }),
    ],
    [
      'an old timestamp',
      () => verifyWebhook(body, { 'legwork-signature': sign(now - 301) }, secret, { now }),
    ],
    [
      'a re-dated signature',
      () =>
        verifyWebhook(body, { 'legwork-signature': sign(now - 400).replace(/^t=\d+/, `t=${now}`) }, secret, {
          now,
        }),
    ],
    ['no header', () => verifyWebhook(body, {}, secret, { now })],
    ['a malformed header', () => verifyWebhook(body, { 'legwork-signature': 'v1=abc' }, secret, { now })],
  ])('refuses %s', (_name, run) => {
    expect(run).toThrow(LegworkSignatureVerificationError);
  });
});
