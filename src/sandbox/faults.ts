import { randomUUID } from 'node:crypto';
import { BadRequest } from './http';

/**
 * Faults armed through the test API and consumed by the next matching notification(s) or response(s).
 *
 * Notification faults change what the receiver gets: extra copies (`duplicate`, some sent concurrently), a delivery
 * held back until the next notification went out (`out_of_order`), or a forged/corrupted message (bad signature,
 * wrong amount, wrong app or merchant, stale timestamp, WeChat's SIGNTEST probe). Forgery faults affect only the
 * first attempt unless `all_attempts` is set, so a receiver that rejects them still gets the genuine message on the
 * provider's next retry.
 *
 * Response faults: `server_error` (HTTP `status`, default 500; the call is not performed), `timeout` (performed,
 * answered after `delay_ms`, so the outcome is ambiguous to the caller), `tampered_signature` (performed, answered
 * with a broken signature).
 */
export const NOTIFICATION_FAULTS = [
  'duplicate',
  'out_of_order',
  'tampered_signature',
  'wrong_amount',
  'wrong_app',
  'stale_timestamp',
  'signtest_probe',
] as const;
export const RESPONSE_FAULTS = ['server_error', 'timeout', 'tampered_signature'] as const;

export type NotificationFaultKind = (typeof NOTIFICATION_FAULTS)[number];
export type ResponseFaultKind = (typeof RESPONSE_FAULTS)[number];

export interface Fault {
  readonly id: string;
  readonly target: 'notification' | 'response';
  readonly kind: NotificationFaultKind | ResponseFaultKind;
  /** Only events whose keys (operation, order or refund id, event type) include this value; null = any. */
  readonly match: string | null;
  remaining: number;
  readonly copies: number;
  readonly concurrent: number;
  readonly delayMs: number;
  readonly amountDeltaCents: number;
  readonly allAttempts: boolean;
  readonly holdMs: number;
  /** HTTP status of a server_error. */
  readonly status: number;
}

function int(
  body: Record<string, unknown>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const v = body[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new BadRequest(`${name} must be an integer from ${min} to ${max}`);
  }
  return v;
}

export class FaultRegistry {
  private faults: Fault[] = [];

  constructor(private readonly unsupported: readonly string[] = []) {}

  arm(body: Record<string, unknown>): Fault {
    const target = body.target;
    if (target !== 'notification' && target !== 'response') {
      throw new BadRequest('target must be notification or response');
    }
    const kinds: readonly string[] = target === 'notification' ? NOTIFICATION_FAULTS : RESPONSE_FAULTS;
    const kind = body.kind;
    if (typeof kind !== 'string' || !kinds.includes(kind) || this.unsupported.includes(kind)) {
      const allowed = kinds.filter((k) => !this.unsupported.includes(k));
      throw new BadRequest(`kind must be one of ${allowed.join(', ')} for ${target} faults`);
    }
    if (body.match !== undefined && typeof body.match !== 'string')
      throw new BadRequest('match must be a string');
    const copies = int(body, 'copies', 3, 2, 50);
    const fault: Fault = {
      id: randomUUID(),
      target,
      kind: kind as Fault['kind'],
      match: body.match ?? null,
      remaining: int(body, 'count', 1, 1, 1000),
      copies,
      concurrent: int(body, 'concurrent', Math.min(2, copies), 1, copies),
      delayMs: int(body, 'delay_ms', 15000, 0, 600000),
      amountDeltaCents: int(body, 'amount_delta_cents', 1, -1_000_000, 1_000_000) || 1,
      allAttempts: body.all_attempts === true,
      holdMs: int(body, 'hold_ms', 1000, 0, 600000),
      status: int(body, 'status', 500, 500, 599),
    };
    this.faults.push(fault);
    return fault;
  }

  /** Consumes one use of (at most `max`) armed faults for `target` that match one of `keys`, oldest first. */
  take(target: Fault['target'], keys: readonly string[], max = Infinity): Fault[] {
    const taken: Fault[] = [];
    for (const fault of this.faults) {
      if (taken.length >= max) break;
      if (fault.target !== target || (fault.match !== null && !keys.includes(fault.match))) continue;
      fault.remaining -= 1;
      taken.push(fault);
    }
    this.faults = this.faults.filter((f) => f.remaining > 0);
    return taken;
  }

  list(): Fault[] {
    return [...this.faults];
  }

  clear(): void {
    this.faults = [];
  }
}
