import { defineConfig } from 'vitest/config';
import { sdkTypes } from './vite.config';

/**
 * Unit tests of the apps' pure parts (`*.test.ts` beside the code): the session's silent refresh, error reading,
 * geometry. Node environment: the few browser globals they touch (localStorage, fetch) are given per test. What the
 * screens do is tested in a real browser (test/browser).
 */
export default defineConfig({
  resolve: { alias: { '@legwork/sdk/types': sdkTypes } },
  test: { include: ['shared/**/*.test.ts', 'app/**/*.test.ts', 'console/**/*.test.ts'], environment: 'node' },
});
