import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Lighthouse for `npm run lighthouse`, fetched on first use into a cache directory outside the repository rather
 * than installed as a devDependency: it brings 201 packages and 186 MB (Sentry and OpenTelemetry among them) that
 * every `npm ci`, CI and the image's build stage would download for a script that runs on a developer's machine
 * only. 12.8 is the newest line that runs on Node 20 (`engines` `>=18.16`; 13.x needs Node 22.19).
 */
export const LIGHTHOUSE_VERSION = '12.8.2';

/** `LIGHTHOUSE_DIR`, or `$XDG_CACHE_HOME/legwork/lighthouse-<version>` (~/.cache by default). */
export function lighthouseDir(): string {
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  return process.env.LIGHTHOUSE_DIR ?? join(cache, 'legwork', `lighthouse-${LIGHTHOUSE_VERSION}`);
}

/** The parts of a Lighthouse result (LH.Result) the script reads. */
export interface LighthouseResult {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  runWarnings: string[];
  environment: { hostUserAgent: string; benchmarkIndex: number };
  categories: Record<string, { title: string; score: number | null }>;
  audits: Record<
    string,
    {
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      numericValue?: number;
      displayValue?: string;
      details?: { type: string; overallSavingsMs?: number; overallSavingsBytes?: number };
    }
  >;
}

export interface LighthouseApi {
  /** `lighthouse(url, flags)`: one navigation of a running Chrome (flags.port); undefined when it gathered nothing. */
  run(
    url: string,
    flags: Record<string, unknown>,
  ): Promise<{ lhr: LighthouseResult; report: string | string[] } | undefined>;
  /** Lighthouse's own choice of the run nearest the median (by FCP and time to interactive). */
  medianRun(runs: LighthouseResult[]): LighthouseResult;
  /** chrome-launcher: starts Chrome with Lighthouse's recommended flags on a free debugging port. */
  launchChrome(opts: {
    chromePath: string;
    chromeFlags: string[];
  }): Promise<{ port: number; kill(): void | Promise<void> }>;
}

/** Installs the pinned Lighthouse into lighthouseDir() once (a few seconds; npm's cache makes later installs local). */
export function ensureLighthouse(log: (m: string) => void): string {
  const dir = lighthouseDir();
  const installed = join(dir, 'node_modules', 'lighthouse', 'package.json');
  if (existsSync(installed)) {
    const { version } = JSON.parse(readFileSync(installed, 'utf8')) as { version: string };
    if (version === LIGHTHOUSE_VERSION) return dir;
  }
  log(`installing lighthouse@${LIGHTHOUSE_VERSION} into ${dir} (once)`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ private: true, dependencies: { lighthouse: LIGHTHOUSE_VERSION } }, null, 2),
  );
  // --ignore-scripts: nothing Lighthouse needs is built at install, and no browser is downloaded (Debian's is used).
  execFileSync('npm', ['install', '--prefix', dir, '--ignore-scripts', '--no-audit', '--no-fund'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return dir;
}

/** Loads the ES modules of the installed Lighthouse (this script is CommonJS, so through `import()`). */
export async function loadLighthouse(dir: string): Promise<LighthouseApi> {
  const load = (path: string): Promise<Record<string, unknown>> =>
    import(pathToFileURL(join(dir, 'node_modules', path)).href) as Promise<Record<string, unknown>>;
  const [core, median, launcher] = await Promise.all([
    load('lighthouse/core/index.js'),
    load('lighthouse/core/lib/median-run.js'),
    load('chrome-launcher/dist/index.js'),
  ]);
  return {
    run: core.default as LighthouseApi['run'],
    medianRun: median.computeMedianRun as LighthouseApi['medianRun'],
    launchChrome: launcher.launch as LighthouseApi['launchChrome'],
  };
}
