import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from '../support/process';
import { createAgent, createWorker } from '../support/actors';
import { alignToMinuteStart } from '../support/agents';
import { createTestApp, TestApp } from '../support/app';
import { taskBody } from '../support/tasks';

/** A redis-server of this test's own on a free port (never the machine's shared one), without persistence. */
class OwnRedis {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    // A fresh client per attempt: an ioredis client whose first connect failed refuses later connect() calls, so
    // reusing one would never see a server that was merely slow to start (as on a loaded machine).
    const deadline = Date.now() + 20_000;
    for (;;) {
      const probe = new Redis(this.url, {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch {
        if (Date.now() > deadline) throw new Error('redis-server did not start');
        await new Promise((r) => setTimeout(r, 100));
      } finally {
        probe.disconnect();
      }
    }
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  async keys(pattern: string): Promise<string[]> {
    const c = new Redis(this.url, { maxRetriesPerRequest: 1 });
    try {
      return await c.keys(pattern);
    } finally {
      c.disconnect();
    }
  }
}

/**
 * Redis stopped under a running instance: the API keeps serving every kind of request, and rate limits degrade to
 * per-instance counting (product-decisions §1 and §9: Redis carries shared counters; an instance without it counts in its own
 * memory rather than refusing traffic). When Redis comes back, counting returns to it.
 */
describe('fault: Redis stopped', () => {
  let t: TestApp;
  let redis: OwnRedis;

  beforeAll(async () => {
    redis = new OwnRedis(await freePort());
    await redis.start();
    t = await createTestApp({ REDIS_URL: redis.url, JOBS_IN_PROCESS: 'false' });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.kill();
  });

  it('keeps serving with per-instance rate limits while Redis is down, and shares counters again after', async () => {
    alignToMinuteStart(t.clock);
    const agent = await createAgent(t, { balanceCents: 1_000_000, rateLimitPerMinute: 5 });
    const worker = await createWorker(t);

    // Redis up: counters live in Redis.
    const first = await t.http.get('/v1/tasks').set('Authorization', agent.key).expect(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('4');
    expect(await redis.keys(`legwork:rl:agent:${agent.id}:*`)).not.toHaveLength(0);

    await redis.kill();

    // Redis down: reads, money-moving writes and worker requests all still work, with rate-limit headers.
    const list = await t.http.get('/v1/tasks').set('Authorization', agent.key);
    expect(list.status).toBe(200);
    expect(list.headers['x-ratelimit-limit']).toBe('5');
    const created = await t.http.post('/v1/tasks/create').set('Authorization', agent.key).send(taskBody(t));
    expect(created.status).toBe(201);
    await t.http.get('/v1/worker/tasks/available').set('Authorization', worker.bearer).expect(200);
    await t.http.get('/health').expect(200);

    // The limit still holds, counted by this instance alone: 5 a minute, then 429 with Retry-After.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await t.http.get('/v1/tasks').set('Authorization', agent.key);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body.error.code).toBe('rate_limit_exceeded');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);

    // Redis back (empty, as after a restart): the instance reconnects and counts there again.
    await redis.start();
    t.clock.advance(60_000);
    let shared: string[] = [];
    for (let i = 0; i < 100 && shared.length === 0; i++) {
      await t.http.get('/v1/tasks').set('Authorization', agent.key);
      shared = await redis.keys(`legwork:rl:agent:${agent.id}:*`);
      if (shared.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(shared).not.toHaveLength(0);
  }, 60_000);
});
