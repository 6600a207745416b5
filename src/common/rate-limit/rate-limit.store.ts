import Redis from 'ioredis';

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

export interface WindowHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the window ends, in epoch milliseconds. */
  resetAt: number;
}

/** Fixed-window counters. In memory for one instance; in Redis when several instances must share them. */
export interface RateLimitStore {
  hit(key: string, windowSeconds: number, nowMs: number): Promise<WindowHit>;
  close(): Promise<void>;
}

function windowOf(windowSeconds: number, nowMs: number): { start: number; resetAt: number } {
  const size = windowSeconds * 1000;
  const start = Math.floor(nowMs / size) * size;
  return { start, resetAt: start + size };
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  async hit(key: string, windowSeconds: number, nowMs: number): Promise<WindowHit> {
    const { start, resetAt } = windowOf(windowSeconds, nowMs);
    const id = `${key}:${start}`;
    const entry = this.counters.get(id) ?? { count: 0, resetAt };
    entry.count++;
    this.counters.set(id, entry);
    this.sweep(nowMs);
    return { count: entry.count, resetAt };
  }

  async close(): Promise<void> {
    this.counters.clear();
  }

  /** Drops finished windows at most once a minute, so memory stays bounded by active keys. */
  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < 60_000) return;
    this.lastSweep = nowMs;
    for (const [id, entry] of this.counters) if (entry.resetAt <= nowMs) this.counters.delete(id);
  }
}

/**
 * Shared counters for several instances. If Redis is unreachable the instance keeps serving and counts in its own
 * memory instead (limits then hold per instance, not globally): a rate limiter must not take the API down.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly fallback = new MemoryRateLimitStore();

  constructor(
    private readonly redis: Redis,
    private readonly onFallback: (err: unknown) => void = () => undefined,
  ) {}

  async hit(key: string, windowSeconds: number, nowMs: number): Promise<WindowHit> {
    const { start, resetAt } = windowOf(windowSeconds, nowMs);
    const id = `legwork:rl:${key}:${start}`;
    try {
      const result = await this.redis
        .multi()
        .incr(id)
        .pexpire(id, resetAt - nowMs + 1000)
        .exec();
      const [err, value] = result?.[0] ?? [new Error('empty reply'), 0];
      if (err) throw err;
      return { count: Number(value), resetAt };
    } catch (err) {
      this.onFallback(err);
      return this.fallback.hit(key, windowSeconds, nowMs);
    }
  }

  async close(): Promise<void> {
    // Without a connection QUIT fails and ioredis would keep reconnecting (holding the process open): disconnect.
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
