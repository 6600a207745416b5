/**
 * Slow variants of the fault tests (`*.slow-spec.ts` under test/), run by `npm run test:slow` after a build (they spawn the
 * compiled server): the same checks as their CI versions in `npm run check`, with many more kills and requests.
 */
const base = require('./jest.config.js');
const e2e = base.projects.find((p) => p.displayName === 'e2e');

module.exports = {
  projects: [{ ...e2e, displayName: 'slow', testMatch: ['<rootDir>/test/**/*.slow-spec.ts'] }],
  testTimeout: 300000,
  maxWorkers: 1,
};
