import { Body, Controller, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
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
  })
  @ApiOkResponse({ type: AvailabilityResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  update(
    @CurrentActor() actor: WorkerActor,
    @Body() dto: UpdateAvailabilityRequest,
  ): Promise<AvailabilityResponse> {
    return this.availability.update(actor, dto);
  }
}
