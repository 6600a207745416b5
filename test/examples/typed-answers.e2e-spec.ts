import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/doc-script';

/**
 * The SDK types answers from a schema written `as const` (product-decisions §17, json-schema-to-ts):
 * examples/typed-answers.ts type-checks as an SDK user's project would (the built package through its exports map,
 * examples/tsconfig.build.json's options), and the same program with the answers untyped (the plain `result`, whose
 * `data` is a free-form object) does not: `result.data.open` is then `unknown`, and the example's compile-time
 * check refuses it. Needs `npm run build` (the SDK's dist/).
 */
jest.setTimeout(180_000);

const run = promisify(execFile);
const TSC = require.resolve('typescript/bin/tsc');
// Inside the checkout, so `@legwork/sdk` resolves through its node_modules as for the examples.
const WORK = join(REPO_ROOT, 'dist/typed-answers-check');
const EXAMPLE = readFileSync(join(REPO_ROOT, 'examples/typed-answers.ts'), 'utf8');

/** tsc over one file with the examples' options; the compiler's report, and whether it passed. */
async function check(name: string, source: string): Promise<{ ok: boolean; report: string }> {
  writeFileSync(join(WORK, `${name}.ts`), source);
  writeFileSync(
    join(WORK, `${name}.tsconfig.json`),
    JSON.stringify({
      extends: '../../examples/tsconfig.build.json',
      compilerOptions: { noEmit: true, rootDir: '.' },
      include: [`${name}.ts`],
    }),
  );
  try {
    await run(process.execPath, [TSC, '-p', join(WORK, `${name}.tsconfig.json`)], { cwd: REPO_ROOT });
    return { ok: true, report: '' };
  } catch (err) {
    return { ok: false, report: (err as { stdout?: string }).stdout ?? String(err) };
  }
}

describe('typed answers in the SDK', () => {
  beforeAll(() => mkdirSync(WORK, { recursive: true }));
  afterAll(() => rmSync(WORK, { recursive: true, force: true }));

  it('examples/typed-answers.ts type-checks: result.data.open is a boolean', async () => {
    const { ok, report } = await check('typed', EXAMPLE);
    expect(report).toBe('');
    expect(ok).toBe(true);
  });

  it('with the answers untyped, result.data.open is unknown and the check fails', async () => {
    const untyped = EXAMPLE.replace(
      'legwork.tasks.typedResult(created.task_id, bakery)',
      'legwork.tasks.result(created.task_id)',
    );
    expect(untyped).not.toBe(EXAMPLE);
    const { ok, report } = await check('untyped', untyped);
    expect(ok).toBe(false);
    expect(report).toMatch(
      /untyped\.ts\(\d+,\d+\): error TS2322: Type 'true' is not assignable to type 'false'/,
    );
  });
});
