import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createDatabase, databaseUrl, dropDatabase } from '../bench/database';
import { ServerProcess } from '../bench/server';
import {
  ensureLighthouse,
  type LighthouseApi,
  type LighthouseResult,
  loadLighthouse,
} from './lighthouse-package';

/**
 * `npm run lighthouse`: Lighthouse (mobile profile, its default simulated throttling: slow 4G and a 4x slower CPU)
 * on the worker app, served by the compiled API started as `npm start` starts it, on a fresh database of the
 * machine's PostgreSQL. Two pages, each loaded cold (new browser, empty cache): the first open signed out, which
 * lands on the sign-in screen, and the same address signed in (a refresh token in localStorage, as after a sign-in),
 * which lands on the nearby list. Prints every run and the median run of each page. Outside CI: the scores depend on
 * the machine and its load (the benchmark index is printed beside them). docs/testing.md.
 */
const USAGE = `usage: npm run lighthouse -- [--runs 3] [--pages sign-in,nearby] [--save DIR]
  --runs   Lighthouse runs per page; the median run (Lighthouse's own choice) is reported
  --pages  which pages to audit
  --save   also write the median runs' HTML and JSON reports into DIR`;

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const REFRESH_KEY = 'legwork.app.refresh'; // web/app/session.ts

interface Page {
  name: string;
  path: string;
  signedIn: boolean;
}
const PAGES: Page[] = [
  { name: 'sign-in', path: '/app/', signedIn: false },
  { name: 'nearby', path: '/app/', signedIn: true },
];

/** The reports of each run (HTML and JSON), for --save. */
const reports = new Map<LighthouseResult, string | string[]>();

interface Worker {
  phone: string;
  password: string;
}

