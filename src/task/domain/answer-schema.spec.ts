import { ANSWER_DATA_MAX_BYTES, checkAnswerSchema, withoutNulls } from './answer-schema';

const text = (maxLength: number) => ({ type: 'string', title: 'Text', maxLength });
const schemaOf = (n: number, field: Record<string, unknown>) => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, field])),
});

describe('answer schema', () => {
  it('models every kind and computes the largest answer', () => {
    const { problems, model } = checkAnswerSchema({
      type: 'object',
      properties: {
        yes: { type: 'boolean', title: 'Yes?' },
        pick: { type: 'array', title: 'Pick', items: { type: 'string', enum: ['a', 'bb'] }, maxItems: 1 },
      },
      required: ['yes'],
    });
    expect(problems).toEqual([]);
    expect(model!.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['yes', 'boolean', true],
      ['pick', 'multi_select', false],
    ]);
    // {"yes":false,"pick":["bb"]}: 2 + ("yes" 5 + 2 + 5) + ("pick" 6 + 2 + 2 + 4 + 1)
    expect(model!.maxAnswerBytes).toBe(2 + 12 + 15);
  });

  it('refuses a schema whose largest answer would not fit the result, at the byte', () => {
    // Each field: "fNN" key (5 bytes) + 2, its text 3 × maxLength + 2; 11 fields of 1,980 characters fit.
    const fits = checkAnswerSchema(schemaOf(11, text(1980)));
    expect(fits.problems).toEqual([]);
    expect(fits.model!.maxAnswerBytes).toBeLessThanOrEqual(ANSWER_DATA_MAX_BYTES);
    const over = checkAnswerSchema(schemaOf(11, text(2000)));
    expect(over.problems.map((p) => p.field)).toEqual(['answer_schema.properties']);
  });

  it('drops null on optional keywords only', () => {
    expect(
      withoutNulls({
        type: 'object',
        title: null,
        properties: { a: { type: 'boolean', title: 'A', description: null } },
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'boolean', title: 'A' } },
    });
    expect(
      checkAnswerSchema(withoutNulls({ type: 'object', properties: { a: { type: 'boolean', title: null } } }))
        .problems,
    ).toEqual([{ field: 'answer_schema.properties.a.title', message: expect.any(String) }]);
  });
});
