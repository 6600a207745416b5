import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { TASK_STATUSES } from '../domain/task-status';

export const ANSWER_EXPORT_FORMATS = ['csv', 'xlsx', 'excel', 'jsonl'] as const;
export type AnswerExportFormat = (typeof ANSWER_EXPORT_FORMATS)[number];
export const ANSWER_EXPORT_MAX_TASK_IDS = 100;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** The answers export's filters: the task list's (`status`) and/or an explicit list of tasks. */
export class AnswersExportQuery {
  @ApiPropertyOptional({
    enum: ANSWER_EXPORT_FORMATS,
    default: 'csv',
    description:
      'csv: UTF-8 with a byte-order mark (Excel reads Chinese right), CRLF; xlsx (or excel): a workbook with one sheet; ' +
      'jsonl: one JSON object per line, the answers as typed values.',
  })
  @IsOptional()
  @IsIn(ANSWER_EXPORT_FORMATS)
  format: AnswerExportFormat = 'csv';

  @ApiPropertyOptional({
    enum: TASK_STATUSES,
    description: 'Only tasks in this status, as the task list filters.',
  })
  @IsOptional()
  @IsIn(TASK_STATUSES)
  status?: (typeof TASK_STATUSES)[number];

  @ApiPropertyOptional({
    description: `Only these tasks: comma-separated task ids, at most ${ANSWER_EXPORT_MAX_TASK_IDS}, every one yours.`,
    example: '3f1c2b7e-0d4a-4c8e-9a51-2b6f7d8e9a10,7a2d9c41-5e3b-4f6a-8b1c-0e9d8c7b6a54',
  })
  @IsOptional()
  @IsString()
  @Matches(new RegExp(`^${UUID}(,${UUID}){0,${ANSWER_EXPORT_MAX_TASK_IDS - 1}}$`), {
    message: `must be 1 to ${ANSWER_EXPORT_MAX_TASK_IDS} task ids separated by commas`,
  })
  task_ids?: string;
}
