import { Module } from '@nestjs/common';
import { AgentMessagesController } from './controllers/agent-messages.controller';
import { FlaggedMessagesController } from './controllers/flagged-messages.controller';
import { WorkerMessagesController } from './controllers/worker-messages.controller';
import { FlaggedMessagesService } from './services/flagged-messages.service';
import { MessagesService } from './services/messages.service';

/** Messages between the agent and the worker of an assignment, and the operators' list of flagged ones (§19). */
@Module({
  controllers: [AgentMessagesController, WorkerMessagesController, FlaggedMessagesController],
  providers: [MessagesService, FlaggedMessagesService],
})
export class MessagesModule {}
