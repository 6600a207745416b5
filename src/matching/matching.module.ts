import { Module } from '@nestjs/common';
import { AgentRatingsService } from './services/agent-ratings.service';
import { AvailabilityService } from './services/availability.service';
import { AvailabilityController } from './controllers/availability.controller';
import { ConsentController } from './controllers/consent.controller';
import { WorkerRatingsController } from './controllers/worker-ratings.controller';
import { NearbyTasks } from './services/nearby-tasks';
import { PositionErasure } from './services/position-erasure';
import { WorkerRanking } from './services/worker-ranking';
import { WorkerReputation } from './services/worker-reputation';
import { WorkerConsents } from './services/worker-consents';

/**
 * Who and where: worker availability and the consent to precise location it needs, the nearby-task search (pull), ranking online workers for an open slot
 * (push), workers' ratings of agents, and worker reputation with the live-assignment cap it sets. It changes no
 * task or assignment state: the task module places offers with WorkerRanking and recomputes reputation with
 * WorkerReputation under its own task lock, so this module sits below TaskModule and never imports it.
 */
@Module({
  controllers: [AvailabilityController, ConsentController, WorkerRatingsController],
  providers: [
    AvailabilityService,
    NearbyTasks,
    WorkerRanking,
    WorkerReputation,
    AgentRatingsService,
    PositionErasure,
    WorkerConsents,
  ],
  exports: [AvailabilityService, NearbyTasks, WorkerRanking, WorkerReputation, PositionErasure],
})
export class MatchingModule {}
