/**
 * Slow fault tests, run by `npm run test:slow` (after `npm run build`: they spawn the compiled server). Kept out of
 * `npm run check` because they take minutes and are sensitive to machine load; see docs/scaling.md.
 */
const base = require('./jest.config.js');
const e2e = base.projects.find((p) => p.displayName === 'e2e');

module.exports = {
  projects: [{ ...e2e, displayName: 'slow', testMatch: ['<rootDir>/test/**/*.slow-spec.ts'] }],
  testTimeout: 300000,
  maxWorkers: 1,
};
