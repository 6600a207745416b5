import { Pool } from 'pg';

/**
 * pg-boss's connections, owned here so that stopping it never strands a query or a job.
 *
 * Two gaps in pg-boss's own stop are closed here:
 * - pg-boss ends its pool as soon as no job is running. A worker whose poll is then still waiting for a free
 *   connection waits for ever (pg-pool serves no queued request once `end()` is called), never reports stopped, and
 *   pg-boss's stop loop keeps polling for it for the life of the process.
 * - A poll in flight when stop is called still returns its jobs, and the worker runs them; and a job's completion is
 *   written after its handler without being awaited (pg-boss 10's manager). Ending the pool in between turns that
 *   write into an unhandled rejection, and leaves the job to expire and run again.
 *
 * So `close` waits until no query and no job handler (see `runJob`) is running, across a turn of the event loop (a
 * returned poll starts its handlers, a finished handler starts its completion, each within microtasks), and only
 * then refuses new queries and ends the pool. It waits at most `closeTimeoutMs` for that quiet.
 */
export class BossDb {
  private readonly pool: Pool;
  private closing: Promise<void> | null = null;
  private ended = false;
  private queries = 0;
  private jobs = 0;
  private quiet: (() => void) | null = null;

  constructor(
    connectionString: string,
    onError: (err: Error) => void,
    private readonly closeTimeoutMs = 15_000,
  ) {
    // Three connections: the workers poll one at a time, each for a millisecond or so.
    this.pool = new Pool({ connectionString, max: 3, application_name: 'legwork-jobs' });
    this.pool.on('error', onError);
  }

  async executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.ended) throw new Error('the job runner is stopping');
    this.queries++;
    try {
      return await this.pool.query(text, values);
    } finally {
      this.queries--;
      this.signal();
    }
  }

  /** Runs a job's handler, counted so that `close` waits for it and for the completion pg-boss writes after it. */
  async runJob<T>(handler: () => Promise<T>): Promise<T> {
    this.jobs++;
    try {
      return await handler();
    } finally {
      this.jobs--;
      this.signal();
    }
  }

  /** Waits for running queries and jobs (and what they start), then closes every connection. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const deadline = Date.now() + this.closeTimeoutMs;
      while (Date.now() < deadline) {
        if (this.busy) {
          const left = deadline - Date.now();
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            this.quiet = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.quiet = null;
          continue;
        }
        // Quiet now: still quiet after the microtasks and I/O callbacks of one more turn?
        await new Promise((resolve) => setImmediate(resolve));
        if (!this.busy) break;
      }
      this.ended = true;
      await this.pool.end();
    })();
    return this.closing;
  }

  /** Connections open and queries waiting for one, for tests. */
  get counts(): { open: number; waiting: number } {
    return { open: this.pool.totalCount, waiting: this.pool.waitingCount };
  }

  private get busy(): boolean {
    return this.queries > 0 || this.jobs > 0;
  }

  private signal(): void {
    if (!this.busy) this.quiet?.();
  }
}
