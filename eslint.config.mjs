// Type-aware lint: floating promises and misused promises are bugs in a money service.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import noUntypedQuery from './scripts/lint/no-untyped-query.mjs';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'packages/*/dist/**',
      'packages/*/node_modules/**',
      'packages/sdk/src/generated/**',
      'coverage/**',
      '.data/**',
      'eslint.config.mjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The application: no value of type any flows anywhere (rows are typed by sqlRows<Row>, JSON is unknown until
    // narrowed). Tests, unit specs included, migrations and scripts keep the looser defaults above: supertest bodies
    // and jest's asymmetric matchers (expect.any, objectContaining) are typed any.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    plugins: { local: { rules: { 'no-untyped-query': noUntypedQuery } } },
    rules: {
      'local/no-untyped-query': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
    },
  },
  {
    // The benchmarks and the soak are built with the service (tsconfig.build.json), without the tests: of test/ they
    // use only the child-process module they share with the fault tests, which itself uses nothing but Node.
    files: ['scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)test/(?!support/process$)',
              message: 'scripts/ may use test/support/process.ts only (it is built with them).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/support/process.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['./*', '../*'], message: 'process.ts is built with scripts/: Node modules only.' },
          ],
        },
      ],
    },
  },
  {
    // Error responses are documented from their codes, so the OpenAPI cannot say what the code does not do.
    // The main DataSource is injected by type (see the second rule).
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='@nestjs/swagger'] > ImportSpecifier[imported.name=/^Api(?!Ok|Created|Accepted|NoContent)[A-Za-z]+Response$/]",
          message: 'Document error responses with @ApiErrors (src/common/errors/api-errors.decorator.ts).',
        },
        {
          // Nest injects the main pool by its type; the decorator is kept for the jobs pool, so it marks that one.
          selector: "Decorator > CallExpression[callee.name='InjectDataSource'][arguments.length=0]",
          message:
            'Take the main DataSource by its type (private readonly ds: DataSource); @InjectDataSource(JOBS_DATA_SOURCE) only for the jobs pool (docs/architecture.md, Data access).',
        },
      ],
    },
  },
);
