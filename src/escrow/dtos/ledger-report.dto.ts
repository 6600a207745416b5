import { ApiProperty } from '@nestjs/swagger';

export class LedgerViolationResponse {
  @ApiProperty({ example: 'cached balance equals the sum of postings' })
  invariant: string;

  @ApiProperty({ example: 'agent:…:available: cached 100, postings 90' })
  detail: string;
}

export class LedgerReportResponse {
  /** true when every invariant holds. */
  @ApiProperty()
  ok: boolean;

  @ApiProperty({ type: String, format: 'date-time' })
  checked_at: string;

  @ApiProperty({ type: 'integer', description: 'Number of ledger accounts.' })
  accounts: number;

  @ApiProperty({ type: 'integer', description: 'Number of journals.' })
  journals: number;

  @ApiProperty({ type: [LedgerViolationResponse] })
  violations: LedgerViolationResponse[];
}
