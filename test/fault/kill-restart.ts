import {
  Creation,
  create,
  createUntilFinal,
  creations,
  effects,
  killDuringBurst,
  mapLimit,
  ProcessRig,
  startProcessRig,
} from './process-support';

/**
 * The API process is killed with SIGKILL while task creations (money: an escrow hold each) are in flight, then
 * restarted; clients retry every request with its Idempotency-Key. Every key must end with exactly one task and
 * one hold, whatever moment the kill hit (before the claim, inside the transaction, between commit and the stored
 * response), and the ledger must be clean. Needs the compiled server: `npm run build` (`npm run check` does it).
 *
 * `rounds` lists, per round, how many creations have committed when the kill comes; each round sends `perRound`
 * creations at once. The CI variant kills three times (kill-restart.e2e-spec.ts); the slow one many more
 * (kill-restart.slow-spec.ts, `npm run test:slow`).
 */
export function killRestartSuite(rounds: number[], perRound: number, timeoutMs: number): void {
  describe(`fault: API process killed with SIGKILL mid-flight (${rounds.length} kills)`, () => {
    let rig: ProcessRig;

    beforeAll(async () => {
      rig = await startProcessRig(8);
    }, 120_000);

    afterAll(async () => {
      await rig?.close();
    }, 60_000);

    async function countTasks(): Promise<number> {
      const { rows } = await rig.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tasks`);
      return rows[0].n;
    }

    it(
      'every Idempotency-Key has exactly one effect after kill -9, restart and retries',
      async () => {
        const all: Creation[] = [];
        let cutOff = 0;
        let abandoned = 0;
        // Each round is killed after a different amount of progress.
        for (const progress of rounds) {
          const batch = creations(rig.agents, perRound);
          all.push(...batch);
          const before = await countTasks();
          const burst = batch.map((c) => () => create(rig.server, c));
          const [cut, left] = await killDuringBurst(rig, burst, countTasks, before + progress);
          cutOff += cut;
          abandoned += left;
        }
        // The kills really hit requests in flight, some of them holding their key's claim.
        expect(cutOff).toBeGreaterThan(0);
        expect(abandoned).toBeGreaterThan(0);
        // Clients retry through a bounded pool; a retry may meet 409 "in progress" (a claim whose owner is still being
        // detected as dead) or 503 (a saturated pool), both retried until the answer is final.
        const answers = await mapLimit(all, 32, (c) => createUntilFinal(rig.server, c));
        expect(answers.map((a) => a.status)).toEqual(all.map(() => 201));
        const taskIds = answers.map((a) => a.body.task_id as string);
        expect(new Set(taskIds).size).toBe(all.length);
        // Asking once more replays the same task for every key (statuses first: a failure then says what came back).
        const again = await mapLimit(all, 32, (c) => createUntilFinal(rig.server, c));
        expect(again.map((a) => a.status)).toEqual(all.map(() => 201));
        expect(again.map((a) => a.body.task_id)).toEqual(taskIds);
        expect(again.every((a) => a.replayed)).toBe(true);

        const after = await effects(rig.db);
        expect(after.violations).toEqual([]);
        expect(after.tasks).toBe(all.length);
        expect(after.holds).toBe(all.length);
        const { rows } = await rig.db.query<{ id: string }>(`SELECT id FROM tasks ORDER BY id`);
        expect(rows.map((r) => r.id)).toEqual([...taskIds].sort());
        console.info(
          `kill -9 ×${rounds.length}: ${all.length} keys, ${cutOff} requests cut off, ${abandoned} claims left in ` +
            `progress; after retries ${after.tasks} tasks, ${after.holds} holds, ledger clean`,
        );
      },
      timeoutMs,
    );
  });
}
