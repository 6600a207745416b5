import 'reflect-metadata';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsOptional, IsString } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { MaxJsonBytes } from './validators';
import { OpaqueJson } from './opaque-json';
import { createValidationPipe } from './validation.pipe';

class Body {
  @ApiProperty() @IsString() title!: string;
  @ApiPropertyOptional() @IsOptional() @IsInt() count?: number;
  @ApiPropertyOptional() @OpaqueJson() @IsOptional() @IsObject() @MaxJsonBytes(64) schema?: Record<
    string,
    unknown
  >;
  @ApiProperty() @OpaqueJson() @IsObject() data!: Record<string, unknown>;
}

const pipe = createValidationPipe();
const run = (value: unknown) => pipe.transform(value, { type: 'body', metatype: Body, data: undefined });

async function problems(value: unknown): Promise<string[]> {
  const err = await run(value).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  // In the body's order, the opaque fields' problems after the others'.
  return [...new Set(((err as ApiError).extra.details as { field: string }[]).map((d) => d.field))];
}

describe('the validation pipe with @OpaqueJson fields', () => {
  it('keeps an opaque object as parsed (not copied), on a DTO instance, and leaves the body as it came', async () => {
    const schema = { type: 'object', properties: { a: { type: 'boolean' } } };
    const data = { nested: [{ deep: 1 }] };
    const body = { title: 't', schema, data };
    const dto = (await run(body)) as Body;
    expect(dto).toBeInstanceOf(Body);
    expect(dto.schema).toBe(schema);
    expect(dto.data).toBe(data);
    expect(body).toEqual({ title: 't', schema, data });
  });

  it('runs the opaque fields own rules, and reports them with the other fields in one answer', async () => {
    const big = { text: 'x'.repeat(100) };
    expect(await problems({ title: 't', data: {}, schema: big })).toEqual(['schema']);
    expect(await problems({ title: 1, count: 'two', data: {}, schema: big })).toEqual([
      'title',
      'count',
      'schema',
    ]);
  });

  it('still refuses a required opaque field that is missing, null or not an object, and unknown fields', async () => {
    expect(await problems({ title: 't' })).toEqual(['data']);
    expect(await problems({ title: 't', data: null })).toEqual(['data']);
    expect(await problems({ title: 't', data: [1] })).toEqual(['data']);
    expect(await problems({ title: 't', data: {}, extra: 1 })).toEqual(['extra']);
  });

  it('reads null in an optional opaque field as absent, and checks opaque values for the database', async () => {
    const dto = (await run({ title: 't', data: {}, schema: null })) as Body;
    expect(dto.schema).toBeUndefined();
    expect(await problems({ title: 't', data: { note: 'a\u0000b' } })).toEqual(['data.note']);
  });

  it('strips prototype keys from opaque values as from the rest of the body', async () => {
    const data = JSON.parse('{"a":{"__proto__":{"polluted":true},"constructor":1,"b":2}}') as Record<
      string,
      unknown
    >;
    const dto = (await run({ title: 't', data })) as Body;
    expect(dto.data).toEqual({ a: { b: 2 } });
    expect(Object.keys(dto.data.a as object)).toEqual(['b']);
  });
});
