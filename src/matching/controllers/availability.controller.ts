import { Body, Controller, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { AvailabilityService } from '../services/availability.service';
import { AvailabilityResponse, UpdateAvailabilityRequest } from '../dtos/availability.dto';

@ApiTags('worker matching')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class AvailabilityController {
  constructor(private readonly availability: AvailabilityService) {}

  @Put('availability')
  @ApiOperation({
    summary: 'Report presence and position; online lapses 10 minutes after the last report',
    description:
      'Push offers go only to workers online within a task’s radius. Report `online: true` with your position while the app is open (at least every 10 minutes); `online: false` stops offers at once.',
  })
  @ApiOkResponse({ type: AvailabilityResponse })
  @ApiErrors({ 400: ['validation_error'] })
  update(
    @CurrentActor() actor: WorkerActor,
    @Body() dto: UpdateAvailabilityRequest,
  ): Promise<AvailabilityResponse> {
    return this.availability.update(actor, dto);
  }
}
