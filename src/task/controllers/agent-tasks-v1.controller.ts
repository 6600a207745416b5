import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { CreateTaskRequest } from '../dtos/create-task.dto';
import { CancelTaskResponse, TaskResponse } from '../dtos/task-response.dto';
import { TaskCreationService } from '../services/task-creation.service';
import { TaskReviewService } from '../services/task-review.service';
import { CancelTaskDocs, CreateTaskDocs, markReplay } from './agent-task-docs';
import { UuidParam } from '../../common/http/uuid-param';
import { Claims } from '../../idempotency/claims.decorator';
import type { HeldClaims } from '../../idempotency/idempotency-context';

/** Machine-readable surface: POST /v1/tasks/create and POST /v1/tasks/{task_id}/cancel. */
@ApiTags('tasks')
@Controller('v1/tasks')
export class AgentTasksV1Controller {
  constructor(
    private readonly creation: TaskCreationService,
    private readonly review: TaskReviewService,
  ) {}

  @Post('create')
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @CreateTaskDocs()
  async create(
    @CurrentActor() actor: AgentActor,
    @Body() dto: CreateTaskRequest,
    @Claims() claims: HeldClaims,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TaskResponse> {
    const { body, replayed } = await this.creation.create(actor, dto, claims);
    markReplay(res, replayed);
    return body;
  }

  @Post(':task_id/cancel')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'task:cancel' })
  @CancelTaskDocs()
  cancel(
    @CurrentActor() actor: AgentActor,
    @UuidParam('task_id') taskId: string,
    @Claims() claims: HeldClaims,
  ): Promise<CancelTaskResponse> {
    return this.review.cancel(actor, taskId, claims);
  }
}
