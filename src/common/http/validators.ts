import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidationOptions,
} from 'class-validator';
import { NormalizeEmail } from './transforms';

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

/**
 * The decorators as if written one above the other in this order. TypeScript applies a stack bottom-up, and
 * class-validator reports a field's failed rules in the order they were applied, so a shared stack answers a bad
 * value with the same details, in the same order, as the stack it replaces.
 */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

/** A point's latitude in degrees: a finite number from -90 to 90 (a task's place, a photo's device position). */
export function Latitude(): PropertyDecorator {
  return stacked(
    ApiProperty({ minimum: -90, maximum: 90, example: 31.2304 }),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(-90),
    Max(90),
  );
}

/** A point's longitude in degrees: a finite number from -180 to 180. */
export function Longitude(): PropertyDecorator {
  return stacked(
    ApiProperty({ minimum: -180, maximum: 180, example: 121.4737 }),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(-180),
    Max(180),
  );
}

/**
 * A point on the map, in degrees: the base of a task's place, of the position a device reports with a photo and of
 * a simulated worker's spot, so the three are documented and checked alike.
 */
export class GeoPoint {
  @Latitude()
  latitude: number;

  @Longitude()
  longitude: number;
}

/**
 * An account's email address (sign-up and sign-in), documented with its bounds: trimmed and lower-cased, then
 * checked; at most 254 characters.
 */
export function EmailAddress(example?: string): PropertyDecorator {
  return stacked(
    ApiProperty({ format: 'email', maxLength: 254, ...(example === undefined ? {} : { example }) }),
    NormalizeEmail(),
    IsString(),
    IsEmail({}, { message: 'must be an email address' }),
    MaxLength(254),
  );
}

/**
 * The password of a sign-in: any non-empty string up to 128 characters. Only sign-up holds a new password to the
 * minimum length; a sign-in compares what it is given.
 */
export function SignInPassword(): PropertyDecorator {
  return stacked(ApiProperty({ maxLength: 128 }), IsString(), IsNotEmpty(), MaxLength(128));
}
