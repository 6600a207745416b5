import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { OutboxEvent } from '../event-catalog';

/** Work another module does when events are published, inside the publishing transaction. */
export type OutboxSubscriber = (em: EntityManager, events: readonly OutboxEvent[]) => Promise<void>;

/**
 * In-process consumers of the outbox, for modules above events that must react to what happened without the
 * module that caused it knowing them (the sandbox's simulated workers react to offers made by task dispatch). A
 * subscriber runs in the transaction that marks the events published, so what it writes commits exactly when the
 * events count as published: once per event, never lost between the two. It must be quick and must not fail on an
 * event it does not care about; an error rolls the batch back, to be published again.
 */
@Injectable()
export class OutboxSubscribers {
  private readonly subscribers: OutboxSubscriber[] = [];

  register(subscriber: OutboxSubscriber): void {
    this.subscribers.push(subscriber);
  }

  async notify(em: EntityManager, events: readonly OutboxEvent[]): Promise<void> {
    for (const subscriber of this.subscribers) await subscriber(em, events);
  }
}
