import { FaultRegistry } from './faults';
import { BadRequest } from './http';
import { OrderLifecycle, SandboxConflict, UnknownTestCard } from './lifecycle';
import type { SandboxOrder } from './store';
import { Timers } from './timers';

describe('fault registry', () => {
  it('validates what is armed', () => {
    const faults = new FaultRegistry(['stale_timestamp']);
    expect(() => faults.arm({ target: 'elsewhere', kind: 'duplicate' })).toThrow(BadRequest);
    expect(() => faults.arm({ target: 'notification', kind: 'timeout' })).toThrow(/kind must be one of/);
    expect(() => faults.arm({ target: 'notification', kind: 'stale_timestamp' })).toThrow(BadRequest);
    expect(() => faults.arm({ target: 'notification', kind: 'duplicate', copies: 1 })).toThrow(/copies/);
    expect(() => faults.arm({ target: 'response', kind: 'server_error', status: 404 })).toThrow(/status/);
    expect(faults.arm({ target: 'notification', kind: 'duplicate' })).toMatchObject({
      copies: 3,
      concurrent: 2,
    });
  });

  it('consumes `count` uses of matching faults, oldest first', () => {
    const faults = new FaultRegistry();
    faults.arm({ target: 'response', kind: 'server_error', count: 2, match: 'alipay.trade.query' });
    faults.arm({ target: 'response', kind: 'timeout' });
    expect(faults.take('notification', ['alipay.trade.query'])).toEqual([]);
    expect(faults.take('response', ['alipay.trade.close'], 1).map((f) => f.kind)).toEqual(['timeout']);
    expect(faults.take('response', ['alipay.trade.query'], 1).map((f) => f.kind)).toEqual(['server_error']);
    expect(faults.take('response', ['alipay.trade.query'], 1).map((f) => f.kind)).toEqual(['server_error']);
    expect(faults.take('response', ['alipay.trade.query'])).toEqual([]);
    expect(faults.list()).toEqual([]);
  });

  it('several notification faults can apply to the same notification', () => {
    const faults = new FaultRegistry();
    faults.arm({ target: 'notification', kind: 'duplicate' });
    faults.arm({ target: 'notification', kind: 'wrong_amount', amount_delta_cents: -5 });
    const taken = faults.take('notification', ['order1']);
    expect(taken.map((f) => [f.kind, f.amountDeltaCents])).toEqual([
      ['duplicate', 1],
      ['wrong_amount', -5],
    ]);
  });
});

describe('order lifecycle', () => {
  const timers = new Timers((err) => {
    throw err;
  });
  afterAll(() => timers.stop());

  function order(expiresInMs: number | null = null): SandboxOrder {
    return {
      outTradeNo: `o${Math.random()}`,
      tradeNo: 't',
      amountCents: 100,
      subject: 's',
      channel: 'native',
      notifyUrl: null,
      returnUrl: null,
      payer: null,
      attach: null,
      cashierToken: 'c',
      createdAt: new Date(),
      expiresAt: expiresInMs === null ? null : new Date(Date.now() + expiresInMs),
      state: 'pending',
      failureReason: null,
      paidAt: null,
      closedAt: null,
      refundedCents: 0,
    };
  }

  /** Polls until `done` holds (timers may run late on a busy machine); fails after 2 s. */
  async function until(done: () => boolean): Promise<void> {
    const deadline = Date.now() + 2000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error('condition not reached in 2 s');
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it('pays by itself after autoCompleteMs unless declined first, reporting each settlement once', async () => {
    const settled: string[] = [];
    const lifecycle = new OrderLifecycle(timers, 40, {
      settled: (o) => settled.push(`${o.outTradeNo}:${o.state}`),
    });
    const auto = order();
    const declined = order();
    lifecycle.track(auto);
    lifecycle.track(declined);
    lifecycle.decline(declined);
    await until(() => auto.state !== 'pending');
    expect(auto.state).toBe('paid');
    expect(declined).toMatchObject({ state: 'declined', failureReason: 'buyer_declined' });
    expect(settled.sort()).toEqual([`${auto.outTradeNo}:paid`, `${declined.outTradeNo}:declined`].sort());
  });

  it('expires at expiresAt; the merchant close settles nothing', async () => {
    const settled: string[] = [];
    const lifecycle = new OrderLifecycle(timers, null, { settled: (o) => settled.push(o.state) });
    const expiring = order(30);
    const closed = order();
    lifecycle.track(expiring);
    lifecycle.track(closed);
    lifecycle.close(closed);
    await until(() => expiring.state !== 'pending');
    expect(expiring.state).toBe('expired');
    expect(closed.state).toBe('closed');
    expect(settled).toEqual(['expired']);
  });

  it('test cards decide; unknown cards and settled orders are refused', () => {
    const lifecycle = new OrderLifecycle(timers, null, { settled: () => undefined });
    const a = order();
    expect(() => lifecycle.pay(a, '4111 1111 1111 1111')).toThrow(UnknownTestCard);
    expect(a.state).toBe('pending');
    expect(lifecycle.pay(a, '4000-0000-0000-9995')).toBe('insufficient_funds');
    expect(a).toMatchObject({ state: 'declined', failureReason: 'insufficient_funds', paidAt: null });
    expect(() => lifecycle.pay(a)).toThrow(SandboxConflict);
    const b = order();
    expect(lifecycle.pay(b, '4242424242424242')).toBe('succeeded');
    expect(b.paidAt).toBeInstanceOf(Date);
    expect(() => lifecycle.expire(b)).toThrow(SandboxConflict);
  });
});
