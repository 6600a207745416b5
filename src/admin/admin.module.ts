import { Module } from '@nestjs/common';
import { AdminAgentsService } from './services/admin-agents.service';
import { AdminAuthService } from './services/admin-auth.service';
import { AdminAgentsController } from './controllers/admin-agents.controller';
import { AdminAuthController } from './controllers/admin-auth.controller';

/** The operator console API. Operator accounts are created from the command line (admin-create.cli.ts). */
@Module({
  controllers: [AdminAuthController, AdminAgentsController],
  providers: [AdminAuthService, AdminAgentsService],
})
export class AdminModule {}
