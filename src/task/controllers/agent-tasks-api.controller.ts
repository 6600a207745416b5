import { Body, Controller, Delete, Post, Res } from '@nestjs/common';
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

/** Reference surface: POST /api/v1/tasks and DELETE /api/v1/tasks/{task_id}. */
@ApiTags('tasks')
@Controller('api/v1/tasks')
export class AgentTasksApiController {
  constructor(
    private readonly creation: TaskCreationService,
    private readonly review: TaskReviewService,
  ) {}

  @Post()
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

  @Delete(':task_id')
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
