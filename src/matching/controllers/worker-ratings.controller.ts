import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiOkResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ErrorEnvelope } from '../../common/errors/error-envelope.dto';
import { UuidParam } from '../../common/http/uuid-param';
import { AgentRatingsService } from '../services/agent-ratings.service';
import { WorkerRatingCreate, WorkerRatingResponse } from '../dtos/rating.dto';

@ApiTags('worker matching')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker', 'api/v1/worker'])
export class WorkerRatingsController {
  constructor(private readonly ratings: AgentRatingsService) {}

  @Post('tasks/:task_id/rate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rate the agent of a completed task on which your result was approved (once)',
    description:
      '403 forbidden covers both "your result was not approved here" and "the task is not completed".',
  })
  @ApiOkResponse({ type: WorkerRatingResponse })
  @ApiBadRequestResponse({ type: ErrorEnvelope, description: 'validation_error' })
  @ApiNotFoundResponse({ type: ErrorEnvelope, description: 'task_not_found' })
  @ApiConflictResponse({ type: ErrorEnvelope, description: 'already_rated' })
  rate(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('task_id') taskId: string,
    @Body() dto: WorkerRatingCreate,
  ): Promise<WorkerRatingResponse> {
    return this.ratings.rate(actor, taskId, dto);
  }
}
