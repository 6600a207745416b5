import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { SandboxSmsList, SandboxSmsQuery } from '../dtos/sandbox-sms.dto';
import { SandboxSmsService } from '../services/sandbox-sms.service';

/** The sandbox's SMS outbox (sandbox mode only; not mounted in live mode, so 404 there). */
@ApiTags('sandbox')
@Controller(['v1/sandbox/sms', 'api/v1/sandbox/sms'])
export class SandboxSmsController {
  constructor(private readonly outbox: SandboxSmsService) {}

  @Get()
  @Auth({ actors: ['worker'] })
  @ApiOperation({
    summary: 'Sandbox only: the SMS sent to your own phone number, newest first',
    description:
      'Sandbox mode sends no SMS: each message (verification codes, offer links) is kept here instead, for 7 days. ' +
      "A worker's token reads the messages sent to that worker's number and nobody else's: a code for a number not " +
      'registered yet is only ever in the `sandbox_code` of the send-sms answer, and an offer SMS says a worker was ' +
      'near a task, which the quote keeps private. 404 in live mode.',
  })
  @ApiOkResponse({ type: SandboxSmsList })
  @ApiErrors({ 400: ['validation_error'] })
  list(@CurrentActor() actor: WorkerActor, @Query() q: SandboxSmsQuery): Promise<SandboxSmsList> {
    return this.outbox.list(actor, q.limit);
  }
}
