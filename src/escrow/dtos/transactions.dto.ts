import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { IsIsoInstant } from '../../common/dates';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from '../services/agent-transactions';
import { OptionalInt } from '../../common/http/validators';

export class TransactionItem {
  /** Stable id of the movement (`txn_` + ledger journal id); usable as `starting_after`. */
  @ApiProperty({ example: 'txn_1042' })
  transaction_id: string;

  /** `payment`: escrow taken for a task; `refund`: escrow returned, or a payment refunded to the payer; `deposit`: money added. */
  @ApiProperty({ enum: TRANSACTION_TYPES })
  type: string;

  /** Sign convention: `amount` is always positive; `debit` lowered the available balance, `credit` raised it. */
  @ApiProperty({ enum: ['credit', 'debit'] })
  direction: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Payment order, for deposits and refunds of orders.',
  })
  order_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  task_id: string | null;

  /** Integer cents, always positive (see direction). */
  @ApiProperty({ type: 'integer', example: 5000, minimum: 1 })
  amount: number;

  @ApiProperty({ example: 'CNY' })
  currency: string;

  @ApiProperty({ enum: TRANSACTION_STATUSES })
  status: string;

  @ApiProperty()
  description: string;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;
}

/** Machine-readable form: offset pages. */
export class PaginatedTransactions {
  @ApiProperty({ type: [TransactionItem] })
  data: TransactionItem[];

  /** Number of transactions matching the filters. */
  @ApiProperty({ type: 'integer' })
  total: number;

  @ApiProperty({ type: 'integer' })
  skip: number;

  @ApiProperty({ type: 'integer' })
  limit: number;

  @ApiProperty()
  has_more: boolean;
}

/** Reference form: cursor pages. */
export class TransactionPage {
  @ApiProperty({ type: [TransactionItem] })
  data: TransactionItem[];

  @ApiProperty()
  has_more: boolean;

  /** Pass as `starting_after` for the next page; null on the last page. */
  @ApiProperty({ type: String, nullable: true, example: 'txn_1001' })
  next_cursor: string | null;
}

export class AgentTransactionsQuery {
  @OptionalInt({ min: 0, max: 10_000_000, default: 0 })
  skip: number = 0;

  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit: number = 20;

  /** Only transactions at or after this instant; a bare date means its 00:00 UTC. */
  @ApiPropertyOptional({ example: '2024-11-01' })
  @IsOptional()
  @IsIsoInstant()
  start_date?: string;

  /** Only transactions up to this instant; a bare date includes that whole UTC day. */
  @ApiPropertyOptional({ example: '2024-11-30T23:59:59Z' })
  @IsOptional()
  @IsIsoInstant()
  end_date?: string;
}

export class ReferenceTransactionsQuery {
  @ApiPropertyOptional({ enum: [...TRANSACTION_TYPES, 'all'], default: 'all' })
  @IsOptional()
  @IsIn([...TRANSACTION_TYPES, 'all'])
  type: string = 'all';

  @ApiPropertyOptional({ enum: [...TRANSACTION_STATUSES, 'all'], default: 'all' })
  @IsOptional()
  @IsIn([...TRANSACTION_STATUSES, 'all'])
  status: string = 'all';

  @OptionalInt({ min: 1, max: 100, default: 20 })
  limit: number = 20;

  /** A transaction_id from a previous page: the page starts right after it. */
  @ApiPropertyOptional({ example: 'txn_1042' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  starting_after?: string;
}
