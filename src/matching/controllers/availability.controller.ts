import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { AvailabilityService } from '../services/availability.service';
import { AvailabilityResponse, UpdateAvailabilityRequest } from '../dtos/availability.dto';
import { POSITION_FRESH_MINUTES } from '../offer-policy';

@ApiTags('worker matching')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class AvailabilityController {
  constructor(private readonly availability: AvailabilityService) {}

  @Get('availability')
  @ApiOperation({
    summary: 'Whether you are on call, until when, and whether your position is fresh enough to match',
    description:
      'The server’s view, which the app shows on load: on call or not, when that ends, the last position and its age.',
  })
  @ApiOkResponse({ type: AvailabilityResponse })
  get(@CurrentActor() actor: WorkerActor): Promise<AvailabilityResponse> {
    return this.availability.get(actor);
  }

  @Put('availability')
  @ApiOperation({
    summary: 'Go on call (or off) and report your position',
    description: `online: true puts you on call until you send online: false, or for ON_CALL_HOURS (8 by default) after the last such report; going on call offers you the best open task nearby if you have no offer waiting. Offers reach workers on call within a task's radius whose position is at most ${POSITION_FRESH_MINUTES} minutes old: keep reporting it while the app is open. Going on call and reporting a position need your current consent to precise location (403 consent_required otherwise: see GET /v1/worker/consents); going off call without a position never does.`,
  })
  @ApiOkResponse({ type: AvailabilityResponse })
  @ApiErrors({ 400: ['validation_error'], 403: ['consent_required'] })
  update(
    @CurrentActor() actor: WorkerActor,
    @Body() dto: UpdateAvailabilityRequest,
  ): Promise<AvailabilityResponse> {
    return this.availability.update(actor, dto);
  }
}
