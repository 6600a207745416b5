import fc from 'fast-check';
import { nestsDeeperThan } from './json-depth';

const nested = (depth: number): unknown =>
  JSON.parse('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) as unknown;

describe('nestsDeeperThan', () => {
  it('counts objects and arrays as levels, scalars as none', () => {
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan('text', 0)).toBe(false);
    expect(nestsDeeperThan(null, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({}, 1)).toBe(false);
    expect(nestsDeeperThan([[1]], 1)).toBe(true);
    expect(nestsDeeperThan({ a: [1], b: { c: {} } }, 2)).toBe(true);
    expect(nestsDeeperThan({ a: [1], b: { c: 1 } }, 2)).toBe(false);
  });

  it('finds the one deep branch among shallow ones', () => {
    expect(nestsDeeperThan({ x: 1, y: [1, 2, { z: nested(40) }] }, 32)).toBe(true);
  });

  it('does not overflow the stack on 100,000 levels', () => {
    expect(nestsDeeperThan(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)), 32)).toBe(true);
  });

  it('agrees with a recursive depth on any JSON value', () => {
    const depth = (v: unknown): number =>
      v !== null && typeof v === 'object'
        ? 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depth))
        : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (v, max) => {
        expect(nestsDeeperThan(v, max)).toBe(depth(v) > max);
      }),
    );
  });
});
