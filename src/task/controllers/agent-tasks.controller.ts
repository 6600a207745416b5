import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { ListTasksQuery, TaskFeedbackRequest } from '../dtos/task-requests.dto';
import {
  FeedbackResponse,
  TaskListPage,
  TaskResultResponse,
  TaskStatusResponse,
} from '../dtos/task-response.dto';
import { TaskQueryService } from '../services/task-query.service';
import { TaskReviewService } from '../services/task-review.service';
import { UuidParam } from '../../common/http/uuid-param';

/** Agent task operations that are identical on both surfaces. */
@ApiTags('tasks')
@Controller(['v1/tasks', 'api/v1/tasks'])
export class AgentTasksController {
  constructor(
    private readonly query: TaskQueryService,
    private readonly review: TaskReviewService,
  ) {}

  @Get()
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({ summary: 'List your tasks, newest first (cursor paging)' })
  @ApiOkResponse({ type: TaskListPage })
  @ApiErrors({ 400: ['validation_error'] })
  list(@CurrentActor() actor: AgentActor, @Query() q: ListTasksQuery): Promise<TaskListPage> {
    return this.query.list(actor, q);
  }

  @Get(':task_id')
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({ summary: 'Task status, progress and assignments' })
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
      'result is the first approved result, else the first awaiting review; submissions lists every submitted, approved or rejected result with its data, notes and photos. 404 result_not_available until a worker submits.',
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
      'Accepting (rating and quality_score required) pays each approved slot and closes unfilled slots (refunded); rejecting (reason_code required, scores optional) refunds the slot, and the worker sees the reason and feedback_text. Without assignment_id the verdict applies to every submitted result.',
  })
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
  ): Promise<FeedbackResponse> {
    return this.review.feedback(actor, taskId, dto);
  }
}
