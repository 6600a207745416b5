import { Injectable } from '@nestjs/common';

/** Decisions §5: the smoothed score every worker starts with (prior 0.8 on each part). */
export const STARTING_REPUTATION = 4.0;

/**
 * The one place task code asks for a worker's reputation. Until the matching issue computes the score from
 * assignment outcomes (approved / rejected / expired / abandoned, ratings, response time), everyone has the
 * starting score. Inputs for that computation are already recorded: assignment statuses with their timestamps
 * and the agents' ratings.
 */
@Injectable()
export class WorkerReputation {
  async of(workerIds: readonly string[]): Promise<Map<string, number>> {
    return new Map(workerIds.map((id) => [id, STARTING_REPUTATION]));
  }

  async ofOne(workerId: string): Promise<number> {
    return (await this.of([workerId])).get(workerId) ?? STARTING_REPUTATION;
  }
}
