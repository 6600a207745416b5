import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES } from './api-error';

export class ErrorBody {
  @ApiProperty({ enum: Object.keys(ERROR_CODES), description: 'Machine-readable error code (lower case).' })
  code: string;

  @ApiProperty({ description: 'Human-readable explanation.' })
  message: string;

  @ApiPropertyOptional({
    description:
      'Validation problems as [{field, message}] for validation_error; a string for invalid_json. Other codes add context fields beside it (for example balance_cents, required_cents, required_permission, retry_after, request_id).',
    oneOf: [
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { field: { type: 'string' }, message: { type: 'string' } },
          required: ['field', 'message'],
        },
      },
      { type: 'string' },
    ],
  })
  details?: unknown;
}

export class ErrorEnvelope {
  @ApiProperty({ type: ErrorBody })
  error: ErrorBody;
}
