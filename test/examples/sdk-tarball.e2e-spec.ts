import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/doc-script';

/**
 * The SDK as a new user installs it (packages/sdk/README.md, "Install"): packed with `npm pack` into a tarball,
 * installed with `npm install <tarball>` into a scratch project, and a small program type-checked there with
 * `skipLibCheck: false`, so the SDK's own declarations (and those of the package it depends on) are checked, under
 * TypeScript 5.9, 6 and 7, as CommonJS and as an ES module, its `./types` entry included. The three compilers are
 * installed from the registry into the same scratch project under aliases, in the same `npm install` (npm's cache
 * makes it quick after the first run). TypeScript 7 is `typescript@7` (the native compiler; the
 * `@typescript/native-preview` builds stopped before its release).
 *
 * Needs `npm run build` (the SDK's dist/). `npm pack` runs with --ignore-scripts: its prepack would rebuild dist/
 * under the examples spec, which compiles against it at the same time.
 */
// An npm install and three compilations with skipLibCheck off (@types/node included): about 25 s of CPU.
jest.setTimeout(300_000);

const run = promisify(execFile);

/** The compilers, by the alias they are installed under. TypeScript 6 is the repository's own. */
const COMPILERS: Record<string, string> = {
  'ts5.9': '5.9.3',
  ts6: (JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')) as { version: string })
    .version,
  ts7: '7.0.2',
};
const TYPES_NODE = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@types/node/package.json'), 'utf8')) as {
    version: string;
  }
).version;

const TSCONFIG = {
  compilerOptions: {
    module: 'node20',
    moduleResolution: 'node16',
    target: 'ES2022',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  files: ['agent.ts', 'events.mts'],
};

/** A CommonJS program: the client, a typed body from the vocabulary, lastResponse, errors, register, verify. */
const AGENT = `import { Legwork, LegworkConflictError, verifyWebhook, type LastResponse, type WebhookEvent } from '@legwork/sdk';
import { createTaskRequestLimits, createTaskRequestTask_typeValues, type Schemas } from '@legwork/sdk/types';

export async function agent(apiKey: string): Promise<string> {
  const legwork = new Legwork({ apiKey, baseUrl: 'http://localhost:8000' });
  const body: Schemas['CreateTaskRequest'] = {
    title: 'Photograph the storefront',
    description: 'One photo of the shop front with its opening hours.',
    location: { latitude: 31.2304, longitude: 121.4737 },
    budget_cents: createTaskRequestLimits.budget_cents.minimum,
    deadline_at: new Date(Date.now() + 3_600_000).toISOString(),
    task_type: createTaskRequestTask_typeValues[0],
  };
  const task = await legwork.tasks.create(body, { idempotencyKey: 'once' });
  const answered: LastResponse = task.lastResponse;
  // @ts-expect-error task_type is the API's enum, not any string
  await legwork.tasks.quote({ ...body, task_type: 'selfie' });
  for await (const t of legwork.tasks.list({ status: 'submitted' })) console.log(t.task_id);
  try {
    await legwork.tasks.cancel(task.task_id);
  } catch (err) {
    if (err instanceof LegworkConflictError) console.log(err.code, err.current_status);
  }
  return \`\${task.status} \${answered.requestId ?? ''} \${answered.idempotentReplayed}\`;
}

export async function register(): Promise<string> {
  const registration = await Legwork.register({ email: 'ops@example.com', password: 'a long passphrase' });
  return registration.api_key;
}

export function receive(raw: Buffer, headers: Record<string, string>, secret: string): WebhookEvent {
  return verifyWebhook(raw, headers, secret);
}
`;

/** An ES module: the same package through import, top-level await, a page and its lastResponse. */
const EVENTS = `import { Legwork } from '@legwork/sdk';
import { pathsV1TasksGetParametersQueryStatusValues } from '@legwork/sdk/types';

const legwork = new Legwork({ apiKey: 'lw_test_example' });
const page = await legwork.events.list({ limit: 2 });
console.log(page.data.map((e) => e.event), page.lastResponse.status);
export const statuses: readonly string[] = pathsV1TasksGetParametersQueryStatusValues;
`;

async function npm(args: string[], cwd: string): Promise<string> {
  try {
    return (await run('npm', args, { cwd, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')}:\n${stdout ?? ''}${stderr ?? String(err)}`);
  }
}

/** One compiler's version line and its report on the scratch project (empty when it compiles). */
async function typecheck(alias: string, cwd: string): Promise<{ version: string; report: string }> {
  const tsc = join(cwd, 'node_modules', alias, 'bin', 'tsc');
  const version = (await run(process.execPath, [tsc, '--version'], { cwd })).stdout.trim();
  try {
    await run(process.execPath, [tsc, '-p', cwd], { cwd, maxBuffer: 16 * 1024 * 1024 });
    return { version, report: '' };
  } catch (err) {
    return { version, report: (err as { stdout?: string }).stdout || String(err) };
  }
}

describe('@legwork/sdk installed from its npm pack tarball', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'legwork-sdk-install-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('type-checks a program with skipLibCheck false under TypeScript 5.9, 6 and 7, as CommonJS and as an ES module', async () => {
    if (!existsSync(join(REPO_ROOT, 'packages/sdk/dist/index.d.ts')))
      throw new Error('the SDK is not built: run npm run build first');
    const [packed] = JSON.parse(
      await npm(
        ['pack', '-w', '@legwork/sdk', '--ignore-scripts', '--json', '--pack-destination', scratch],
        REPO_ROOT,
      ),
    ) as { filename: string }[];

    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(join(scratch, 'agent.ts'), AGENT);
    writeFileSync(join(scratch, 'events.mts'), EVENTS);
    const compilers = Object.entries(COMPILERS).map(
      ([alias, version]) => `${alias}@npm:typescript@${version}`,
    );
    await npm(
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        `./${packed.filename}`,
        ...compilers,
        `@types/node@${TYPES_NODE}`,
      ],
      scratch,
    );
    expect(JSON.parse(readFileSync(join(scratch, 'package.json'), 'utf8'))).toMatchObject({
      dependencies: { '@legwork/sdk': expect.stringMatching(/legwork-sdk-0\.1\.0\.tgz$/) },
    });

    const results = await Promise.all(Object.keys(COMPILERS).map((alias) => typecheck(alias, scratch)));
    expect(results).toEqual(
      Object.values(COMPILERS).map((version) => ({ version: `Version ${version}`, report: '' })),
    );
  });
});
