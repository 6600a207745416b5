import { BadRequest } from './http';
import type { SandboxOrder } from './store';
import type { Timers } from './timers';

/**
 * What happens to an order after the merchant created it, the same for both providers: the buyer pays (by button or
 * test card), declines, or lets it expire; unless declined, a sandbox order pays itself after `autoCompleteMs`; an
 * order with an expiry closes when it passes. Each provider turns the outcome into its own notifications.
 */
export const TEST_CARDS: Readonly<Record<string, PayOutcome>> = {
  '4242424242424242': 'succeeded',
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
};

export type PayOutcome = 'succeeded' | 'card_declined' | 'insufficient_funds';

export class UnknownTestCard extends BadRequest {}

/** The request conflicts with the order's state (for example paying a closed order). */
export class SandboxConflict extends Error {}

export interface LifecycleHooks {
  /** The order reached paid, declined or expired through the buyer or time (not through the merchant's close). */
  settled(order: SandboxOrder): void;
}

export class OrderLifecycle {
  private readonly cancels = new Map<string, Array<() => void>>();

  constructor(
    private readonly timers: Timers,
    private readonly autoCompleteMs: number | null,
    private readonly hooks: LifecycleHooks,
  ) {}

  /** Starts the clocks of a newly created order. */
  track(order: SandboxOrder): void {
    const cancels: Array<() => void> = [];
    if (this.autoCompleteMs !== null) {
      cancels.push(this.timers.after(this.autoCompleteMs, () => this.autoComplete(order)));
    }
    if (order.expiresAt) {
      const ms = order.expiresAt.getTime() - Date.now();
      cancels.push(this.timers.after(ms, () => order.state === 'pending' && this.expire(order)));
    }
    this.cancels.set(order.outTradeNo, cancels);
  }

  /** Pays with the given test card, or without a card (the cashier's Pay button). */
  pay(order: SandboxOrder, cardNumber?: string): PayOutcome {
    const card = cardNumber?.replace(/[\s-]/g, '');
    const outcome = card === undefined ? 'succeeded' : TEST_CARDS[card];
    if (!outcome) {
      throw new UnknownTestCard(`unknown test card; use one of ${Object.keys(TEST_CARDS).join(', ')}`);
    }
    this.requirePending(order);
    if (outcome !== 'succeeded') {
      this.finish(order, 'declined', outcome);
      return outcome;
    }
    order.paidAt = new Date();
    this.finish(order, 'paid', null);
    return outcome;
  }

  decline(order: SandboxOrder, reason = 'buyer_declined'): void {
    this.requirePending(order);
    this.finish(order, 'declined', reason);
  }

  expire(order: SandboxOrder): void {
    this.requirePending(order);
    this.finish(order, 'expired', 'expired');
  }

  /** The merchant closed the order through the API: no notification follows. */
  close(order: SandboxOrder): void {
    this.requirePending(order);
    this.stopClocks(order);
    order.state = 'closed';
    order.closedAt = new Date();
  }

  private autoComplete(order: SandboxOrder): void {
    if (order.state === 'pending') this.pay(order);
  }

  private requirePending(order: SandboxOrder): void {
    if (order.state !== 'pending') throw new SandboxConflict(`order ${order.outTradeNo} is ${order.state}`);
  }

  private finish(order: SandboxOrder, state: 'paid' | 'declined' | 'expired', reason: string | null): void {
    this.stopClocks(order);
    order.state = state;
    order.failureReason = reason;
    if (state !== 'paid') order.closedAt = new Date();
    this.hooks.settled(order);
  }

  private stopClocks(order: SandboxOrder): void {
    for (const cancel of this.cancels.get(order.outTradeNo) ?? []) cancel();
    this.cancels.delete(order.outTradeNo);
  }
}
