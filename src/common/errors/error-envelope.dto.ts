import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import type { FieldProblem } from './api-error';
import { codesCarrying, ERROR_CODE_LIST } from './error-catalog';
import { ERROR_FIELDS, ErrorField } from './error-fields';

/**
 * The error object. Besides code, message and request_id it declares every context field of the catalogue as an
 * optional property (added below from ERROR_FIELDS), each saying which codes carry it, so typed clients see them.
 */
export class ErrorBody {
  @ApiProperty({
    enum: ERROR_CODE_LIST,
    description: 'Machine-readable error code (lower case); docs/errors.md describes each.',
  })
  code: string;

  @ApiProperty({ description: 'Human-readable explanation; may change, so match on code.' })
  message: string;

  @ApiProperty({
    description:
      'The id of this request, also in the X-Request-ID header: quote it when reporting a problem.',
  })
  request_id: string;

  // Declared here rather than in the loop below: a oneOf schema needs the property's design type.
  @ApiPropertyOptional(fieldOptions('details'))
  details?: FieldProblem[] | string;
}

for (const name of Object.keys(ERROR_FIELDS) as ErrorField[]) {
  if (name !== 'details') ApiPropertyOptional(fieldOptions(name))(ErrorBody.prototype, name);
}

function fieldOptions(name: ErrorField): ApiPropertyOptions {
  const { schema, description } = ERROR_FIELDS[name];
  const codes = codesCarrying(name).join(', ');
  // The catalogue's schemas are plain OpenAPI schema objects, declared `as const` (hence readonly) for typing.
  return { ...schema, description: `${description} Carried by: ${codes}.` } as ApiPropertyOptions;
}

export class ErrorEnvelope {
  @ApiProperty({ type: ErrorBody })
  error: ErrorBody;
}
