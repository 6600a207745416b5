import { ApiProperty } from '@nestjs/swagger';

export const SPEND_APPROVAL_STATUSES = ['pending', 'approved', 'declined', 'used', 'expired'] as const;
export type SpendApprovalStatus = (typeof SPEND_APPROVAL_STATUSES)[number];

/** A person's approval of one task over the spend cap (docs/spend-caps.md). */
export class SpendApprovalResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    enum: SPEND_APPROVAL_STATUSES,
    description:
      'pending: waiting for the person; approved: the task may now be created once with spend_approval_id; ' +
      'declined: refused, nothing changes; used: the task was created with it; expired: not decided or not used ' +
      'in time.',
  })
  status: SpendApprovalStatus;

  @ApiProperty({ type: 'integer', description: 'What the task costs (budget × workers), in cents.' })
  total_cents: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The task body the approval is for (the create body without spend_approval_id).',
  })
  task: Record<string, unknown>;

  @ApiProperty({
    format: 'uri',
    description:
      'The console page where the signed-in person approves or declines (open it, never fill it in).',
  })
  approval_url: string;

  @ApiProperty({ type: String, format: 'date-time' })
  expires_at: Date;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  decided_at: Date | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  used_at: Date | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The task created with it.' })
  task_id: string | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;
}
