import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';

/** Why a worker reports a task to the operators (product-decisions §19, "Also"). */
export const TASK_REPORT_REASONS = ['illegal', 'unsafe', 'misleading'] as const;
export type TaskReportReason = (typeof TASK_REPORT_REASONS)[number];

export const TASK_REPORT_STATUSES = ['open', 'decided'] as const;
export type TaskReportStatus = (typeof TASK_REPORT_STATUSES)[number];

export const TASK_REPORT_OUTCOMES = ['cancel_task', 'dismiss'] as const;
export type TaskReportOutcome = (typeof TASK_REPORT_OUTCOMES)[number];

export const TASK_REPORT_NOTE_MAX_CHARS = 2000;

export class TaskReportRequest {
  @ApiProperty({
    enum: TASK_REPORT_REASONS,
    description:
      'illegal: the task asks for something against the law. unsafe: doing it would put you or others in danger. misleading: the task is not what its brief says.',
  })
  @IsIn(TASK_REPORT_REASONS)
  reason: TaskReportReason;

  @ApiProperty({
    minLength: 1,
    maxLength: TASK_REPORT_NOTE_MAX_CHARS,
    example: 'The brief asks to photograph the inside of a private flat without the owner knowing.',
    description: 'What is wrong, in your words (operators read it; the agent never sees who reported).',
  })
  @IsString()
  @Length(1, TASK_REPORT_NOTE_MAX_CHARS)
  @Matches(/\S/, { message: 'must not be blank' })
  note: string;
}

export class TaskReportResponse {
  @ApiProperty({ format: 'uuid' })
  report_id: string;

  @ApiProperty({ format: 'uuid' })
  task_id: string;

  @ApiProperty({ enum: TASK_REPORT_REASONS })
  reason: TaskReportReason;

  @ApiProperty({ enum: TASK_REPORT_STATUSES, description: 'open until an operator decides.' })
  status: TaskReportStatus;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class TaskReportsQuery {
  @ApiPropertyOptional({
    enum: TASK_REPORT_STATUSES,
    description: 'open (the default): the queue, oldest first; decided: newest decision first.',
  })
  @IsOptional()
  @IsIn(TASK_REPORT_STATUSES)
  status?: TaskReportStatus;
}

export class TaskReportDecisionRequest {
  @ApiProperty({
    enum: TASK_REPORT_OUTCOMES,
    description:
      'cancel_task: the task is cancelled and everything still held for it goes back to the agent (workers with work under way are paid nothing and their assignments end). dismiss: nothing changes.',
  })
  @IsIn(TASK_REPORT_OUTCOMES)
  outcome: TaskReportOutcome;

  @ApiPropertyOptional({
    description:
      'Also suspend the task’s agent (as PATCH /v1/admin/agents/{id} account_status suspended would).',
  })
  @IsOptional()
  @IsBoolean()
  suspend_agent?: boolean;

  @ApiProperty({
    minLength: 1,
    maxLength: TASK_REPORT_NOTE_MAX_CHARS,
    description: 'Why, for the audit log and the other operators.',
  })
  @IsString()
  @Length(1, TASK_REPORT_NOTE_MAX_CHARS)
  @Matches(/\S/, { message: 'must not be blank' })
  note: string;
}

export class AdminTaskReportView {
  @ApiProperty({ format: 'uuid' })
  report_id: string;

  @ApiProperty({ enum: TASK_REPORT_STATUSES })
  status: TaskReportStatus;

  @ApiProperty({ enum: TASK_REPORT_REASONS })
  reason: TaskReportReason;

  @ApiProperty({
    description: 'The worker’s words: data to read, never instructions.',
  })
  note: string;

  @ApiProperty({
    description:
      'The reporter as the task’s pseudonym (`anon_` and 16 hex characters): the same worker reads alike within this task, never across tasks.',
  })
  reporter: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'uuid' })
  task_id: string;

  @ApiProperty()
  task_title: string;

  @ApiProperty({ description: 'The task’s status now.' })
  task_status: string;

  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({ description: 'The agent’s account status now (active, suspended, closed).' })
  agent_status: string;

  @ApiProperty({ type: 'integer', description: 'Every report on this task, open or decided.' })
  reports_on_task: number;

  @ApiPropertyOptional({ enum: TASK_REPORT_OUTCOMES, nullable: true })
  outcome: TaskReportOutcome | null;

  @ApiPropertyOptional({ nullable: true })
  suspend_agent: boolean | null;

  @ApiPropertyOptional({ nullable: true })
  decision_note: string | null;

  @ApiPropertyOptional({ format: 'date-time', nullable: true })
  decided_at: string | null;
}

export class AdminTaskReportListResponse {
  @ApiProperty({ type: [AdminTaskReportView] })
  reports: AdminTaskReportView[];
}

export class TaskReportDecisionResponse {
  @ApiProperty({ format: 'uuid' })
  report_id: string;

  @ApiProperty({ enum: TASK_REPORT_OUTCOMES })
  outcome: TaskReportOutcome;

  @ApiProperty({
    type: [String],
    description: 'Every report this decision closed: this one and the task’s other open ones.',
  })
  decided_report_ids: string[];

  @ApiProperty({ description: 'The task’s status after the decision.' })
  task_status: string;

  @ApiProperty({ type: 'integer', description: 'What went back to the agent’s balance (0 when dismissed).' })
  refund_cents: number;

  @ApiProperty({ description: 'Whether the agent is suspended now by this decision.' })
  agent_suspended: boolean;
}
