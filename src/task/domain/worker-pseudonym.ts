import { createHmac, hkdfSync } from 'node:crypto';

/** Always `anon_` and 16 hex characters, so it can never be mistaken for a worker id (a uuid). */
export const WORKER_PSEUDONYM_PATTERN = '^anon_[0-9a-f]{16}$';

/**
 * How a task's agent sees a worker who has not accepted its slot (an offer waiting, declined, lapsed or withdrawn):
 * `anon_` and the first 64 bits of HMAC-SHA256(key, task id + worker id) (product-decisions §16). The same worker
 * keeps one name within a task and has unrelated names in two tasks, and without the key the name leads back to
 * nobody, so creating a task and watching its offer shows that someone is near, never who. The key is derived with
 * HKDF from the service's master key under a label of its own, so every instance names a worker alike.
 */
export class WorkerPseudonyms {
  private readonly key: Buffer;

  constructor(masterKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, 'legwork', 'offer worker pseudonyms v1', 32));
  }

  of(taskId: string, workerId: string): string {
    const mac = createHmac('sha256', this.key).update(`${taskId.toLowerCase()}/${workerId.toLowerCase()}`);
    return `anon_${mac.digest('hex').slice(0, 16)}`;
  }
}

/**
 * A worker who has not accepted is shown by pseudonym, and with their reputation cut to one decimal (the precision
 * of min_reputation), since two decimals would follow one person from task to task as well as an id would.
 */
export function shownWorker(
  a: { task_id: string; worker_id: string; accepted_at: Date | null },
  reputation: number,
  pseudonyms: WorkerPseudonyms,
): { worker_id: string; worker_reputation: number } {
  if (a.accepted_at !== null) return { worker_id: a.worker_id, worker_reputation: reputation };
  return {
    worker_id: pseudonyms.of(a.task_id, a.worker_id),
    worker_reputation: Math.floor(reputation * 10 + 1e-9) / 10,
  };
}
