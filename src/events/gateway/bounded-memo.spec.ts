import fc from 'fast-check';
import { BoundedMemo } from './bounded-memo';

describe('BoundedMemo', () => {
  it('forgets an entry once it expires', () => {
    const memo = new BoundedMemo<boolean>(4);
    memo.set('t', false, 10_000);
    expect(memo.get('t', 9_999)).toBe(false);
    expect(memo.get('t', 10_000)).toBeUndefined();
    expect(memo.size).toBe(0);
  });

  it('past its size, drops the least recently used entry', () => {
    const memo = new BoundedMemo<number>(3);
    memo.set('a', 1, Infinity);
    memo.set('b', 2, Infinity);
    memo.set('c', 3, Infinity);
    expect(memo.get('a', 0)).toBe(1); // a is now the most recently used
    memo.set('d', 4, Infinity);
    expect(memo.get('b', 0)).toBeUndefined();
    expect([memo.get('a', 0), memo.get('c', 0), memo.get('d', 0)]).toEqual([1, 3, 4]);
  });

  it('never holds more than its size, whatever keys arrive', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 500 }), (keys) => {
        const memo = new BoundedMemo<string>(64);
        for (const k of keys) memo.set(k, k, Infinity);
        expect(memo.size).toBeLessThanOrEqual(64);
      }),
    );
  });

  it('delete and expire with a value touch the entry only while it still holds that value', () => {
    const memo = new BoundedMemo<object>(4);
    const first = {};
    const second = {};
    memo.set('t', first, Infinity);
    memo.set('t', second, Infinity);
    memo.delete('t', first);
    memo.expire('t', first, 0);
    expect(memo.get('t', 1)).toBe(second);
    memo.expire('t', second, 5);
    expect(memo.get('t', 5)).toBeUndefined();
    memo.set('u', first, Infinity);
    memo.delete('u');
    expect(memo.size).toBe(0);
  });
});
