import { checkLedger } from '../../src/escrow/ledger-check';
import { registerFileCheck, runAfterFileChecks } from './app';

/** The ledger invariants must hold in every database a test file used; any violation fails the file. */
registerFileCheck(async (db) => {
  const report = await checkLedger(db);
  if (!report.ok) {
    throw new Error(
      `ledger invariants violated:\n${report.violations.map((v) => `  ${v.invariant}: ${v.detail}`).join('\n')}`,
    );
  }
});

/** After every e2e test file: invariant checks on each database it used, then the databases are dropped. */
afterAll(async () => {
  await runAfterFileChecks();
});
