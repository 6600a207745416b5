import { runAfterFileChecks } from './app';

/** After every e2e test file: invariant checks on each database it used, then the databases are dropped. */
afterAll(async () => {
  await runAfterFileChecks();
});
