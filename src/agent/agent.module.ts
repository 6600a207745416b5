import { Module } from '@nestjs/common';
import { AgentAuthService } from './services/agent-auth.service';
import { EscrowModule } from '../escrow/escrow.module';
import { AgentProfileService } from './services/agent-profile.service';
import { ApiKeysService } from './services/api-keys.service';
import { AgentApiKeysController } from './controllers/agent-api-keys.controller';
import { AgentAuthController } from './controllers/agent-auth.controller';
import { AgentProfileController } from './controllers/agent-profile.controller';

/** Agent accounts: registration, login and refresh, the profile, and the agent's single API key. */
@Module({
  imports: [EscrowModule],
  controllers: [AgentAuthController, AgentProfileController, AgentApiKeysController],
  providers: [AgentAuthService, AgentProfileService, ApiKeysService],
})
export class AgentModule {}
