import { Client } from 'pg';
import type { Logger } from '../../common/logging/logger';

export const EVENTS_CHANNEL = 'legwork_events';
export const DELIVERIES_CHANNEL = 'legwork_deliveries';

/**
 * A dedicated PostgreSQL connection LISTENing for the outbox triggers (NOTIFY is sent when a transaction that
 * inserted events or deliveries commits). It reconnects with backoff when the connection drops; notifications
 * missed meanwhile are caught by the runner's polling.
 */
export class OutboxListener {
  private client: Client | null = null;
  private stopped = false;
  private retryMs = 500;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly onNotify: (channel: string) => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: 'legwork-outbox-listener',
    });
    client.on('notification', (msg) => this.onNotify(msg.channel));
    client.on('error', (err) => {
      this.logger.warn({ err }, 'outbox listener connection lost; polling until it is back');
      this.reconnect(client);
    });
    client.on('end', () => this.reconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${DELIVERIES_CHANNEL}`);
      this.client = client;
      this.retryMs = 500;
      if (this.stopped) await this.stop();
    } catch (err) {
      this.logger.warn({ err }, 'outbox listener could not connect; polling until it can');
      this.reconnect(client);
    }
  }

  private reconnect(client: Client): void {
    if (this.stopped || this.timer) return;
    if (this.client === client) this.client = null;
    client.end().catch(() => undefined);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, this.retryMs);
    this.timer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
  }
}
