import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { AnswersExportQuery } from '../dtos/answers-export.dto';
import { AnswersExportService, XLSX_MIME } from '../services/answers-export.service';

/** The answers of your tasks as a file (product-decisions §17), on both surfaces. */
@ApiTags('tasks')
@Controller(['v1/tasks/answers', 'api/v1/tasks/answers'])
export class AnswersExportController {
  constructor(private readonly exports: AnswersExportService) {}

  @Get('export')
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'Download the submitted answers of your tasks as CSV, XLSX or JSON lines',
    description:
      'One row per submission (submitted, approved or rejected), one column per answer_schema field (every exported ' +
      'task’s fields, in declaration order; a task without a schema has its free-form data as JSON in `data`), then ' +
      '`photos` (the links, one per line) and `verification` (per photo: field, location source, distance, capture ' +
      'time, first use or reused, risk and its signal codes). Filter by `status` as the task list does, and/or name up to 100 `task_ids`. CSV is ' +
      'UTF-8 with a byte-order mark so spreadsheets read Chinese right; cells starting with = + - @ get a leading ' +
      'quote so spreadsheets never run them. jsonl keeps the typed answers and the full photo verification. Streamed: ' +
      'any size, rows oldest submission first. Needs `task:read`.',
  })
  @ApiProduces('text/csv', XLSX_MIME, 'application/x-ndjson')
  @ApiOkResponse({
    description: 'The file, as an attachment',
    content: {
      'text/csv': { schema: { type: 'string' } },
      [XLSX_MIME]: { schema: { type: 'string', format: 'binary' } },
      'application/x-ndjson': { schema: { type: 'string' } },
    },
  })
  @ApiErrors({ 400: ['validation_error'] })
  async export(
    @CurrentActor() actor: AgentActor,
    @Query() q: AnswersExportQuery,
    @Res() res: Response,
  ): Promise<void> {
    const plan = await this.exports.plan(actor, q);
    res.status(200);
    res.setHeader('Content-Type', plan.contentType);
    res.setHeader('Content-Disposition', `attachment; filename="${plan.filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    try {
      await plan.write(res);
      res.end();
    } catch {
      // After the first byte an error can no longer be an error envelope: the connection is reset instead, so the
      // client sees a failed download, never a file that looks complete.
      res.destroy();
    }
  }
}
