import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ANSWER_DATA_MAX_BYTES,
  ANSWER_MAX_PHOTO_FIELDS,
  ANSWER_SCHEMA_MAX_BYTES,
  ANSWER_SCHEMA_MAX_FIELDS,
  ENUM_MAX_VALUES,
  ENUM_VALUE_MAX_LENGTH,
  FIELD_DESCRIPTION_MAX_LENGTH,
  FIELD_TITLE_MAX_LENGTH,
  JSON_SCHEMA_2020_12,
  TEXT_MAX_LENGTH,
} from '../domain/answer-schema';
import { REVIEW_POLICY_TYPES } from '../domain/agreement';
import { MAX_WORKERS_LIMIT } from '../domain/task-policy';

/**
 * The OpenAPI description of an answer schema (product-decisions §17). Documentation only: the body field is checked
 * by domain/answer-schema.ts, which names the path of every problem (400 validation_error), so these classes carry no
 * validators. The apps build their forms from the same shape.
 */

export class AnswerSchemaItems {
  @ApiProperty({ enum: ['string'] }) type: 'string';
  @ApiProperty({ type: [String], maxItems: ENUM_MAX_VALUES, description: 'The choices offered.' })
  enum: string[];
}

/** One field of the answer: its kind is read from type, format, enum and items. */
export class AnswerSchemaField {
  @ApiProperty({
    enum: ['string', 'number', 'integer', 'boolean', 'array'],
    description:
      'string: text (`maxLength`), a choice (`enum`), a date, time or date-time (`format`), or a photo (`format: photo`); ' +
      'number and integer (`minimum`, `maximum`); boolean; array: a multi-select (`items: {type: string, enum}`, `maxItems`).',
  })
  type: string;

  @ApiProperty({
    minLength: 1,
    maxLength: FIELD_TITLE_MAX_LENGTH,
    description: 'The question the worker sees.',
  })
  title: string;

  @ApiPropertyOptional({
    maxLength: FIELD_DESCRIPTION_MAX_LENGTH,
    description: 'Help shown under the question.',
  })
  description?: string;

  @ApiPropertyOptional({
    enum: ['date', 'time', 'date-time', 'photo'],
    description:
      'date: YYYY-MM-DD; time and date-time: RFC 3339 with an offset (09:30:00+08:00); photo: the URL of a photo the ' +
      `worker uploaded, checked like a proof photo (at most ${ANSWER_MAX_PHOTO_FIELDS} photo fields).`,
  })
  format?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: TEXT_MAX_LENGTH,
    description: `Text only; ${TEXT_MAX_LENGTH} when absent.`,
  })
  maxLength?: number;

  @ApiPropertyOptional({
    type: [String],
    maxItems: ENUM_MAX_VALUES,
    description: `A choice: 1 to ${ENUM_MAX_VALUES} values of at most ${ENUM_VALUE_MAX_LENGTH} characters.`,
  })
  enum?: string[];

  @ApiPropertyOptional({ description: 'number and integer fields.' }) minimum?: number;
  @ApiPropertyOptional({ description: 'number and integer fields.' }) maximum?: number;

  @ApiPropertyOptional({ type: AnswerSchemaItems, description: 'A multi-select’s choices.' })
  items?: AnswerSchemaItems;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'A multi-select: the most choices an answer lists.',
  })
  maxItems?: number;

  @ApiPropertyOptional({
    enum: [true],
    description: 'A multi-select is a set; true is the only value allowed.',
  })
  uniqueItems?: boolean;
}

export class AnswerSchema {
  @ApiPropertyOptional({ enum: [JSON_SCHEMA_2020_12] }) $schema?: string;
  @ApiProperty({ enum: ['object'] }) type: 'object';
  @ApiPropertyOptional({ maxLength: FIELD_TITLE_MAX_LENGTH }) title?: string;
  @ApiPropertyOptional({ maxLength: FIELD_DESCRIPTION_MAX_LENGTH }) description?: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/AnswerSchemaField' },
    description: `1 to ${ANSWER_SCHEMA_MAX_FIELDS} fields; a name starts with a letter and holds letters, digits and _ (at most 64).`,
  })
  properties: Record<string, AnswerSchemaField>;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    maxItems: ANSWER_SCHEMA_MAX_FIELDS,
    description: 'The fields every answer must give.',
  })
  required?: string[];

  @ApiPropertyOptional({
    enum: [false],
    description: 'Undeclared fields are refused whether or not this says so.',
  })
  additionalProperties?: boolean;
}

export const ANSWER_SCHEMA_DESCRIPTION =
  'What the worker must answer, as JSON Schema 2020-12 (the subset of product-decisions §17): an object of at most ' +
  `${ANSWER_SCHEMA_MAX_FIELDS} fields, each with a \`title\`, plus \`required\`; at most ${ANSWER_SCHEMA_MAX_BYTES} bytes. ` +
  `With one, result_data must follow it (400 answer_invalid names each wrong field) and may be up to ${ANSWER_DATA_MAX_BYTES} ` +
  'bytes (a schema whose largest answer would not fit is refused); without one, result_data is free-form JSON of at most ' +
  '16384 bytes, as always. A problem with the schema itself is 400 validation_error naming its path ' +
  '(`answer_schema.properties.open.type`). Guide: /docs/typed-answers.md.';

export class ReviewPolicy {
  @ApiProperty({ enum: REVIEW_POLICY_TYPES }) type: 'agreement';

  @ApiProperty({
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    minItems: 1,
    maxItems: ANSWER_SCHEMA_MAX_FIELDS,
    description:
      'Required fields of answer_schema compared between submissions: boolean, choice, integer, date or multi-select ' +
      '(compared as sets).',
  })
  fields: string[];

  @ApiProperty({
    type: 'integer',
    minimum: 2,
    maximum: MAX_WORKERS_LIMIT,
    description: 'How many submissions must agree, 2 to max_workers.',
  })
  min_agreeing: number;
}

export const REVIEW_POLICY_DESCRIPTION =
  'Agreement review for several workers: once `min_agreeing` submissions give the same answers to `fields`, they are ' +
  'approved and paid automatically, and so is every later submission that agrees with them; no new offers go out ' +
  '(unfilled slots are refunded at the deadline). A submission that disagrees waits for your verdict (and the ' +
  '72-hour auto-approval): disagreement never rejects anyone. Needs answer_schema.';
