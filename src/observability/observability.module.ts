import {
  DynamicModule,
  Inject,
  Injectable,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Logger } from '../common/logging/logger';
import { JOBS_DATA_SOURCE } from '../database/data-source';
import { DatabaseGauges, exportDatabaseGauges, type LedgerCheck } from './database-gauges';
import { watchPool } from './pool-metrics';

export interface ObservabilityOptions {
  /**
   * Whether this process exports the gauges read from the database (escrow held, outbox, jobs, ledger check): the
   * job runner does, an API does only when it runs the jobs itself (JOBS_IN_PROCESS=true, one machine), so that
   * exactly one kind of process exports them (product-decisions §20).
   */
  databaseGauges: boolean;
  /** The ledger's invariant check (from the escrow module, which sits above this one); null: not exported. */
  ledgerCheck: LedgerCheck | null;
}

const OPTIONS = Symbol('OBSERVABILITY_OPTIONS');

/** Connects the process's metrics to its pools and, in the one exporting process, to the database gauges. */
@Injectable()
class MetricsSources implements OnModuleInit, OnApplicationShutdown {
  private readonly undo: (() => void)[] = [];

  constructor(
    @Inject(OPTIONS) private readonly options: ObservabilityOptions,
    @Inject(getDataSourceToken()) private readonly main: DataSource,
    @Inject(getDataSourceToken(JOBS_DATA_SOURCE)) private readonly jobs: DataSource,
    private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.undo.push(watchPool('main', this.main), watchPool('jobs', this.jobs));
    if (!this.options.databaseGauges) return;
    const gauges = new DatabaseGauges(this.main, this.logger, this.options.ledgerCheck);
    exportDatabaseGauges(gauges);
    this.undo.push(() => exportDatabaseGauges(null));
  }

  onApplicationShutdown(): void {
    for (const f of this.undo.splice(0)) f();
  }
}

@Module({})
export class ObservabilityModule {
  static register(options: ObservabilityOptions): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [{ provide: OPTIONS, useValue: options }, MetricsSources],
    };
  }
}
