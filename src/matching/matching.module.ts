import { Module } from '@nestjs/common';
import { AgentRatingsService } from './agent-ratings.service';
import { AvailabilityService } from './availability.service';
import { AvailabilityController } from './controllers/availability.controller';
import { WorkerRatingsController } from './controllers/worker-ratings.controller';
import { NearbyTasks } from './nearby-tasks.service';
import { WorkerRanking } from './worker-ranking.service';
import { WorkerReputation } from './worker-reputation.service';

/**
 * Who and where: worker availability, the nearby-task search (pull), ranking online workers for an open slot
 * (push), workers' ratings of agents, and worker reputation with the live-assignment cap it sets. It changes no
 * task or assignment state: the task module places offers with WorkerRanking and recomputes reputation with
 * WorkerReputation under its own task lock, so this module sits below TaskModule and never imports it.
 */
@Module({
  controllers: [AvailabilityController, WorkerRatingsController],
  providers: [AvailabilityService, NearbyTasks, WorkerRanking, WorkerReputation, AgentRatingsService],
  exports: [NearbyTasks, WorkerRanking, WorkerReputation],
})
export class MatchingModule {}
