import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '../../audit/operator-audit';
import { OperatorRequest } from '../../audit/operator-context';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import {
  ListProofReviewsQuery,
  ProofReviewDecisionRequest,
  ProofReviewListResponse,
  ProofReviewResponse,
} from '../dtos/proof-review.dto';
import { ProofReviewService } from '../services/proof-review.service';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@ApiErrors({ 400: ['validation_error'] })
@Controller('v1/admin/proof-reviews')
export class AdminProofReviewsController {
  constructor(private readonly reviews: ProofReviewService) {}

  @Get()
  @ApiOperation({
    summary: 'Flagged submissions: held high-risk results and what was decided (product-decisions §18)',
    description:
      'open (default): held high-risk submissions nobody decided, oldest first, and those approved after 14 days with a note; decided: newest decision first. Each with the evidence: photos and verification, the matched earlier photos of reused_photo, the worker, the task and its location, the position trail. Operator JWT.',
  })
  @ApiOkResponse({ type: ProofReviewListResponse })
  list(@Query() query: ListProofReviewsQuery): Promise<ProofReviewListResponse> {
    return this.reviews.list(query);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One flagged submission with its evidence',
    description:
      'The submission with its photos and verification (risk, signals with their details), the earlier photos a ' +
      'reused_photo signal matched (with their task, agent and worker: operators only), the worker’s reputation and ' +
      'standing, the task and its place, and the worker’s positions of the 24 hours before it. Operator JWT.',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The review id (the held assignment’s id).' })
  @ApiOkResponse({ type: ProofReviewResponse })
  @ApiErrors({ 404: ['not_found'] })
  get(@UuidParam('id') id: string): Promise<ProofReviewResponse> {
    return this.reviews.get(id);
  }

  @Post(':id/decision')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Decide a flagged submission: confirmed_fraud or cleared',
    description:
      'confirmed_fraud rejects a held result (its slot refunded as a rejection would; one approved after 14 days keeps its money), lowers the worker’s reputation by 1 and may suspend the worker and pause their withdrawals; cleared lifts the hold (auto-approval 72 hours from now). The worker is told why; the audit log records it. A review decides once: then 409 invalid_state. Operator JWT.',
  })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: ProofReviewResponse })
  @ApiErrors({ 404: ['not_found'], 409: ['invalid_state'] })
  decide(
    @OperatorRequest() who: AuditActor,
    @UuidParam('id') id: string,
    @Body() dto: ProofReviewDecisionRequest,
  ): Promise<ProofReviewResponse> {
    return this.reviews.decide(who, id, dto);
  }
}
