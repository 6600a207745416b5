/**
 * Four projects: unit specs beside the code (src/**\/*.spec.ts); the provider contract specs (test/contract/**\/*.spec.ts:
 * the service's payment SDK clients against the provider sandbox over loopback HTTP, no database); the
 * deployment manifests (test/deploy/**\/*.spec.ts: `kubectl kustomize` renders, schemas and policies, no database);
 * and end-to-end specs (test/**\/*.e2e-spec.ts) that boot the real AppModule against the machine's PostgreSQL, one fresh database per test file cloned from a migrated
 * template made once per run.
 */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: false }];
/**
 * jose (the OAuth tokens, src/auth/grant-tokens.ts) and @modelcontextprotocol/ext-apps (the MCP review card's
 * server helpers) ship ES modules only. Node 20.19 requires them natively, so the service loads them as they are;
 * Jest's CommonJS loader cannot, so tests compile the same files to CommonJS with ts-jest.
 */
const esmOnly = {
  transform: {
    '^.+\\.ts$': tsJest,
    '/node_modules/(jose|@modelcontextprotocol/ext-apps)/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022' }, diagnostics: false },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!jose/|@modelcontextprotocol/ext-apps/)'],
};
/**
 * marked (the guides at /docs) ships ES modules only. Node 20.19 requires them natively, so the service loads it as
 * it is; Jest's CommonJS loader cannot, so tests get the package's own UMD build of the same version.
 */
const moduleNameMapper = {
  '^marked$': '<rootDir>/node_modules/marked/lib/marked.umd.js',
  // Tests use the SDK from its sources (the e2e SDK spec), so they need no build first.
  '^@legwork/sdk$': '<rootDir>/packages/sdk/src/index.ts',
  '^@legwork/sdk/types$': '<rootDir>/packages/sdk/src/types.ts',
  // The service's /mcp endpoint serves the MCP package's tool catalogue; tests load it from its sources too.
  '^@legwork/mcp$': '<rootDir>/packages/mcp/src/index.ts',
};

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/packages/sdk/src/**/*.spec.ts',
        '<rootDir>/packages/mcp/src/**/*.spec.ts',
      ],
      ...esmOnly,
      moduleNameMapper,
    },
    {
      displayName: 'contract',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/contract/**/*.spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      displayName: 'deploy',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/deploy/**/*.spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      ...esmOnly,
      moduleNameMapper,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/after-file.ts'],
    },
  ],
  // Global only: Jest ignores testTimeout inside a project. E2E hooks boot apps and databases, which can take
  // seconds on a loaded 2-core machine.
  testTimeout: 60000,
  maxWorkers: 3,
  // How long a worker may take to exit once told to. Jest's 500 ms default is shorter than a worker's own teardown
  // on a loaded 2-core machine: after its event loop has emptied (no open handle: `exit` fires at once), freeing a
  // 200-260 MB worker heap was measured to take 150-530 ms before the parent saw the process end, so jest force-
  // exited clean workers and printed "A worker process has failed to exit gracefully". A real leak (a ref'd timer
  // or socket) still keeps a worker alive past this and is still reported (docs/testing.md).
  workerGracefulExitTimeout: 5000,
};
