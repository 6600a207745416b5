import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Server } from 'socket.io';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { JOBS_DATA_SOURCE } from '../../database/data-source';
import { isWorkerMoneyEvent, type OutboxEvent } from '../event-catalog';
import { recordOfferDelivery } from '../offer-deliveries';
import { recordSocketNotices } from '../worker-notification-deliveries';

/**
 * Records the `socket` rung of the ladder for what the fan-out emitted to workers: each offer (offer-deliveries.ts)
 * and each money event that made a worker notification (worker-notification-deliveries.ts). `sent` when at least
 * one of the worker's sockets was connected, on any instance, right after the emit (fetchSockets on the worker's
 * room goes through the Redis adapter to every instance), `no_connection` when none was. The check runs beside the
 * publisher, never in its way: a slow instance delays only this record, not the next events. A check that fails (an
 * instance that did not answer in time) records nothing rather than a guess, and says so in the log.
 */
@Injectable()
export class SocketDeliveries implements BeforeApplicationShutdown {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @InjectDataSource(JOBS_DATA_SOURCE) private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** After `events` were emitted on `server`: records the socket delivery of the offers and money events among them. */
  track(server: Server, events: readonly OutboxEvent[]): void {
    const tracked = events.filter(
      (e) => e.worker_id && (e.name === 'assignment.offered' || isWorkerMoneyEvent(e.name)),
    );
    if (tracked.length === 0) return;
    const work: Promise<void> = this.record(server, tracked)
      .catch((err: unknown) => this.logger.error({ err }, 'recording socket deliveries failed'))
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  /** Lets the records in flight finish before the connection pools close. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async record(server: Server, events: OutboxEvent[]): Promise<void> {
    const at = this.clock.now();
    const workers = [...new Set(events.map((e) => e.worker_id!))];
    const checks = await Promise.allSettled(
      workers.map(async (w) => (await server.in(`worker:${w}`).fetchSockets()).length > 0),
    );
    const connected = new Map(workers.map((w, i) => [w, checks[i]]));
    const notices: Record<'sent' | 'no_connection', string[]> = { sent: [], no_connection: [] };
    for (const e of events) {
      const check = connected.get(e.worker_id!)!;
      if (check.status === 'rejected') {
        this.logger.warn(
          { err: check.reason as unknown, event_id: e.id, event: e.name },
          'could not tell whether an event reached a socket; no socket delivery recorded',
        );
        continue;
      }
      const status = check.value ? 'sent' : 'no_connection';
      if (e.name !== 'assignment.offered') {
        notices[status].push(e.id);
        continue;
      }
      await recordOfferDelivery(this.ds, {
        assignmentId: String(e.data.assignment_id),
        channel: 'socket',
        status,
        at,
      });
    }
    for (const status of ['sent', 'no_connection'] as const)
      if (notices[status].length > 0) await recordSocketNotices(this.ds, notices[status], status, at);
  }
}
