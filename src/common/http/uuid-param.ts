import { Injectable, Param, PipeTransform } from '@nestjs/common';
import { ApiError } from '../errors/api-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Rejects a malformed uuid path parameter as 400 validation_error naming the parameter (never a 500 from SQL). */
@Injectable()
export class ParseUuidParam implements PipeTransform<unknown, string> {
  constructor(private readonly name: string) {}

  transform(value: unknown): string {
    if (typeof value !== 'string' || !UUID.test(value)) throw ApiError.field(this.name, 'must be a UUID');
    return value.toLowerCase();
  }
}

/** `@UuidParam('task_id') taskId: string`: a path parameter that must be a UUID. */
export const UuidParam = (name: string): ParameterDecorator => Param(name, new ParseUuidParam(name));
