import 'reflect-metadata';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance, Type } from 'class-transformer';
import { dropAbsentNulls } from './absent-nulls';

class Inner {
  @ApiProperty() required: number;
  @ApiPropertyOptional() optional?: number;
  @ApiPropertyOptional({ nullable: true }) nullable?: number | null;
}

class Outer {
  @ApiProperty() name: string;
  @ApiPropertyOptional() note?: string;
  @ApiPropertyOptional({ type: Inner }) @Type(() => Inner) inner?: Inner;
  @ApiPropertyOptional({ type: Inner, nullable: true }) @Type(() => Inner) maybe?: Inner | null;
  @ApiPropertyOptional({ type: [Inner] }) @Type(() => Inner) list?: Inner[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) data?: Record<string, unknown>;
}

class Child extends Outer {
  @ApiPropertyOptional() extra?: string;
}

/** A class as the swagger CLI plugin compiles it: the options inferred from the types in a static factory. */
class Compiled {
  @ApiPropertyOptional() declared?: string;
  inferredOptional?: string;
  inferredNullable?: string | null;
  static _OPENAPI_METADATA_FACTORY() {
    return {
      inferredOptional: { required: false, type: () => String },
      inferredNullable: { required: false, type: () => String, nullable: true },
    };
  }
}

function cleaned<T extends object>(cls: new () => T, body: Record<string, unknown>): T {
  const dto = plainToInstance(cls, body);
  dropAbsentNulls(dto);
  return dto;
}

/** The fields a value holds (class fields are defined as undefined on every instance). */
const given = (o: object) => Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined);

describe('dropAbsentNulls (product-decisions §16: null in an optional field means absent)', () => {
  it('drops null from optional fields and keeps it on required and nullable ones', () => {
    const dto = cleaned(Outer, { name: null, note: null, maybe: null });
    expect(given(dto).sort()).toEqual(['maybe', 'name']);
    expect(dto.name).toBeNull();
    expect(dto.maybe).toBeNull();
  });

  it('applies inside nested DTOs and arrays of them, not to free-form objects', () => {
    const dto = cleaned(Outer, {
      name: 'a',
      inner: { required: null, optional: null, nullable: null },
      list: [{ required: 1, optional: null }, null],
      data: { kept: null },
    });
    expect(given(dto.inner!)).toEqual(['required', 'nullable']);
    expect(dto.inner).toMatchObject({ required: null, nullable: null });
    expect(given(dto.list![0])).toEqual(['required']);
    expect(dto.list![1]).toBeNull();
    expect(dto.data).toEqual({ kept: null });
  });

  it('reads inherited fields and the options the swagger plugin infers, under the declared ones', () => {
    expect(given(cleaned(Child, { name: 'a', extra: null, note: null }))).toEqual(['name']);
    const compiled = cleaned(Compiled, { declared: null, inferredOptional: null, inferredNullable: null });
    expect(given(compiled)).toEqual(['inferredNullable']);
  });

  it('leaves fields the class does not document, and values that are not DTOs, alone', () => {
    expect(given(cleaned(Outer, { name: 'a', unknown: null }))).toEqual(['name', 'unknown']);
    const plain = { note: null };
    dropAbsentNulls(plain);
    expect(plain).toEqual({ note: null });
    expect(() => dropAbsentNulls(null)).not.toThrow();
    expect(() => dropAbsentNulls([1, 'x', [null]])).not.toThrow();
  });
});
