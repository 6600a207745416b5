import { Injectable } from '@nestjs/common';

/**
 * Reputation of a worker with no history (decisions §5): each part of
 * `5 * (0.6 * completion + 0.3 * rating/5 + 0.1 * response)` is smoothed toward a prior of 0.8, so with no tasks
 * the score is 5 * 0.8 = 4.0.
 */
export const NEW_WORKER_REPUTATION = 4.0;

/**
 * The one place the API reads a worker's reputation. Until matching records task outcomes every worker has no
 * history, so this answers the prior; the matching work replaces the body with the real computation.
 */
@Injectable()
export class WorkerReputation {
  async of(_workerId: string): Promise<number> {
    return NEW_WORKER_REPUTATION;
  }
}
