import { Pool } from 'pg';

/**
 * pg-boss's connections, owned here so that stopping it never strands a query.
 *
 * pg-boss ends its own pool as soon as no job is running. A worker whose poll is then still waiting for a free
 * connection waits for ever: pg-pool serves no queued request once `end()` is called. That worker never reports
 * stopped, and pg-boss's stop loop keeps polling for it (every second, for the life of the process). Here `close`
 * refuses new queries, lets every started one finish (a queued poll gets its connection and returns, so its worker
 * stops), and only then ends the pool.
 */
export class BossDb {
  private readonly pool: Pool;
  private closed: Promise<void> | null = null;
  private running = 0;
  private drained: (() => void) | null = null;

  constructor(connectionString: string, onError: (err: Error) => void) {
    // Three connections: the workers poll one at a time, each for a millisecond or so.
    this.pool = new Pool({ connectionString, max: 3, application_name: 'legwork-jobs' });
    this.pool.on('error', onError);
  }

  async executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.closed) throw new Error('the job runner is stopping');
    this.running++;
    try {
      return await this.pool.query(text, values);
    } finally {
      this.running--;
      if (this.running === 0) this.drained?.();
    }
  }

  /** Waits for the queries already started (queued ones included), then closes every connection. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      if (this.running > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      await this.pool.end();
    })();
    return this.closed;
  }

  /** Connections open and queries waiting for one, for tests. */
  get counts(): { open: number; waiting: number } {
    return { open: this.pool.totalCount, waiting: this.pool.waitingCount };
  }
}
