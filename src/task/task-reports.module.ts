import { Module } from '@nestjs/common';
import { AdminTaskReportsController } from './controllers/admin-task-reports.controller';
import { WorkerTaskReportsController } from './controllers/worker-task-reports.controller';
import { TaskReportDecisions } from './services/task-report-decisions.service';
import { TaskReportsService } from './services/task-reports.service';
import { TaskModule } from './task.module';

/**
 * Workers' reports of tasks and the operators' decisions on them (product-decisions §19, "Also"). A module of its
 * own, loaded by the API only: a decision may suspend the agent, which drops the cached credentials (AuthCache), and
 * the job runner, which imports TaskModule for its sweeps, loads no credentials.
 */
@Module({
  imports: [TaskModule],
  controllers: [WorkerTaskReportsController, AdminTaskReportsController],
  providers: [TaskReportsService, TaskReportDecisions],
})
export class TaskReportsModule {}
