import { Module } from '@nestjs/common';
import { EscrowModule } from '../escrow/escrow.module';
import { AgentStatsController } from './controllers/agent-stats.controller';
import { StatsExportService } from './services/stats-export.service';
import { StatsService } from './services/stats.service';

/** Agent statistics and exports, read from tasks, the ledger (through EscrowModule) and recorded API usage. */
@Module({
  imports: [EscrowModule],
  controllers: [AgentStatsController],
  providers: [StatsService, StatsExportService],
})
export class StatsModule {}
