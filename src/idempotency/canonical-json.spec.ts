import { canonicalJson, requestHash } from './canonical-json';

describe('canonicalJson', () => {
  it('is independent of key order at every level, and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(requestHash('POST', { x: 1, y: { z: 2, w: 3 } })).toBe(
      requestHash('POST', { y: { w: 3, z: 2 }, x: 1 }),
    );
  });

  it('tells different requests apart', () => {
    expect(requestHash('POST', '/v1/tasks/create', { a: 1 })).not.toBe(
      requestHash('POST', '/api/v1/tasks', { a: 1 }),
    );
    expect(requestHash('POST', { a: 1 })).not.toBe(requestHash('POST', { a: '1' }));
    expect(requestHash('POST', { a: [1, 2] })).not.toBe(requestHash('POST', { a: [2, 1] }));
  });

  it('drops undefined members as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
  });

  it('writes exactly the text of JSON.stringify over sorted copies (stored request hashes stay valid)', () => {
    // The earlier implementation, kept here as the reference the direct writer must match byte for byte.
    const sortedCopy = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(sortedCopy);
      if (v && typeof v === 'object' && !(v instanceof Date)) {
        return Object.fromEntries(
          Object.keys(v)
            .sort()
            .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
            .map((k) => [k, sortedCopy((v as Record<string, unknown>)[k])]),
        );
      }
      return v;
    };
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const leaf = (): unknown =>
      [
        null,
        undefined,
        true,
        -0,
        1.5e-7,
        2 ** 60,
        NaN,
        'plain',
        'quote " and \\ back',
        '中文 \u2028 \u0001',
        '',
        new Date(Date.UTC(2030, 5, 1)),
        () => 1,
      ][Math.floor(rand() * 13)];
    const tree = (depth: number): unknown => {
      const r = rand();
      if (depth === 0 || r < 0.3) return leaf();
      if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => tree(depth - 1));
      const o: Record<string, unknown> = {};
      for (let i = 0; i < rand() * 5; i++)
        o[['b', 'a', '__proto__x', 'é', '10', '2', ''][i % 7]] = tree(depth - 1);
      return o;
    };
    const holes = [1, , 3]; // eslint-disable-line no-sparse-arrays
    for (const v of [
      holes,
      { a: holes },
      undefined,
      () => 1,
      ...Array.from({ length: 500 }, () => tree(4)),
    ]) {
      expect(canonicalJson(v)).toBe(JSON.stringify(sortedCopy(v)) ?? 'null');
    }
  });
});
