import fc from 'fast-check';
import { GateVerdict, MessageGate, SOCKET_LIMITS, TokenBucket } from './socket-limits';

/** Feeds `count` messages at `now`, all asking for an answer unless told otherwise, and counts the verdicts. */
function feed(
  gate: MessageGate,
  now: number,
  count: number,
  wantsAnswer = true,
): Record<GateVerdict, number> {
  const seen: Record<GateVerdict, number> = { pass: 0, refuse: 0, drop: 0, flood: 0, disconnect: 0 };
  for (let i = 0; i < count; i++) seen[gate.admit(now, wantsAnswer)]++;
  return seen;
}

describe('TokenBucket', () => {
  it('gives its capacity at once, then refills at its rate', () => {
    const bucket = new TokenBucket(20, 40, 0);
    const taken = Array.from({ length: 50 }, () => bucket.take(0)).filter(Boolean);
    expect(taken).toHaveLength(40);
    expect(bucket.take(49)).toBe(false); // 0.98 of a token
    expect(bucket.take(50)).toBe(true); // one token after 50 ms at 20 a second
    expect(bucket.take(50)).toBe(false);
  });

  it('never holds more than its capacity, however long it was idle', () => {
    const bucket = new TokenBucket(20, 40, 0);
    const taken = Array.from({ length: 100 }, () => bucket.take(3_600_000)).filter(Boolean);
    expect(taken).toHaveLength(40);
  });

  it('a clock read that goes backwards refills nothing', () => {
    const bucket = new TokenBucket(20, 40, 1_000);
    for (let i = 0; i < 40; i++) bucket.take(1_000);
    expect(bucket.take(0)).toBe(false);
    expect(bucket.take(1_049)).toBe(false);
    expect(bucket.take(1_050)).toBe(true);
  });

  it('over any stretch of time, grants at most capacity + rate x time', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 300 }), (gaps) => {
        const bucket = new TokenBucket(20, 40, 0);
        let now = 0;
        let granted = 0;
        for (const gap of gaps) {
          now += gap;
          if (bucket.take(now)) granted++;
        }
        expect(granted).toBeLessThanOrEqual(40 + Math.floor((now * 20) / 1000));
      }),
    );
  });
});

describe('MessageGate (product-decisions §16: 20 a second, bursts of 40, disconnect after 3 s of flooding)', () => {
  it('passes a burst of 40, answers the next 40 rate_limited, then calls it a flood', () => {
    const gate = new MessageGate(0);
    expect(feed(gate, 0, 40)).toEqual({ pass: 40, refuse: 0, drop: 0, flood: 0, disconnect: 0 });
    // 30,000 more in the same instant: none passes, 40 are answered rate_limited, the rest go unanswered.
    expect(feed(gate, 0, 30_000)).toEqual({ pass: 0, refuse: 40, drop: 0, flood: 29_960, disconnect: 0 });
  });

  it('a refusal without an ack callback is dropped, but counts against the refusals’ budget all the same', () => {
    const gate = new MessageGate(0);
    feed(gate, 0, 40);
    expect(feed(gate, 0, 40, false)).toEqual({ pass: 0, refuse: 0, drop: 40, flood: 0, disconnect: 0 });
    expect(feed(gate, 0, 10)).toEqual({ pass: 0, refuse: 0, drop: 0, flood: 10, disconnect: 0 });
  });

  it('a steady 20 a second always passes', () => {
    const gate = new MessageGate(0);
    for (let ms = 0; ms < 60_000; ms += 50) expect(gate.admit(ms, true)).toBe('pass');
  });

  it('a client that retries what was refused, at up to twice the rate, is refused but never disconnected', () => {
    const gate = new MessageGate(0);
    const seen = { pass: 0, refuse: 0, drop: 0, flood: 0, disconnect: 0 };
    for (let ms = 0; ms < 60_000; ms += 25) seen[gate.admit(ms, true)]++;
    expect(seen.disconnect).toBe(0);
    expect(seen.flood).toBe(0);
    expect(seen.pass).toBeGreaterThanOrEqual(1_200);
    expect(seen.refuse).toBeGreaterThan(0);
  });

  it('disconnects a socket flooding for 3 s without a pause, not before', () => {
    const gate = new MessageGate(0);
    const verdicts: GateVerdict[] = [];
    // 1,000 messages a second: past the burst and the refusals' budget after about 80 ms.
    for (let ms = 0; ms < 5_000; ms++) verdicts.push(gate.admit(ms, true));
    const firstOverflow = verdicts.indexOf('flood');
    const firstDisconnect = verdicts.indexOf('disconnect');
    expect(firstOverflow).toBeGreaterThan(0);
    expect(firstDisconnect - firstOverflow).toBe(SOCKET_LIMITS.floodDisconnectMs);
    // Meanwhile it was held to the rate: the burst plus 20 a second.
    const passed = verdicts.slice(0, firstDisconnect).filter((v) => v === 'pass').length;
    expect(passed).toBeLessThanOrEqual(40 + Math.ceil((firstDisconnect * 20) / 1000));
  });

  it('a flood read in bursts (the gateway pauses reading it at each overflow) is still one flood', () => {
    const gate = new MessageGate(0);
    const bursts = Array.from({ length: 10 }, (_, i) => feed(gate, i * SOCKET_LIMITS.floodPauseMs, 1_000));
    const firstDisconnect = bursts.findIndex((b) => b.disconnect > 0);
    expect(firstDisconnect * SOCKET_LIMITS.floodPauseMs).toBe(SOCKET_LIMITS.floodDisconnectMs);
  });

  it('a socket that pauses for more than a second between floods starts the count afresh', () => {
    const gate = new MessageGate(0);
    // Bursts of 200 every 1.5 s: each overflows, but no flood lasts 3 s.
    for (let burst = 0; burst < 10; burst++) {
      const seen = feed(gate, burst * 1_500, 200);
      expect(seen.flood).toBeGreaterThan(0);
      expect(seen.disconnect).toBe(0);
      expect(seen.pass).toBe(burst === 0 ? 40 : 30);
    }
  });
});
