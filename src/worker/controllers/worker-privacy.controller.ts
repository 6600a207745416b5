import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { WorkerDataExportResponse } from '../dtos/worker-data-export.dto';
import { DeleteAccountRequest, DeleteAccountResponse } from '../dtos/worker-deletion.dto';
import { WorkerDataExportService } from '../services/worker-data-export.service';
import { WorkerDeletionService } from '../services/worker-deletion.service';

/** The worker's rights over their data (PIPL; product-decisions §19). */
@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerPrivacyController {
  constructor(
    private readonly exports: WorkerDataExportService,
    private readonly deletion: WorkerDeletionService,
  ) {}

  @Get('data-export')
  @ApiOperation({
    summary: 'A copy of everything Legwork holds about you, as JSON',
    description:
      'Your profile (phone number included), last position, every assignment with the task as you saw it and what you submitted, your messages, uploads, earnings, withdrawals and the ratings you gave. Nothing about agents or other workers.',
  })
  @ApiOkResponse({ type: WorkerDataExportResponse })
  export(@CurrentActor() actor: WorkerActor): Promise<WorkerDataExportResponse> {
    return this.exports.export(actor);
  }

  @Post('delete-account')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Delete your account: your personal data is erased, you can no longer sign in',
    description:
      'Needs your login password (a wrong one counts toward the login lock-out). Refused while you have open offers, tasks or submissions under review (409 open_assignments) disputes not yet decided (409 open_disputes) or withdrawals under review or being paid (409 open_withdrawals). Erases your phone number, name, skills, positions, your photos’ locations, your messages’ text and your consents; keeps the ledger and the tasks you delivered under an id nothing links to you, and holds your withdrawals’ payee hidden for the statutory period (docs/workers-rights.md). Money left on your balance is not paid out: withdraw it first.',
  })
  @ApiAcceptedResponse({ type: DeleteAccountResponse })
  @ApiErrors({
    400: ['validation_error'],
    401: ['invalid_credentials'],
    403: ['account_disabled'],
    409: ['open_assignments', 'open_disputes', 'open_withdrawals'],
    429: ['account_locked'],
  })
  deleteAccount(
    @CurrentActor() actor: WorkerActor,
    @Body() dto: DeleteAccountRequest,
  ): Promise<DeleteAccountResponse> {
    return this.deletion.delete(actor, dto);
  }
}
