import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 CPU profile of the API taken under a benchmark (BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"):
 * where the main thread's wall time went, by package and by function, over the seconds the load ran. A sampling
 * profile counts wall time, so a syscall in which the thread lost its core (a write to PostgreSQL that woke a backend)
 * shows as time in that syscall; the benchmark's CPU-wait column measures the same thing from the scheduler's side.
 *
 *   node dist/scripts/bench/profile-summary.js PROFILE [--window FROM-TO] [--callers REGEX]
 *
 * Without --window, the window is the longest run of seconds in which the thread idled under 20 % of the time.
 * --callers prints the call chains (innermost first) under which functions matching REGEX spent their self time.
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function args(): { file: string; window?: [number, number]; callers?: RegExp } {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary PROFILE [--window FROM-TO] [--callers REGEX]');
  const opt = (name: string) => {
    const i = rest.indexOf(name);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  const w = opt('--window')?.split('-').map(Number);
  if (w && !(w.length === 2 && w.every(Number.isFinite) && w[0] < w[1])) {
    throw new Error(`--window wants FROM-TO in seconds of the profile, e.g. 20-40`);
  }
  const c = opt('--callers');
  return { file, window: w && [w[0], w[1]], callers: c ? new RegExp(c) : undefined };
}

/** node_modules package, Node's own module, or the app's file under dist/. */
function owner(url: string): string {
  if (!url) return '(native)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url.replace(/^node:internal\/.*/, 'node:internal');
  const app = /\/dist\/(.*)$/.exec(url);
  return app ? `app:${app[1].replace(/\/[^/]+$/, '')}` : url;
}

function frameName(f: CallFrame): string {
  return `${f.functionName || '(anonymous)'} ${owner(f.url)}:${f.lineNumber + 1}`;
}

function percentRows(m: Map<string, number>, total: number, limit: number): string[] {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
}

function add(m: Map<string, number>, k: string, v: number): void {
  m.set(k, (m.get(k) ?? 0) + v);
}

/** The longest run of whole seconds in which the thread was idle under 20 % of the time. */
function busiestWindow(p: CpuProfile, at: number[], idle: Set<number>): [number, number] {
  const perSecond = new Map<number, { idle: number; all: number }>();
  p.samples.forEach((id, i) => {
    const s = Math.floor(at[i] / 1e6);
    const e = perSecond.get(s) ?? { idle: 0, all: 0 };
    e.all++;
    if (idle.has(id)) e.idle++;
    perSecond.set(s, e);
  });
  let best: [number, number] = [0, 0];
  let start = -1;
  const last = Math.max(...perSecond.keys());
  for (let s = 0; s <= last + 1; s++) {
    const e = perSecond.get(s);
    const busy = !!e && e.idle / e.all < 0.2;
    if (busy && start < 0) start = s;
    if (!busy && start >= 0) {
      if (s - start > best[1] - best[0]) best = [start, s];
      start = -1;
    }
  }
  return best;
}

function main(): void {
  const { file, window, callers } = args();
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
  let t = 0;
  const at = p.timeDeltas.map((d) => (t += d));
  const [from, to] = window ?? busiestWindow(p, at, idle);

  const self = new Map<number, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const s = at[i] / 1e6;
    if (s < from || s >= to) return;
    self.set(id, (self.get(id) ?? 0) + p.timeDeltas[i]);
    total += p.timeDeltas[i];
  });
  if (total === 0) throw new Error(`no samples between ${from} and ${to} s`);

  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const chains = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const native = !n.callFrame.url;
    add(byOwner, native ? n.callFrame.functionName || '(native)' : owner(n.callFrame.url), us);
    add(byFunction, frameName(n.callFrame), us);
    if (callers?.test(frameName(n.callFrame))) {
      const chain: string[] = [];
      for (let c: number | undefined = id; c !== undefined && chain.length < 8; c = parent.get(c)) {
        chain.push(frameName(byId.get(c)!.callFrame));
      }
      add(chains, chain.join(' <- '), us);
    }
  }

  console.log(
    `${file}: seconds ${from} to ${to} of the profile, ${(total / 1e6).toFixed(1)} s of main-thread time`,
  );
  console.log('\nSelf time by owner (native frames by name):');
  for (const row of percentRows(byOwner, total, 30)) console.log(row);
  console.log('\nSelf time by function:');
  for (const row of percentRows(byFunction, total, 30)) console.log(row);
  if (callers) {
    console.log(`\nCall chains of ${callers.source}:`);
    for (const row of percentRows(chains, total, 10)) console.log(row);
  }
}

main();
