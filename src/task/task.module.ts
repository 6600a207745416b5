import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { WorkerPseudonyms } from './domain/worker-pseudonym';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { EscrowModule } from '../escrow/escrow.module';
import { MatchingModule } from '../matching/matching.module';
import { UploadModule } from '../upload/upload.module';
import { AdminProofReviewsController } from './controllers/admin-proof-reviews.controller';
import { AdminWorkerReviewsController } from './controllers/admin-worker-reviews.controller';
import { WorkerReviewsController } from './controllers/worker-reviews.controller';
import { AgentTasksApiController } from './controllers/agent-tasks-api.controller';
import { AgentTasksV1Controller } from './controllers/agent-tasks-v1.controller';
import { AgentTasksController } from './controllers/agent-tasks.controller';
import { AnswersExportController } from './controllers/answers-export.controller';
import { AnswersExportService } from './services/answers-export.service';
import { SpendApprovalsController } from './controllers/spend-approvals.controller';
import { SpendApprovals } from './services/spend-approvals';
import { WorkerTasksController } from './controllers/worker-tasks.controller';
import { AssignmentService } from './services/assignment.service';
import { TaskAcceptService } from './services/task-accept.service';
import { TaskCreationService } from './services/task-creation.service';
import { TaskDispatch } from './services/task-dispatch';
import { TaskAgreement } from './services/task-agreement';
import { PhotoSubmissionService } from './services/photo-submission.service';
import { PhotoVerifier } from './services/photo-verifier';
import { TaskEvents } from './services/task-events';
import { TaskQueryService } from './services/task-query.service';
import { TaskQuoteService } from './services/task-quote.service';
import { TaskReviewService } from './services/task-review.service';
import { TaskSettlement } from './services/task-settlement';
import { TaskOffers } from './services/task-offers';
import { ProofReviewService } from './services/proof-review.service';
import { WorkerReviewService } from './services/worker-review.service';
import { TaskTimers } from './services/task-timers';
import { WorkerTaskQueryService } from './services/worker-task-query.service';
import { WorkerOffersService } from './services/worker-offers.service';

/**
 * Tasks and their assignments: creation with escrow, the agent's reading, review and cancellation, the worker's
 * accept/start/submit/abandon, and the time-based rules (TaskTimers, run by the JobsModule).
 */
@Module({
  imports: [IdempotencyModule, EscrowModule, MatchingModule, UploadModule],
  controllers: [
    AnswersExportController,
    AgentTasksV1Controller,
    AgentTasksApiController,
    AgentTasksController,
    WorkerTasksController,
    SpendApprovalsController,
    AdminProofReviewsController,
    AdminWorkerReviewsController,
    WorkerReviewsController,
  ],
  providers: [
    TaskEvents,
    TaskSettlement,
    TaskDispatch,
    TaskAgreement,
    AnswersExportService,
    TaskCreationService,
    TaskQueryService,
    TaskQuoteService,
    TaskReviewService,
    TaskAcceptService,
    AssignmentService,
    PhotoSubmissionService,
    PhotoVerifier,
    WorkerTaskQueryService,
    WorkerOffersService,
    TaskTimers,
    TaskOffers,
    SpendApprovals,
    ProofReviewService,
    WorkerReviewService,
    {
      provide: WorkerPseudonyms,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new WorkerPseudonyms(config.webhooks.secretKey),
    },
  ],
  // The timers and TaskOffers (a worker going on call) for the job runner; the worker-side services and TaskOffers
  // for the sandbox's simulated workers, which act through exactly the services real workers' requests reach.
  exports: [
    TaskTimers,
    TaskOffers,
    TaskAcceptService,
    AssignmentService,
    PhotoSubmissionService,
    // For TaskReportsModule.
    TaskSettlement,
    TaskEvents,
    WorkerPseudonyms,
  ],
})
export class TaskModule {}
