import { randomUUID } from 'node:crypto';
import { shownWorker, WORKER_PSEUDONYM_PATTERN, WorkerPseudonyms } from './worker-pseudonym';

describe('worker pseudonyms', () => {
  const names = new WorkerPseudonyms('a-master-key-of-at-least-thirty-two-characters');
  const [task, otherTask, worker] = [randomUUID(), randomUUID(), randomUUID()];

  it('is short, shaped apart from a uuid, and stable for one worker within one task', () => {
    const name = names.of(task, worker);
    expect(name).toMatch(new RegExp(WORKER_PSEUDONYM_PATTERN));
    expect(names.of(task, worker)).toBe(name);
    expect(names.of(task.toUpperCase(), worker.toUpperCase())).toBe(name);
  });

  it('differs between tasks, between workers, and under another key', () => {
    const name = names.of(task, worker);
    expect(names.of(otherTask, worker)).not.toBe(name);
    expect(names.of(task, randomUUID())).not.toBe(name);
    expect(new WorkerPseudonyms('another-master-key-of-thirty-two-characters').of(task, worker)).not.toBe(
      name,
    );
  });

  it('names an accepted worker by id, and one who has not accepted by pseudonym with a coarser reputation', () => {
    const a = { task_id: task, worker_id: worker, accepted_at: null };
    expect(shownWorker(a, 4.37, names)).toEqual({
      worker_id: names.of(task, worker),
      worker_reputation: 4.3,
    });
    expect(shownWorker(a, 4.3, names).worker_reputation).toBe(4.3);
    expect(shownWorker({ ...a, accepted_at: new Date() }, 4.37, names)).toEqual({
      worker_id: worker,
      worker_reputation: 4.37,
    });
  });
});
