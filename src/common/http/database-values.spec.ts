import { databaseValueErrors } from './database-values';

const fields = (value: unknown) => databaseValueErrors(value).map((e) => e.property);

describe('databaseValueErrors', () => {
  it('names each field whose text holds U+0000, nested objects and free-form data included', () => {
    expect(
      fields({
        title: 'a\u0000b',
        location: { address: '\u0000', latitude: 1 },
        metadata: { deep: { note: 'x\u0000' }, clean: 'y' },
        ok: 'fine',
      }),
    ).toEqual(['title', 'location.address', 'metadata.deep.note']);
  });

  it('names each field holding a subnormal number, and no other number', () => {
    expect(
      fields({
        location: { latitude: 5e-324, longitude: -2.2e-308 },
        small: 2.2250738585072014e-308,
        zero: 0,
        negativeZero: -0,
        big: 1e308,
        data: { n: [1, 1e-310] },
      }),
    ).toEqual(['location.latitude', 'location.longitude', 'data.n']);
    expect(databaseValueErrors({ x: 5e-324 })[0].constraints!.databaseValue).toMatch(/send 0$/);
  });

  it('reports an array item on its array, once, and a key with the character on its object', () => {
    expect(fields({ skills: ['a', 'b\u0000', '\u0000'], data: { 'k\u0000': 1 } })).toEqual([
      'skills',
      'data',
    ]);
    expect(databaseValueErrors({ s: '\u0000' })[0].constraints).toEqual({
      databaseValue: 'must not contain the NUL character (\\u0000)',
    });
  });

  it('finds nothing in clean values and in values that are not objects', () => {
    expect(fields({ a: 'text', b: [1, null, { c: true }] })).toEqual([]);
    expect(fields(null)).toEqual([]);
    expect(fields(12)).toEqual([]);
  });
});
