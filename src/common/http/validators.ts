import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, registerDecorator, ValidationOptions } from 'class-validator';

/** The UTF-8 size of a value's JSON text, the size it occupies on the wire and in storage. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** A JSON object whose serialised form is at most `max` bytes (metadata 1 KB, result data 16 KB). */
export function MaxJsonBytes(max: number, options?: ValidationOptions): PropertyDecorator {
  return (object: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'maxJsonBytes',
      target: object.constructor,
      propertyName: String(propertyName),
      constraints: [max],
      options: { message: `must be at most ${max} bytes as JSON`, ...options },
      validator: { validate: (value: unknown) => value === undefined || jsonBytes(value) <= max },
    });
  };
}

/** ISO 8601 date-time with an explicit offset (Z or ±hh:mm): a time without one would mean the server's zone. */
export const ISO_DATE_TIME_WITH_OFFSET =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Not empty and not only white space. */
export const NOT_BLANK = /\S/;

/**
 * At most `places` decimal places. Replaces class-validator's `maxDecimalPlaces`, which throws a TypeError (a 500)
 * on numbers JSON writes in exponent form, such as 1e-7 (found by the API fuzzer).
 */
export function MaxDecimalPlaces(places: number, options?: ValidationOptions): PropertyDecorator {
  return (object: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'maxDecimalPlaces',
      target: object.constructor,
      propertyName: String(propertyName),
      constraints: [places],
      options: { message: `must have at most ${places} decimal place${places === 1 ? '' : 's'}`, ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'number' || !Number.isFinite(value) || Number(value.toFixed(places)) === value,
      },
    });
  };
}

/** The field must be absent when `when(object)` holds (a field that only makes sense in another case). */
export function NotWhen<T extends object>(
  when: (o: T) => boolean,
  options?: ValidationOptions,
): PropertyDecorator {
  return (object: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'notWhen',
      target: object.constructor,
      propertyName: String(propertyName),
      options: { message: 'is not allowed here', ...options },
      validator: {
        validate: (value: unknown, args) => value === undefined || !args || !when(args.object as T),
      },
    });
  };
}

/**
 * An optional whole-number query parameter: documented as an integer with its bounds and default, converted from
 * the query string's text, and refused with a 400 when it is not an integer in range.
 */
export function OptionalInt(bounds: { min: number; max?: number; default?: number }): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: bounds.min,
      maximum: bounds.max,
      default: bounds.default,
    }),
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(bounds.min),
    ...(bounds.max === undefined ? [] : [Max(bounds.max)]),
  );
}
