import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { WorkerActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import { RateLimitWriteRoute } from '../../common/rate-limit/rate-limit.guard';
import { TaskReportRequest, TaskReportResponse } from '../dtos/task-reports.dto';
import { TaskReportsService } from '../services/task-reports.service';

/** A worker reports a task to the operators (worker JWT), on both prefixes like the other worker routes. */
@ApiTags('worker tasks')
@Auth({ actors: ['worker'] })
@Controller(['v1/worker/tasks', 'api/v1/worker/tasks'])
export class WorkerTaskReportsController {
  constructor(private readonly reports: TaskReportsService) {}

  @Post(':task_id/report')
  @RateLimitWriteRoute('report')
  @ApiOperation({
    summary: 'Report a task to the operators: illegal, unsafe or misleading',
    description:
      'For a task you can see: offered to you, one you hold or held, or one the available list shows you. An operator reads it and may cancel the task (everything held goes back to the agent) and suspend the agent; the agent is never told who reported. One open report per task: a second is 409 already_reported. Its own budget of writes per minute, besides your general one. Any other task: 404 task_not_found.',
  })
  @ApiCreatedResponse({ type: TaskReportResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['task_not_found'], 409: ['already_reported'] })
  report(
    @CurrentActor() actor: WorkerActor,
    @UuidParam('task_id') taskId: string,
    @Body() dto: TaskReportRequest,
  ): Promise<TaskReportResponse> {
    return this.reports.report(actor, taskId, dto);
  }
}
