import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Logger } from '../../common/logging/logger';
import { NotificationListener } from '../../database/notification-listener';
import { WebhookDelivery } from './webhook-delivery';
import { OutboxPublisher } from './outbox-publisher';

/** The channels the outbox triggers NOTIFY when a transaction that inserted events or deliveries commits. */
export const EVENTS_CHANNEL = 'legwork_events';
export const DELIVERIES_CHANNEL = 'legwork_deliveries';

/** Polling fallback: how often due retries and any missed notification are picked up. */
export const POLL_INTERVAL_MS = 1_000;

/** Runs `work` one at a time; a kick while it runs schedules exactly one more run. */
export class Serial {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.work();
        } catch (err) {
          this.onError(err);
        }
      } while (this.again);
    })().finally(() => (this.running = null));
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

/**
 * Drives the publisher and the delivery queue in this process (JOBS_IN_PROCESS=true, the default): woken by
 * LISTEN/NOTIFY as soon as events or deliveries commit (on the process's one listening connection,
 * NotificationListener), by a one-second poll for retries that fall due, and at once when listening resumes after
 * the connection was down (notifications sent meanwhile were lost). Every step is safe in several processes at once.
 */
@Injectable()
export class EventsRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private unsubscribe: (() => Promise<void>) | null = null;
  private poll: NodeJS.Timeout | null = null;
  private stopping = false;
  private readonly publishing: Serial;
  private readonly delivering: Serial;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly listener: NotificationListener,
    private readonly publisher: OutboxPublisher,
    private readonly deliveries: WebhookDelivery,
    private readonly logger: Logger,
  ) {
    const onError = (what: string) => (err: unknown) =>
      this.logger.error({ err }, `events runner: ${what} failed`);
    this.publishing = new Serial(async () => {
      if ((await this.publisher.drain()) > 0) this.delivering.kick();
    }, onError('publishing'));
    this.delivering = new Serial(() => this.deliveries.drain(() => !this.stopping), onError('delivery'));
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runJobsInProcess) return;
    const wake: Record<string, Serial> = {
      [EVENTS_CHANNEL]: this.publishing,
      [DELIVERIES_CHANNEL]: this.delivering,
    };
    this.unsubscribe = await this.listener.subscribe({
      channels: Object.keys(wake),
      notify: (channel) => wake[channel]?.kick(),
      up: () => this.kick(),
    });
    this.poll = setInterval(() => this.kick(), POLL_INTERVAL_MS);
    this.poll.unref();
    this.kick();
  }

  /** Whether this process publishes and delivers (JOBS_IN_PROCESS, or a job-runner process). */
  get running(): boolean {
    return this.unsubscribe !== null;
  }

  kick(): void {
    this.publishing.kick();
    this.delivering.kick();
  }

  /**
   * Stops before the connection pool closes: claims no more deliveries, and lets the ones in flight (each bounded by
   * the 5-second send timeout) record their results.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.poll) clearInterval(this.poll);
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    await unsubscribe?.();
    await Promise.all([this.publishing.idle(), this.delivering.idle()]);
  }
}
