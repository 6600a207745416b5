import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuditActor } from '../../audit/operator-audit';
import { OperatorRequest } from '../../audit/operator-context';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { AdminCreditService } from '../services/admin-credit.service';
import { AdminCreditRequest, AdminCreditResponse, AgentIdParam } from '../dtos/admin-credit.dto';
import { LedgerReportResponse } from '../dtos/ledger-report.dto';
import type { LedgerReport } from '../ledger-check';
import { LedgerReportService } from '../services/ledger-report.service';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@Controller('v1/admin')
export class AdminLedgerController {
  constructor(
    private readonly credits: AdminCreditService,
    private readonly reports: LedgerReportService,
  ) {}

  @Post('agents/:id/credit')
  @HttpCode(201)
  @ApiOperation({
    summary: "Credit an agent's balance by hand (a manual deposit, e.g. a bank transfer received)",
    description:
      'Posted through the ledger as a `deposit` from the bank clearing account and recorded with the operator and ' +
      'reason. With an `Idempotency-Key` a repeat credits nothing more and answers the original body with ' +
      '`Idempotent-Replayed: true`; without one every call is a new credit.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: '1-255 characters, scoped to the agent; the same key with another amount or reason is 409.',
  })
  @ApiCreatedResponse({ type: AdminCreditResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'], 409: ['idempotency_conflict'] })
  async credit(
    @OperatorRequest() who: AuditActor,
    @Param() params: AgentIdParam,
    @Body() dto: AdminCreditRequest,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AdminCreditResponse> {
    const result = await this.credits.credit(who, params.id, dto, idempotencyKey);
    if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
    return result.body;
  }

  @Get('ledger/check')
  @ApiOperation({
    summary: 'The ledger invariant report',
    description:
      'Balances sum to zero, cached balances equal their postings, no customer account below zero, every journal ' +
      'balances, finished tasks hold no escrow. Answers 200 with `ok: false` and the violations when any fails.',
  })
  @ApiOkResponse({ type: LedgerReportResponse })
  check(): Promise<LedgerReport> {
    return this.reports.report();
  }
}
