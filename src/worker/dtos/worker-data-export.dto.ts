import { ApiProperty } from '@nestjs/swagger';
import { WorkerEarningsResponse } from './worker-earnings.dto';

const rows = (description: string) =>
  ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description });

/**
 * A copy of everything Legwork holds about the worker (PIPL art. 45, product-decisions §19), and nothing about
 * anyone else: tasks appear by their title and place as the worker saw them, agents by nothing but the task.
 */
export class WorkerDataExportResponse {
  @ApiProperty({ format: 'date-time' })
  exported_at: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'worker_id, phone_number, display_name, skills, account_status, reputation and its parts, offer and money SMS settings, created_at.',
  })
  profile: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The last position and on-call state the server holds, null for none.',
  })
  availability: Record<string, unknown> | null;

  @rows('Every assignment (offers included) with its task as you saw it, your submission and the verdict.')
  assignments: Record<string, unknown>[];

  @rows('Every message of your threads, yours and the agents’ to you.')
  messages: Record<string, unknown>[];

  @rows('Your uploads: file, type, size, the location read from it, when.')
  uploads: Record<string, unknown>[];

  @ApiProperty({ type: WorkerEarningsResponse })
  earnings: WorkerEarningsResponse;

  @rows('Your withdrawals with the account they were paid to.')
  withdrawals: Record<string, unknown>[];

  @rows('Ratings you gave agents.')
  ratings_given: Record<string, unknown>[];

  @rows(
    'News of your money you were sent (paid, rejected with the reason, disputes decided), and when you read it.',
  )
  notifications: Record<string, unknown>[];
}
