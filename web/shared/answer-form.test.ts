import { describe, expect, it } from 'vitest';
import { checkAnswers, formFields, offsetText, pendingPhotos, resultData } from './answer-form';

const schema = {
  type: 'object',
  properties: {
    open: { type: 'boolean', title: 'Open?' },
    opens_at: { type: 'string', format: 'time', title: 'Opens at' },
    seen_at: { type: 'string', format: 'date-time', title: 'Seen at' },
    day: { type: 'string', format: 'date', title: 'Day' },
    queue: { type: 'integer', minimum: 0, maximum: 200, title: 'Queue' },
    price: { type: 'number', title: 'Price' },
    kind: { type: 'string', enum: ['bakery', 'cafe'], title: 'Kind' },
    payment: {
      type: 'array',
      items: { type: 'string', enum: ['cash', 'alipay', 'wechat'] },
      maxItems: 2,
      title: 'Pay',
    },
    storefront: { type: 'string', format: 'photo', title: 'Storefront' },
    notes: { type: 'string', maxLength: 5, title: 'Notes', description: 'Short' },
  },
  required: ['open', 'kind', 'storefront'],
};

describe('answer form', () => {
  const fields = formFields(schema);

  it('reads every field kind in declaration order with its rules', () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['open', 'boolean', true],
      ['opens_at', 'time', false],
      ['seen_at', 'date_time', false],
      ['day', 'date', false],
      ['queue', 'integer', false],
      ['price', 'number', false],
      ['kind', 'choice', true],
      ['payment', 'multi_select', false],
      ['storefront', 'photo', true],
      ['notes', 'text', false],
    ]);
    expect(fields.find((f) => f.name === 'payment')).toMatchObject({
      options: ['cash', 'alipay', 'wechat'],
      maxItems: 2,
    });
    expect(fields.find((f) => f.name === 'notes')).toMatchObject({ maxLength: 5, description: 'Short' });
    expect(formFields(null)).toEqual([]);
  });

  it('names each broken rule before sending', () => {
    expect(checkAnswers(fields, {})).toEqual([
      { field: 'open', rule: 'required' },
      { field: 'kind', rule: 'required' },
      { field: 'storefront', rule: 'required' },
    ]);
    const base = { open: 'yes', kind: 'cafe', storefront: 'http://x/u.jpg' };
    expect(checkAnswers(fields, { ...base, queue: '201' })).toEqual([
      { field: 'queue', rule: 'maximum', limit: 200 },
    ]);
    expect(checkAnswers(fields, { ...base, queue: '-1' })).toEqual([
      { field: 'queue', rule: 'minimum', limit: 0 },
    ]);
    expect(checkAnswers(fields, { ...base, queue: '2.5' })).toEqual([
      { field: 'queue', rule: 'not_integer' },
    ]);
    expect(checkAnswers(fields, { ...base, price: 'abc' })).toEqual([{ field: 'price', rule: 'not_number' }]);
    expect(checkAnswers(fields, { ...base, notes: '123456' })).toEqual([
      { field: 'notes', rule: 'max_length', limit: 5 },
    ]);
    expect(checkAnswers(fields, { ...base, payment: ['cash', 'alipay', 'wechat'] })).toEqual([
      { field: 'payment', rule: 'max_items', limit: 2 },
    ]);
    expect(checkAnswers(fields, { ...base, kind: 'bar' })).toEqual([{ field: 'kind', rule: 'not_option' }]);
    expect(checkAnswers(fields, { ...base, day: '2030-13-45' })).toEqual([
      { field: 'day', rule: 'bad_date' },
    ]);
    expect(checkAnswers(fields, { ...base, opens_at: '9am' })).toEqual([
      { field: 'opens_at', rule: 'bad_time' },
    ]);
    expect(checkAnswers(fields, { ...base, price: '3,5', queue: '200', payment: [] })).toEqual([]);
  });

  it('builds result_data shaped as the schema, times with the offset and photos as their URLs', () => {
    const values = {
      open: 'no',
      opens_at: '09:30',
      seen_at: '2030-06-01T10:15',
      day: '2030-06-01',
      queue: '12',
      price: '3,5',
      kind: 'bakery',
      payment: ['cash'],
      storefront: new Blob(['x']),
      notes: '',
    };
    expect(resultData(fields, values, { storefront: 'http://h/uploads/a.jpg' }, 480)).toEqual({
      open: false,
      opens_at: '09:30:00+08:00',
      seen_at: '2030-06-01T10:15:00+08:00',
      day: '2030-06-01',
      queue: 12,
      price: 3.5,
      kind: 'bakery',
      payment: ['cash'],
      storefront: 'http://h/uploads/a.jpg',
    });
    expect(pendingPhotos(fields, values).map(([name]) => name)).toEqual(['storefront']);
    expect(offsetText(-330)).toBe('-05:30');
    expect(offsetText(0)).toBe('+00:00');
  });
});
