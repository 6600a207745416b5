import fc from 'fast-check';
import { OpenApiDoc, Operation, Parameter, resolve, Schema, valueOf } from '../support/openapi-schemas';
import type { AuthKind } from './answers';

/** Values a careless or hostile client sends where something else was expected. */
export const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(''),
  fc.constant('x'.repeat(100_000)),
  fc.constant('\u0000'),
  fc.constant('a\u0000b'),
  fc.constant('😀'.repeat(500)),
  fc.constant('\u202e\ud800\udfff\ufeff'),
  fc.constant("' OR 1=1 --"),
  fc.constant('../../etc/passwd'),
  fc.constant('<script>alert(1)</script>'),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer(),
  fc.constant(Number.MAX_SAFE_INTEGER + 2),
  fc.constant(-1),
  fc.constant(1e308),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);

const nastyText: fc.Arbitrary<string> = nasty.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));

/**
 * For the URL: Node's HTTP parser answers a request line over 16 KB itself (431, before the application sees it),
 * so huge values go into bodies only.
 */
const nastyUrlText: fc.Arbitrary<string> = nastyText.filter((s) => encodeURIComponent(s).length < 1500);

export type Body =
  { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };

export interface FuzzRequest {
  auth: AuthKind;
  path: Record<string, string>;
  query: [string, string][];
  body: Body;
  idempotencyKey: string | undefined;
  /** What was done to a valid request, for the failure report. */
  mutation: string;
}

/** Known ids for path parameters (a real task of the agent, its API key, ...), by parameter name. */
export type KnownIds = Record<string, string[]>;

function pathValue(name: string, schema: Schema, known: KnownIds): fc.Arbitrary<string> {
  const real = known[name] ?? [];
  const options: fc.Arbitrary<string>[] = [
    fc.uuid(),
    fc.constantFrom(
      'not-a-uuid',
      '0',
      '-1',
      '..',
      '%00',
      '00000000-0000-0000-0000-000000000000',
      '✓',
      'a'.repeat(3000),
    ),
    nastyUrlText.filter((s) => s.length > 0),
  ];
  if (real.length) options.unshift(fc.constantFrom(...real), fc.constantFrom(...real));
  if (schema.type === 'integer') options.push(fc.integer().map(String));
  return fc.oneof(...options);
}

function queryValue(doc: OpenApiDoc, p: Parameter): fc.Arbitrary<string[]> {
  const valid = valueOf(doc, p.schema).map((v) => (Array.isArray(v) ? v.map(String) : [String(v)]));
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 1, arbitrary: nastyUrlText.map((s) => [s]) },
    { weight: 1, arbitrary: fc.tuple(nastyUrlText, nastyUrlText).map(([a, b]) => [a, b]) },
  );
}

function jsonBodySchema(op: Operation): Schema | undefined {
  return op.requestBody?.content['application/json']?.schema;
}

/** A body: valid per schema, or valid with one mutation, or not a usable body at all. */
function bodyOf(doc: OpenApiDoc, op: Operation): fc.Arbitrary<{ body: Body; mutation: string }> {
  const raw = jsonBodySchema(op);
  const garbage = fc.oneof(
    nasty.map((value) => ({
      body: { kind: 'json' as const, value },
      mutation: 'body replaced by a non-object',
    })),
    fc
      .constantFrom('{"a":', '{]', 'null', '"\\ud800"', '{"__proto__":{"x":1}}', '\u0000', '[1,2')
      .map((text) => ({
        body: { kind: 'raw' as const, text, contentType: 'application/json' },
        mutation: 'malformed JSON',
      })),
    fc.constant({
      body: { kind: 'raw' as const, text: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
      mutation: 'form body',
    }),
    fc.constant({
      body: { kind: 'raw' as const, text: '<x/>', contentType: 'text/xml' },
      mutation: 'xml body',
    }),
    fc.constant({ body: { kind: 'none' as const }, mutation: 'no body' }),
  );
  if (!raw)
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant({ body: { kind: 'none' as const }, mutation: 'none' }) },
      { weight: 1, arbitrary: garbage },
    );
  const schema = resolve(doc, raw);
  const valid = valueOf(doc, schema);
  const keys = Object.keys(schema.properties ?? {});
  const required = (schema.required ?? []).filter((k) => keys.includes(k));
  const mutated = fc.oneof(
    {
      weight: 4,
      arbitrary: valid.map((value) => ({ body: { kind: 'json' as const, value }, mutation: 'none' })),
    },
    ...(required.length
      ? [
          fc.tuple(valid, fc.constantFrom(...required)).map(([value, key]) => {
            const copy = { ...(value as Record<string, unknown>) };
            delete copy[key];
            return { body: { kind: 'json' as const, value: copy }, mutation: `missing required ${key}` };
          }),
        ]
      : []),
    ...(keys.length
      ? [
          fc.tuple(valid, fc.constantFrom(...keys), nasty).map(([value, key, bad]) => ({
            body: { kind: 'json' as const, value: { ...(value as Record<string, unknown>), [key]: bad } },
            mutation: `${key} replaced by a wrong value`,
          })),
        ]
      : []),
    fc.tuple(valid, fc.string({ minLength: 1, maxLength: 12 }), nasty).map(([value, key, extra]) => ({
      body: { kind: 'json' as const, value: { ...(value as Record<string, unknown>), [`zz_${key}`]: extra } },
      mutation: 'extra field',
    })),
    garbage,
  );
  return mutated;
}

export function requestsFor(
  doc: OpenApiDoc,
  method: string,
  op: Operation,
  known: KnownIds,
): fc.Arbitrary<FuzzRequest> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const path = fc.record(
    Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p.name, resolve(doc, p.schema), known)])),
  );
  const query = fc
    .tuple(
      ...queryParams.map((p) =>
        fc
          .option(queryValue(doc, p), { freq: 2 })
          .map((v) => (v ? v.map((x) => [p.name, x] as [string, string]) : [])),
      ),
      fc
        .option(
          nastyUrlText.map((v) => [['zz_unknown', v] as [string, string]]),
          { freq: 4 },
        )
        .map((v) => v ?? []),
    )
    .map((parts) => parts.flat());
  const writes = method !== 'get';
  return fc
    .record({
      auth: fc.constantFrom<AuthKind>(
        'valid',
        'valid',
        'valid',
        'alternative',
        'none',
        'other_actor',
        'garbage',
      ),
      path,
      query,
      body: bodyOf(doc, op),
      idempotencyKey: writes
        ? fc.option(fc.oneof(fc.uuid(), fc.constant('k'.repeat(300)), fc.stringMatching(/^[ -~]{0,20}$/)), {
            freq: 3,
          })
        : fc.constant(null),
    })
    .map((r) => ({
      auth: r.auth,
      path: r.path,
      query: r.query,
      body: r.body.body,
      mutation: r.body.mutation,
      idempotencyKey: r.idempotencyKey ?? undefined,
    }));
}
