import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Server } from 'socket.io';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Logger } from '../../common/logging/logger';
import { JOBS_DATA_SOURCE } from '../../database/data-source';
import type { OutboxEvent } from '../event-catalog';
import { recordOfferDelivery } from '../offer-deliveries';

/**
 * Records the `socket` delivery of each offer the fan-out emitted (offer-deliveries.ts): `sent` when at least one of
 * the worker's sockets was connected, on any instance, right after the emit (fetchSockets on the worker's room goes
 * through the Redis adapter to every instance), `no_connection` when none was. The check runs beside the publisher,
 * never in its way: a slow instance delays only this record, not the next events. A check that fails (an instance
 * that did not answer in time) records nothing rather than a guess, and says so in the log.
 */
@Injectable()
export class SocketOfferDeliveries implements BeforeApplicationShutdown {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    @InjectDataSource(JOBS_DATA_SOURCE) private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** After `events` were emitted on `server`: records the socket delivery of the offers among them. */
  track(server: Server, events: readonly OutboxEvent[]): void {
    const offers = events.filter((e) => e.name === 'assignment.offered' && e.worker_id);
    if (offers.length === 0) return;
    const work: Promise<void> = this.record(server, offers)
      .catch((err: unknown) => this.logger.error({ err }, 'recording socket deliveries of offers failed'))
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  /** Lets the records in flight finish before the connection pools close. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  private async record(server: Server, offers: OutboxEvent[]): Promise<void> {
    const at = this.clock.now();
    const workers = [...new Set(offers.map((e) => e.worker_id!))];
    const checks = await Promise.allSettled(
      workers.map(async (w) => (await server.in(`worker:${w}`).fetchSockets()).length > 0),
    );
    const connected = new Map(workers.map((w, i) => [w, checks[i]]));
    for (const e of offers) {
      const check = connected.get(e.worker_id!)!;
      if (check.status === 'rejected') {
        this.logger.warn(
          { err: check.reason as unknown, assignment_id: e.data.assignment_id },
          'could not tell whether an offer reached a socket; no socket delivery recorded',
        );
        continue;
      }
      await recordOfferDelivery(this.ds, {
        assignmentId: String(e.data.assignment_id),
        channel: 'socket',
        status: check.value ? 'sent' : 'no_connection',
        at,
      });
    }
  }
}
