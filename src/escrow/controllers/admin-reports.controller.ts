import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { WorkerIncomeQuery } from '../dtos/worker-income.dto';
import { WorkerIncomeReport } from '../services/worker-income-report';

/** Reports operators file from the ledger (product-decisions §19). */
@ApiTags('operator')
@Auth({ actors: ['admin'] })
@Controller('v1/admin/reports')
export class AdminReportsController {
  constructor(private readonly income: WorkerIncomeReport) {}

  @Get('worker-income')
  @ApiOperation({
    summary: "The quarter's worker income as CSV, one row per worker paid",
    description:
      'From the ledger, per worker with money in the quarter: `gross` (what the work earned before the fee), ' +
      '`fees` (the platform fee taken from it), `net` (what reached the worker: approvals, accepted "could not do ' +
      'it" shares, disputes decided for the worker, cancellation compensation), `withdrawn` (completed withdrawals), ' +
      'each in integer cents and in yuan (`_rmb`, two decimals), and `tasks_paid`. The quarter is drawn in ' +
      'Asia/Shanghai time, and every row says so in `period_start` and `period_end` (UTC+8). `worker_id` is the ' +
      'id the other operator routes use. RFC 4180, CRLF; no cell holds user-written text.',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'The file, as an attachment',
    content: { 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiErrors({ 400: ['validation_error'] })
  async workerIncome(@Query() q: WorkerIncomeQuery, @Res() res: Response): Promise<void> {
    const file = await this.income.csv(q.quarter);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    res.send(file.body);
  }
}
