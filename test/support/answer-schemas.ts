/** An answer_schema (product-decisions §17) with one field of every kind, for the typed-answer suites. */
export const EVERY_KIND = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    open: { type: 'boolean', title: 'Is the bakery open?' },
    hours: { type: 'string', title: 'Opening hours on the sign', maxLength: 100 },
    queue: { type: 'integer', title: 'People queueing', minimum: 0, maximum: 500 },
    price: { type: 'number', title: 'Price of a baguette (yuan)', minimum: 0 },
    kind: { type: 'string', title: 'Kind of shop', enum: ['bakery', 'cafe', 'other'] },
    seen_on: { type: 'string', title: 'Date printed on the sign', format: 'date' },
    opens_at: { type: 'string', title: 'Opening time', format: 'time' },
    checked_at: { type: 'string', title: 'When you looked', format: 'date-time' },
    payment: {
      type: 'array',
      title: 'Payment accepted',
      items: { type: 'string', enum: ['cash', 'alipay', 'wechat'] },
      maxItems: 3,
    },
    storefront: { type: 'string', title: 'Photo of the storefront', format: 'photo' },
  },
  required: ['open', 'kind', 'storefront'],
};
