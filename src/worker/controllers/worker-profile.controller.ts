import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UpdateWorkerProfile, WorkerResponse } from '../dtos/worker-profile.dto';
import { WorkerProfileService } from '../services/worker-profile.service';

@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerProfileController {
  constructor(private readonly profiles: WorkerProfileService) {}

  @Get('profile')
  @ApiOperation({
    summary: "The worker's own profile",
    description:
      'Phone number, display name, skills, reputation with its parts, completed tasks and account status.',
  })
  @ApiOkResponse({ type: WorkerResponse })
  profile(@CurrentActor() actor: WorkerActor): Promise<WorkerResponse> {
    return this.profiles.get(actor);
  }

  @Patch('profile')
  @ApiOperation({
    summary: 'Change display_name and/or skills',
    description: 'Only the fields sent change. Skills decide which tasks you are offered and may take.',
  })
  @ApiOkResponse({ type: WorkerResponse })
  @ApiErrors({ 400: ['validation_error'] })
  update(@CurrentActor() actor: WorkerActor, @Body() dto: UpdateWorkerProfile): Promise<WorkerResponse> {
    return this.profiles.update(actor, dto);
  }
}
