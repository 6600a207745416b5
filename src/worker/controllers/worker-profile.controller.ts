import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
import { UpdateWorkerProfile, WorkerResponse } from '../dtos/worker-profile.dto';
import { WorkerProfileService } from '../services/worker-profile.service';

@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerProfileController {
  constructor(private readonly profiles: WorkerProfileService) {}

  @Get('profile')
  @ApiOperation({ summary: "The worker's own profile" })
  @ApiOkResponse({ type: WorkerResponse })
  profile(@CurrentActor() actor: WorkerActor): Promise<WorkerResponse> {
    return this.profiles.get(actor);
  }

  @Patch('profile')
  @ApiOperation({ summary: 'Change display_name and/or skills' })
  @ApiOkResponse({ type: WorkerResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  update(@CurrentActor() actor: WorkerActor, @Body() dto: UpdateWorkerProfile): Promise<WorkerResponse> {
    return this.profiles.update(actor, dto);
  }
}
