import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { checkLedger, LedgerReport } from '../ledger-check';

/** The invariant report for operators (the same checks as `npm run ledger:check` and the e2e after-file hook). */
@Injectable()
export class LedgerReportService {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  report(): Promise<LedgerReport> {
    return checkLedger(this.ds, this.clock.now());
  }
}