function options(): { runs: number; pages: Page[]; save: string | null } {
  try {
    const { values } = parseArgs({
      options: {
        runs: { type: 'string', default: '3' },
        pages: { type: 'string', default: PAGES.map((p) => p.name).join(',') },
        save: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const runs = Number(values.runs);
    const pages = values.pages.split(',').map((n) => PAGES.find((p) => p.name === n));
    if (!Number.isInteger(runs) || runs < 1 || pages.some((p) => !p)) throw new Error('bad value');
    return { runs, pages: pages as Page[], save: values.save ? resolve(values.save) : null };
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

/** Debian's chromium (product-decisions §14): CHROME_PATH, else what `which chromium` finds. */
function chromePath(): string {
  if (process.env.CHROME_PATH) return process.env.CHROME_PATH;
  try {
    return execFileSync('which', ['chromium']).toString().trim();
  } catch {
    throw new Error('no chromium on PATH: apt-get install chromium (or set CHROME_PATH)');
  }
}

async function api<T>(base: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A worker signed up through the public API, the sandbox's SMS code read from its answer (as the browser suite does). */
async function signUp(base: string): Promise<Worker> {
  const worker = { phone: `139${String(Date.now()).slice(-8)}`, password: 'lighthouse-pass-1' };
  const sms = await api<{ sandbox_code: string }>(
    base,
    `/v1/worker/send-sms?phone_number=${worker.phone}&purpose=register`,
  );
  await api(base, '/v1/worker/register', {
    phone_number: worker.phone,
    password: worker.password,
    sms_code: sms.sandbox_code,
    display_name: 'Lighthouse',
  });
  return worker;
}

/**
 * Signs the browser in as the app would leave it after a sign-in: a fresh refresh token (each is single use) in the
 * app's localStorage key, written from a page of the origin that loads none of the app's files, so the audited load
 * still starts with an empty cache. Lighthouse's storage reset clears caches and service workers, not localStorage.
 */
async function signIn(port: number, base: string, worker: Worker): Promise<void> {
  const pair = await api<{ refresh_token: string }>(base, '/v1/worker/login', {
    phone_number: worker.phone,
    password: worker.password,
  });
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0].newPage();
    await page.goto(`${base}/health`);
    // A string, not a function: this program is compiled without the DOM's types.
    await page.evaluate(
      `localStorage.setItem(${JSON.stringify(REFRESH_KEY)}, ${JSON.stringify(pair.refresh_token)})`,
    );
    await page.close();
  } finally {
    await browser.close();
  }
}

/** One cold load of a page in a browser of its own. */
async function audit(lh: LighthouseApi, base: string, page: Page, worker: Worker): Promise<LighthouseResult> {
  const root = process.getuid?.() === 0;
  const chrome = await lh.launchChrome({
    chromePath: chromePath(),
    // --no-sandbox: Chromium refuses to start its sandbox as root (CI containers, this machine).
    chromeFlags: ['--headless=new', ...(root ? ['--no-sandbox'] : [])],
  });
  try {
    if (page.signedIn) await signIn(chrome.port, base, worker);
    const result = await lh.run(`${base}${page.path}`, {
      port: chrome.port,
      onlyCategories: CATEGORIES,
      output: ['html', 'json'],
      logLevel: 'error',
    });
    if (!result) throw new Error(`Lighthouse gathered nothing for ${page.name}`);
    if (result.lhr.runtimeError) {
      throw new Error(`${page.name}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    }
    reports.set(result.lhr, result.report);
    return result.lhr;
  } finally {
    await chrome.kill();
  }
}
/**
 * Lighthouse fails a run now and then on a busy machine (NO_NAVSTART, NO_FCP: the trace missed the load) and says to
 * run it again: up to two more tries, each in a new browser.
 */
async function auditWithRetry(
  lh: LighthouseApi,
  base: string,
  page: Page,
  worker: Worker,
  log: (m: string) => void,
): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(lh, base, page, worker);
    } catch (err) {
      if (attempt === 3) throw err;
      log(`${(err as Error).message}; trying again`);
    }
  }
}

const score = (lhr: LighthouseResult, id: string): string => {
  const s = lhr.categories[id]?.score;
  return s === null || s === undefined ? '-' : String(Math.round(s * 100));
};
const ms = (lhr: LighthouseResult, id: string): string =>
  `${((lhr.audits[id]?.numericValue ?? NaN) / 1000).toFixed(2)} s`;
const kb = (lhr: LighthouseResult): string =>
  `${Math.round((lhr.audits['total-byte-weight']?.numericValue ?? NaN) / 1024)} KB`;

const HEADER = ['page', 'run', 'perf', 'a11y', 'best', 'FCP', 'LCP', 'TBT', 'CLS', 'SI', 'bytes', 'bench'];
function row(page: string, run: string, lhr: LighthouseResult): string[] {
  return [
    page,
    run,
    score(lhr, 'performance'),
    score(lhr, 'accessibility'),
    score(lhr, 'best-practices'),
    ms(lhr, 'first-contentful-paint'),
    ms(lhr, 'largest-contentful-paint'),
    `${Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN)} ms`,
    (lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3),
    ms(lhr, 'speed-index'),
    kb(lhr),
    // Lighthouse's benchmark index of the machine during the run: lower on a busier machine.
    String(Math.round(lhr.environment.benchmarkIndex)),
  ];
}

function table(rows: string[][]): string {
  const widths = HEADER.map((_, i) => Math.max(...[HEADER, ...rows].map((r) => r[i].length)));
  return [HEADER, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i])).join('  ')).join('\n');
}

/** What Lighthouse would fix on the median run: failed audits of the three categories, with their estimated gain. */
function findings(lhr: LighthouseResult): string[] {
  return Object.entries(lhr.audits)
    .filter(
      ([, a]) =>
        a.score !== null &&
        a.score < 0.9 &&
        !['informative', 'notApplicable', 'manual'].includes(a.scoreDisplayMode),
    )
    .map(([id, a]) => {
      const saving = a.details?.overallSavingsMs
        ? `, about ${Math.round(a.details.overallSavingsMs)} ms`
        : '';
      return `  ${id}: ${a.title}${a.displayValue ? ` (${a.displayValue}${saving})` : ''}`;
    });
}

async function main(): Promise<void> {
  const opts = options();
  const log = (m: string): void => console.error(`[lighthouse] ${m}`);
  const lh = await loadLighthouse(ensureLighthouse(log));
  const dbName = await createDatabase('legwork_lighthouse');
  const dataDir = mkdtempSync(join(tmpdir(), 'legwork-lighthouse-'));
  let server: ServerProcess | null = null;
  try {
    server = await ServerProcess.start({ databaseUrl: databaseUrl(dbName), dataDir });
    log(`compiled API on ${server.baseUrl}, load average ${loadavg()[0].toFixed(2)}`);
    const worker = await signUp(server.baseUrl);
    const rows: string[][] = [];
    const medians: [Page, LighthouseResult][] = [];
    for (const page of opts.pages) {
      const runs: LighthouseResult[] = [];
      for (let i = 1; i <= opts.runs; i++) {
        log(`${page.name}: run ${i} of ${opts.runs}`);
        runs.push(await auditWithRetry(lh, server.baseUrl, page, worker, log));
        rows.push(row(page.name, String(i), runs[runs.length - 1]));
      }
      medians.push([page, lh.medianRun(runs)]);
      rows.push(row(page.name, 'median', lh.medianRun(runs)));
    }
    report(rows, medians, opts.save);
  } finally {
    await server?.stop();
    await dropDatabase(dbName);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(rows: string[][], medians: [Page, LighthouseResult][], saveTo: string | null): void {
  const { lighthouseVersion, environment } = medians[0][1];
  const chrome =
    /(?:Headless)?Chrome\/[\d.]+/.exec(environment.hostUserAgent)?.[0] ?? environment.hostUserAgent;
  console.log(
    `Lighthouse ${lighthouseVersion}, mobile profile, simulated throttling, ${chrome}; ` +
      `load average ${loadavg()[0].toFixed(2)} at the end\n`,
  );
  console.log(table(rows));
  for (const [page, lhr] of medians) {
    const found = findings(lhr);
    console.log(`\n${page.name} (${lhr.finalDisplayedUrl}), median run: ${found.length} audits below 90`);
    if (found.length) console.log(found.join('\n'));
    for (const warning of lhr.runWarnings) console.log(`  warning: ${warning}`);
    if (saveTo) save(saveTo, page.name, lhr);
  }
}

function save(dir: string, name: string, lhr: LighthouseResult): void {
  mkdirSync(dir, { recursive: true });
  const [html, json] = reports.get(lhr) as string[];
  writeFileSync(join(dir, `${name}.report.html`), html);
  writeFileSync(join(dir, `${name}.report.json`), json);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
