import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AnswerSchemaField } from '../dtos/answer-schema.dto';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { CreateTaskRequest } from '../dtos/create-task.dto';
import { TaskQuoteResponse } from '../dtos/task-quote.dto';
import { ListTasksQuery, TaskFeedbackRequest } from '../dtos/task-requests.dto';
import {
  FeedbackResponse,
  TaskListPage,
  TaskResultResponse,
  TaskStatusResponse,
} from '../dtos/task-response.dto';
import { TaskQueryService } from '../services/task-query.service';
import { TaskQuoteService } from '../services/task-quote.service';
import { TaskReviewService } from '../services/task-review.service';
import { UuidParam } from '../../common/http/uuid-param';
import { RateLimitAgentRoute } from '../../common/rate-limit/rate-limit.guard';
import { CreateTaskBody, FeedbackBody } from './agent-task-docs';
import { Claims } from '../../idempotency/claims.decorator';
import type { HeldClaims } from '../../idempotency/idempotency-context';

/** Agent task operations that are identical on both surfaces. */
@ApiTags('tasks')
// An answer schema's fields are a map of these (AnswerSchema.properties), referenced by name.
@ApiExtraModels(AnswerSchemaField)
@Controller(['v1/tasks', 'api/v1/tasks'])
export class AgentTasksController {
  constructor(
    private readonly query: TaskQueryService,
    private readonly review: TaskReviewService,
    private readonly quotes: TaskQuoteService,
  ) {}

  @Post('quote')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @RateLimitAgentRoute('quote')
  @ApiOperation({
    summary: 'Price a task without creating it',
    description:
      'Takes a creation body and answers what creating it now would cost and do: the split per slot and in total, the amount held in escrow, whether your balance covers it and the concurrency limit allows it, the refund policy in cents for each situation, the auto-approval delay, and roughly how many eligible workers are online nearby. Nothing is created, held or reserved; the same body is validated exactly as creation validates it (400 validation_error). A dry run of creation, so it needs the `task:create` permission.\n\n' +
      '**Workers nearby are coarse on purpose**, so that quotes cannot locate anyone: people are counted around the centre of the 500 m grid cell holding the point, within `location.max_distance_meters` or 2,000 m, whichever is larger (`workers.radius_meters` says which), and `eligible_online` and `available_now` are the lower bound of a bucket: 0, 1 (1 to 4), 5 (5 to 19), 20 (20 to 99), 100 (100 and more). In sandbox mode `workers.simulated_online` counts your own simulated workers exactly, as the offers would reach them.\n\n' +
      '**Quotes have a budget of their own**: 20 a minute and 500 a day per agent by default (`QUOTE_RATE_LIMIT_PER_MINUTE`, `QUOTE_RATE_LIMIT_PER_DAY`), counted besides your general budget; the `X-RateLimit-*` headers of a quote report the quote budget per minute. Beyond it: 429 rate_limit_exceeded with `Retry-After`.',
  })
  @CreateTaskBody()
  @ApiOkResponse({ type: TaskQuoteResponse })
  @ApiErrors({ 400: ['validation_error'], 429: ['rate_limit_exceeded'] })
  quote(@CurrentActor() actor: AgentActor, @Body() dto: CreateTaskRequest): Promise<TaskQuoteResponse> {
    return this.quotes.quote(actor, dto);
  }

  @Get()
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'List your tasks, newest first (cursor paging)',
    description:
      'Your tasks only, newest first, optionally by `status`. Page with `starting_after` (the last task_id) while `has_more` is true. Needs `task:read`.',
  })
  @ApiOkResponse({ type: TaskListPage })
  @ApiErrors({ 400: ['validation_error'] })
  list(@CurrentActor() actor: AgentActor, @Query() q: ListTasksQuery): Promise<TaskListPage> {
    return this.query.list(actor, q);
  }

  @Get(':task_id')
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'Task status, progress and assignments',
    description:
      'Status, progress (assigned, completed and open slots) and every assignment with its worker, reputation and status. Another agent’s task is 404 task_not_found. Needs `task:read`.',
  })
  @ApiOkResponse({ type: TaskStatusResponse })
  @ApiErrors({ 404: ['task_not_found'] })
  get(@CurrentActor() actor: AgentActor, @UuidParam('task_id') taskId: string): Promise<TaskStatusResponse> {
    return this.query.get(actor, taskId);
  }

  @Get(':task_id/result')
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'Submitted results, to review before you decide (available once a worker submits)',
    description:
      'Answers as soon as a worker has submitted (404 result_not_available with `current_status` before). `result` is the first approved result, else the first awaiting review (null if all were rejected); `results` lists approved results with their quality score; `submissions` every submitted, approved or rejected result with its data, notes, photos (each with its location `verification`) and device location. Needs `task:read`.',
  })
  @ApiOkResponse({ type: TaskResultResponse })
  @ApiErrors({ 404: ['task_not_found', 'result_not_available'] })
  result(
    @CurrentActor() actor: AgentActor,
    @UuidParam('task_id') taskId: string,
  ): Promise<TaskResultResponse> {
    return this.query.result(actor, taskId);
  }

  @Post(':task_id/feedback')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @ApiOperation({
    summary: 'Accept or reject submitted results',
    description:
      'Accepting (rating and quality_score required) pays each approved slot and closes unfilled slots (refunded); rejecting (reason_code and scores optional; no reason_code is `other`) refunds the slot in full, and the worker sees the reason and feedback_text. Without assignment_id the verdict applies to every submitted result.',
  })
  @FeedbackBody()
  @ApiOkResponse({ type: FeedbackResponse })
  @ApiErrors({
    400: ['validation_error'],
    404: ['task_not_found', 'assignment_not_found'],
    409: ['invalid_state'],
  })
  feedback(
    @CurrentActor() actor: AgentActor,
    @UuidParam('task_id') taskId: string,
    @Body() dto: TaskFeedbackRequest,
    @Claims() claims: HeldClaims,
  ): Promise<FeedbackResponse> {
    return this.review.feedback(actor, taskId, dto, claims);
  }
}
