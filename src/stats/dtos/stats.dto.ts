import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsIsoInstant } from '../../common/dates';

export class TaskCounts {
  /** Every task the agent created. */
  @ApiProperty({ type: 'integer' }) total: number;
  /** Waiting for a worker. */
  @ApiProperty({ type: 'integer' }) pending: number;
  /** assigned + in_progress + submitted. */
  @ApiProperty({ type: 'integer' }) active: number;
  @ApiProperty({ type: 'integer' }) completed: number;
  @ApiProperty({ type: 'integer' }) failed: number;
  @ApiProperty({ type: 'integer' }) cancelled: number;
}

export class DashboardStatsResponse {
  /** Available balance, integer cents. */
  @ApiProperty({ type: 'integer', example: 125000 }) balance_cents: number;
  @ApiProperty({ example: 1250 }) balance_rmb: number;
  /** Held in escrow for unfinished tasks. */
  @ApiProperty({ type: 'integer', example: 6000 }) escrow_cents: number;
  @ApiProperty({ example: 60 }) escrow_rmb: number;
  @ApiProperty({ type: TaskCounts }) tasks: TaskCounts;
  /** completed / (completed + failed) as a fraction from 0 to 1 with 4 decimals; 0 when neither has happened. */
  @ApiProperty({ example: 0.8333, minimum: 0, maximum: 1 }) success_rate: number;
  /** Authenticated API requests of the agent today (UTC), API key and console together; counts land within seconds. */
  @ApiProperty({ type: 'integer', example: 42 }) api_usage_today: number;
}

export class UsageDataPoint {
  /** UTC day. */
  @ApiProperty({ example: '2024-11-01' }) date: string;
  /** Authenticated API requests (API key and console). */
  @ApiProperty({ type: 'integer' }) requests: number;
  @ApiProperty({ type: 'integer' }) tasks_created: number;
  /** Money that left the agent for good that day (payouts and fees of approved work, worker share of cancellations): the daily part of lifetime_spent_cents. */
  @ApiProperty({ type: 'integer' }) spend_cents: number;
}

export class StatsRangeQuery {
  /** First UTC day (YYYY-MM-DD; a date-time counts as its UTC day). */
  @ApiProperty({ example: '2024-11-01' })
  @IsIsoInstant()
  start_date: string;

  /** Last UTC day, included; the range covers at most 366 days. */
  @ApiProperty({ example: '2024-11-30' })
  @IsIsoInstant()
  end_date: string;
}

export const EXPORT_FORMATS = ['csv', 'excel'] as const;

export class ExportQuery extends StatsRangeQuery {
  /** `csv`: one RFC 4180 table with a record_type column; `excel`: an .xlsx workbook with sheets Tasks and Transactions. */
  @ApiPropertyOptional({ enum: EXPORT_FORMATS, default: 'csv' })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format: (typeof EXPORT_FORMATS)[number] = 'csv';
}
