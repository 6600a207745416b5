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
});
