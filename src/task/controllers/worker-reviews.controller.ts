import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import {
  CreateWorkerReviewRequest,
  WorkerReviewResponse,
  WorkerReviewsResponse,
} from '../dtos/worker-review.dto';
import { WorkerReviewService } from '../services/worker-review.service';

@ApiTags('worker')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker/reviews', 'api/v1/worker/reviews'])
export class WorkerReviewsController {
  constructor(private readonly reviews: WorkerReviewService) {}

  @Get()
  @ApiOperation({
    summary: 'Your standing: suspensions, confirmed frauds and your review requests',
    description:
      'Works while suspended, so you can read why and ask for a review. subject_id values for POST come from here.',
  })
  @ApiOkResponse({ type: WorkerReviewsResponse })
  mine(@CurrentActor() actor: WorkerActor): Promise<WorkerReviewsResponse> {
    return this.reviews.mine(actor);
  }

  @Post()
  @ApiOperation({
    summary: 'Ask a person to look again at a confirmed fraud or a suspension (product-decisions §18)',
    description:
      'An operator answers (upheld or reversed) and you are told (worker.review_decided). One open request per subject: 409 review_already_open.',
  })
  @ApiCreatedResponse({ type: WorkerReviewResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'], 409: ['review_already_open', 'invalid_state'] })
  create(
    @CurrentActor() actor: WorkerActor,
    @Body() dto: CreateWorkerReviewRequest,
  ): Promise<WorkerReviewResponse> {
    return this.reviews.create(actor, dto);
  }
}
