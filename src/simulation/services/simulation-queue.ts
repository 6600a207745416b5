import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JobRunner } from '../../jobs/job-runner';

export const SIMULATION_QUEUE = 'sandbox-worker-action';

/**
 * The simulated workers' steps on pg-boss, through the job runner's queue: each planned step is a job with
 * `startAfter` at its due time, sent in the transaction that planned it, so a plan and its job commit together. Jobs
 * live in PostgreSQL, so they survive a restart, and pg-boss hands each to one runner across all instances. Steps
 * are planned where events are published and steps performed, which is where jobs run (JOBS_IN_PROCESS, or
 * `npm run start:jobs`); a clock's steps get no job (its advance runs them).
 */
@Injectable()
export class SimulationQueue {
  private handler: ((actionId: string) => Promise<void>) | null = null;

  constructor(private readonly jobs: JobRunner) {
    this.jobs.addQueue({
      name: SIMULATION_QUEUE,
      handle: async (data) => {
        if (typeof data.action_id === 'string') await this.handler?.(data.action_id);
      },
    });
  }

  /** The one handler of the queue's jobs (the simulator registers it). */
  handle(handler: (actionId: string) => Promise<void>): void {
    this.handler = handler;
  }

  /** Queues the step `actionId` for `dueAt`, in the caller's transaction. */
  send(em: EntityManager, actionId: string, dueAt: Date): Promise<void> {
    return this.jobs.send(em, SIMULATION_QUEUE, { action_id: actionId }, dueAt);
  }
}
