import { nulCharacterErrors } from './nul-characters';

const fields = (value: unknown) => nulCharacterErrors(value).map((e) => e.property);

describe('nulCharacterErrors', () => {
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

  it('reports an array item on its array, once, and a key with the character on its object', () => {
    expect(fields({ skills: ['a', 'b\u0000', '\u0000'], data: { 'k\u0000': 1 } })).toEqual([
      'skills',
      'data',
    ]);
    expect(nulCharacterErrors({ s: '\u0000' })[0].constraints).toEqual({
      noNulCharacter: 'must not contain the NUL character (\\u0000)',
    });
  });

  it('finds nothing in clean values and in values that are not objects', () => {
    expect(fields({ a: 'text', b: [1, null, { c: true }] })).toEqual([]);
    expect(fields(null)).toEqual([]);
    expect(fields(12)).toEqual([]);
  });
});
