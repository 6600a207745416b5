import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '../../audit/operator-audit';
import { OperatorRequest } from '../../audit/operator-context';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import {
  AdminWorkerReviewListResponse,
  AdminWorkerReviewResponse,
  ListWorkerReviewsQuery,
  WorkerReviewDecisionRequest,
} from '../dtos/worker-review.dto';
import { WorkerReviewService } from '../services/worker-review.service';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@ApiErrors({ 400: ['validation_error'] })
@Controller('v1/admin/worker-reviews')
export class AdminWorkerReviewsController {
  constructor(private readonly reviews: WorkerReviewService) {}

  @Get()
  @ApiOperation({
    summary: 'Workers’ requests to look again (open: oldest first; decided: newest first)',
    description:
      'What workers asked a person to look at again (POST /v1/worker/reviews): a fraud hold or a suspension, the ' +
      'worker’s statement and what was decided. Operator JWT.',
  })
  @ApiOkResponse({ type: AdminWorkerReviewListResponse })
  list(@Query() query: ListWorkerReviewsQuery): Promise<AdminWorkerReviewListResponse> {
    return this.reviews.list(query);
  }

  @Post(':id/decision')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Answer a worker’s request: upheld or reversed',
    description:
      'reversed undoes the subject: a confirmed fraud loses its reputation penalty and the suspension it started; a suspension is lifted with its withdrawal pause. The worker is told with the note; audited. Answered once: then 409 invalid_state. Operator JWT.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: AdminWorkerReviewResponse })
  @ApiErrors({ 404: ['not_found'], 409: ['invalid_state'] })
  decide(
    @OperatorRequest() who: AuditActor,
    @UuidParam('id') id: string,
    @Body() dto: WorkerReviewDecisionRequest,
  ): Promise<AdminWorkerReviewResponse> {
    return this.reviews.decide(who, id, dto);
  }
}
