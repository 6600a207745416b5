import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '../../audit/operator-audit';
import { OperatorRequest } from '../../audit/operator-context';
import { Auth } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import {
  AdminTaskReportListResponse,
  AdminTaskReportView,
  TaskReportDecisionRequest,
  TaskReportDecisionResponse,
  TaskReportsQuery,
} from '../dtos/task-reports.dto';
import { TaskReportDecisions } from '../services/task-report-decisions.service';

@ApiTags('operator')
@Auth({ actors: ['admin'] })
@Controller('v1/admin/task-reports')
export class AdminTaskReportsController {
  constructor(private readonly decisions: TaskReportDecisions) {}

  @Get()
  @ApiOperation({
    summary: 'Workers’ reports of tasks (open: the queue, oldest first; decided: newest first)',
    description:
      'Each with the task’s title and status, its agent and the agent’s status, the reason and note, the reporter by the task’s pseudonym, and how many reports the task has. Operator JWT.',
  })
  @ApiOkResponse({ type: AdminTaskReportListResponse })
  @ApiErrors({ 400: ['validation_error'] })
  list(@Query() q: TaskReportsQuery): Promise<AdminTaskReportListResponse> {
    return this.decisions.list(q.status);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One worker’s report of a task, open or decided',
    description: 'The same view as the list, for any report however old. Operator JWT.',
  })
  @ApiOkResponse({ type: AdminTaskReportView })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'] })
  get(@UuidParam('id') id: string): Promise<AdminTaskReportView> {
    return this.decisions.get(id);
  }

  @Post(':id/decision')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Decide a report, and with it every open report of its task, once',
    description:
      'cancel_task cancels a live task and gives the agent back everything still held for it: open slots, offers, and work taken, under way or submitted (those workers are paid nothing and hear assignment.cancelled; the agent hears task.cancelled); slots already approved or rejected stay as they were. A task that has ended: 409 invalid_state (dismiss instead). suspend_agent suspends the agent as PATCH /v1/admin/agents/{id} does. Audited. A second decision: 409 invalid_state. Operator JWT.',
  })
  @ApiOkResponse({ type: TaskReportDecisionResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['not_found'], 409: ['invalid_state'] })
  decide(
    @OperatorRequest() who: AuditActor,
    @UuidParam('id') id: string,
    @Body() dto: TaskReportDecisionRequest,
  ): Promise<TaskReportDecisionResponse> {
    return this.decisions.decide(who, id, dto);
  }
}
