import { randomUUID } from 'node:crypto';
import type { Fault, FaultRegistry } from './faults';
import type { Timers } from './timers';

/**
 * Asynchronous notifications as the providers send them: POSTed to the order's notify_url, built and signed afresh
 * for every attempt, and retried on the provider's schedule (time-scaled) until the receiver acknowledges. Faults
 * armed for notifications are applied here (see faults.ts).
 */
export interface OutgoingMessage {
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface NotificationSpec {
  /** Provider event name: trade_status_sync, TRANSACTION.SUCCESS, REFUND.SUCCESS, MCHTRANSFER.BILL.FINISHED. */
  readonly event: string;
  /** Ids the notification is about (order, refund, transfer), matched by faults and shown by the test API. */
  readonly keys: readonly string[];
  readonly url: string;
  /** Builds one delivery; `faults` are the forgery faults active for this attempt. */
  build(faults: readonly Fault[]): OutgoingMessage;
}

export interface NotifierOptions {
  /** Delays before the 2nd, 3rd, ... attempt, in real-time milliseconds. */
  readonly scheduleMs: readonly number[];
  readonly timeScale: number;
  readonly deliveryTimeoutMs: number;
  isAck(status: number, body: string): boolean;
}

interface Delivery {
  attempt: number;
  copy: number;
  at: string;
  status: number | null;
  body: string;
  error: string | null;
  acknowledged: boolean;
  faults: string[];
}

export interface NotificationRecord {
  id: string;
  event: string;
  keys: readonly string[];
  url: string;
  state: 'held' | 'pending' | 'acknowledged' | 'gave_up';
  attempts: number;
  faults: string[];
  created_at: string;
  next_attempt_at: string | null;
  deliveries: Delivery[];
}

const FORGERIES = ['tampered_signature', 'wrong_amount', 'wrong_app', 'stale_timestamp', 'signtest_probe'];

export class Notifier {
  private readonly records: NotificationRecord[] = [];
  private held: Array<() => void> = [];
  private readonly abort = new AbortController();

  constructor(
    private readonly options: NotifierOptions,
    private readonly faults: FaultRegistry,
    private readonly timers: Timers,
  ) {}

  send(spec: NotificationSpec): NotificationRecord {
    const faults = this.faults.take('notification', [spec.event, ...spec.keys]);
    const record: NotificationRecord = {
      id: randomUUID(),
      event: spec.event,
      keys: spec.keys,
      url: spec.url,
      state: 'pending',
      attempts: 0,
      faults: faults.map((f) => f.kind),
      created_at: new Date().toISOString(),
      next_attempt_at: null,
      deliveries: [],
    };
    this.records.push(record);
    const hold = faults.find((f) => f.kind === 'out_of_order');
    if (!hold) {
      this.timers.after(0, () => this.attempt(spec, record, faults, 1));
      return record;
    }
    // Held back until the next notification has been delivered once (or hold_ms passed), so it arrives late.
    record.state = 'held';
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      record.state = 'pending';
      this.timers.after(0, () => this.attempt(spec, record, faults, 1));
    };
    this.held.push(release);
    this.timers.after(hold.holdMs, release);
    return record;
  }

  list(): NotificationRecord[] {
    return this.records;
  }

  stop(): void {
    this.abort.abort();
  }

  private async attempt(spec: NotificationSpec, record: NotificationRecord, faults: Fault[], n: number) {
    if (this.timers.isStopped) return;
    record.attempts = n;
    record.next_attempt_at = null;
    const active = faults.filter((f) => FORGERIES.includes(f.kind) && (f.allAttempts || n === 1));
    const duplicate = n === 1 ? faults.find((f) => f.kind === 'duplicate') : undefined;
    const copies = duplicate?.copies ?? 1;
    const concurrent = duplicate?.concurrent ?? 1;
    const deliverCopy = (copy: number) => this.deliver(spec, record, active, n, copy);
    const results = await Promise.all(Array.from({ length: concurrent }, (_, i) => deliverCopy(i + 1)));
    for (let copy = concurrent + 1; copy <= copies; copy++) results.push(await deliverCopy(copy));
    if (n === 1 && record.state !== 'held') this.releaseHeld();
    if (results.some(Boolean)) {
      record.state = 'acknowledged';
      return;
    }
    const delay = this.options.scheduleMs[n - 1];
    if (delay === undefined || this.timers.isStopped) {
      record.state = 'gave_up';
      return;
    }
    const scaled = delay * this.options.timeScale;
    record.next_attempt_at = new Date(Date.now() + scaled).toISOString();
    this.timers.after(scaled, () => this.attempt(spec, record, faults, n + 1));
  }

  private releaseHeld(): void {
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  private async deliver(
    spec: NotificationSpec,
    record: NotificationRecord,
    active: Fault[],
    attempt: number,
    copy: number,
  ): Promise<boolean> {
    const message = spec.build(active);
    const delivery: Delivery = {
      attempt,
      copy,
      at: new Date().toISOString(),
      status: null,
      body: '',
      error: null,
      acknowledged: false,
      faults: active.map((f) => f.kind),
    };
    record.deliveries.push(delivery);
    try {
      const res = await fetch(spec.url, {
        method: 'POST',
        headers: message.headers,
        body: message.body,
        redirect: 'manual',
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.options.deliveryTimeoutMs)]),
      });
      delivery.status = res.status;
      delivery.body = (await res.text()).slice(0, 500);
      delivery.acknowledged = this.options.isAck(res.status, delivery.body);
    } catch (err) {
      delivery.error = (err as Error).message;
    }
    return delivery.acknowledged;
  }
}
