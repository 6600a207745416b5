import { ApiProperty } from '@nestjs/swagger';

/**
 * How the agent who posted a task has treated results lately (product-decisions §19): what a worker weighs before
 * taking it. Counts only; nothing names another worker or task.
 */
export class AgentRecordView {
  @ApiProperty({
    type: 'integer',
    example: 10,
    description:
      "The agent's results decided in the last 90 days: approved (by the agent, automatically or by agreement) or rejected.",
  })
  decided: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1,
    example: 0.2,
    description: 'Rejected / decided over the last 90 days; null when fewer than 5 results were decided.',
  })
  rejection_rate: number | null;

  @ApiProperty({
    type: 'integer',
    example: 1,
    description:
      "Disputes of the agent's rejections decided against it (overturned or split) in the last 90 days.",
  })
  disputes_lost: number;
}
