import { Injectable, Param, PipeTransform } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed uuid path parameter is 400 validation_error naming the parameter (never a 500 from SQL). */
@Injectable()
export class ParseUuidParam implements PipeTransform<unknown, string> {
  constructor(private readonly name: string) {}

  transform(value: unknown): string {
    if (typeof value !== 'string' || !UUID.test(value)) throw ApiError.field(this.name, 'must be a UUID');
    return value.toLowerCase();
  }
}

/** `@UuidParam('id') id: string`: a path parameter that must be a UUID. */
export const UuidParam = (name: string): ParameterDecorator => Param(name, new ParseUuidParam(name));
