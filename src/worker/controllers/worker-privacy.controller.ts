import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { WorkerDataExportResponse } from '../dtos/worker-data-export.dto';
import { WorkerDataExportService } from '../services/worker-data-export.service';

/** The worker's rights over their data (PIPL; product-decisions §19). */
@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerPrivacyController {
  constructor(private readonly exports: WorkerDataExportService) {}

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
}
