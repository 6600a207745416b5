import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sqlExec } from '../database/sql';
import { RedisBus } from '../events/gateway/redis-bus';
import { Drain } from './drain';

/** How long one dependency check may take before it counts as down: a probe must answer within its own timeout. */
export const CHECK_TIMEOUT_MS = 2_000;

export type DependencyState = 'up' | 'down';

export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  database: DependencyState;
  redis: DependencyState | 'not_configured';
}

/**
 * Whether this process should receive work (product-decisions §15): not draining, the database answers `SELECT 1` on a pool
 * connection, and Redis (when REDIS_URL is set) answers PING. Used by the API's GET /readyz and by the job runner's
 * health listener. Liveness is deliberately not here: a process whose database is down is alive and must not be
 * restarted for it.
 */
@Injectable()
export class Readiness {
  constructor(
    private readonly ds: DataSource,
    private readonly redis: RedisBus,
    private readonly drain: Drain,
  ) {}

  async check(): Promise<ReadinessReport> {
    const [database, redis] = await Promise.all([
      succeeds(sqlExec(this.ds, 'SELECT 1')),
      this.redis.pub ? succeeds(this.redis.pub.ping()) : Promise.resolve('not_configured' as const),
    ]);
    const draining = this.drain.draining;
    return { ready: !draining && database === 'up' && redis !== 'down', draining, database, redis };
  }
}

/** 'up' if the promise settles successfully within CHECK_TIMEOUT_MS. */
async function succeeds(work: Promise<unknown>): Promise<DependencyState> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DependencyState>((resolve) => {
    timer = setTimeout(() => resolve('down'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work.then(() => 'up' as const), timeout]);
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}
