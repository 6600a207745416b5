import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { DashboardStatsResponse, ExportQuery, StatsRangeQuery, UsageDataPoint } from '../dtos/stats.dto';
import { StatsExportService, XLSX_MIME } from '../services/stats-export.service';
import { StatsService } from '../services/stats.service';

/** Console statistics: JWT sessions only (spec, Authentication rule 1). */
@ApiTags('statistics')
@Auth({ actors: ['agent'], schemes: ['jwt'] })
@Controller(['v1/agent/stats', 'api/v1/agent/stats'])
export class AgentStatsController {
  constructor(
    private readonly stats: StatsService,
    private readonly exports: StatsExportService,
  ) {}

  @Get('dashboard')
  @ApiOperation({
    summary: 'Balance, escrow, task counts, success rate and API requests today',
    description:
      'One snapshot for the console: available balance and escrow, tasks by status, the approval rate of reviewed results and API requests today (UTC). Needs the JWT.',
  })
  @ApiOkResponse({ type: DashboardStatsResponse })
  dashboard(@CurrentActor() actor: AgentActor): Promise<DashboardStatsResponse> {
    return this.stats.dashboard(actor.id);
  }

  @Get('usage')
  @ApiOperation({
    summary: 'Requests, tasks created and spending per UTC day (every day of the range, at most 366)',
    description:
      'One row per UTC day of the range, days without activity included as zeros, at most 366 days. Needs the JWT.',
  })
  @ApiOkResponse({ type: [UsageDataPoint] })
  @ApiErrors({ 400: ['validation_error'] })
  usage(@CurrentActor() actor: AgentActor, @Query() query: StatsRangeQuery): Promise<UsageDataPoint[]> {
    return this.stats.usage(actor.id, query);
  }

  @Get('export')
  @ApiOperation({
    summary: 'Download the tasks and transactions of a range of UTC days as CSV or XLSX',
    description:
      'CSV: one RFC 4180 table (UTF-8 with BOM, CRLF) whose `record_type` column is `task` or `transaction`; free ' +
      'text starting with = + - @ is prefixed with a quote so spreadsheets do not run it. Excel: a workbook with ' +
      'the sheets `Tasks` and `Transactions`. Amounts are integer cents; times UTC.',
  })
  @ApiProduces('text/csv', XLSX_MIME)
  @ApiOkResponse({
    description: 'The file, as an attachment',
    content: {
      'text/csv': { schema: { type: 'string' } },
      [XLSX_MIME]: { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiErrors({ 400: ['validation_error'] })
  async export(@CurrentActor() actor: AgentActor, @Query() query: ExportQuery): Promise<StreamableFile> {
    const file = await this.exports.export(actor.id, query);
    return new StreamableFile(file.body, {
      type: file.contentType,
      disposition: `attachment; filename="${file.filename}"`,
      length: file.body.length,
    });
  }
}
