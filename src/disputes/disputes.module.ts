import { Module } from '@nestjs/common';
import { EscrowModule } from '../escrow/escrow.module';
import { UploadModule } from '../upload/upload.module';
import { AdminDisputesController } from './controllers/admin-disputes.controller';
import { AgentDisputesController } from './controllers/agent-disputes.controller';
import { WorkerDisputesController } from './controllers/worker-disputes.controller';
import { DisputeDecisions } from './services/dispute-decisions.service';
import { DisputesService } from './services/disputes.service';

/** Workers' disputes of rejections, the agents' answers and the operators' decisions (product-decisions §19). */
@Module({
  imports: [EscrowModule, UploadModule],
  controllers: [WorkerDisputesController, AgentDisputesController, AdminDisputesController],
  providers: [DisputesService, DisputeDecisions],
})
export class DisputesModule {}
