import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, databaseUrl, dropDatabase, pool } from './database';
import { createWorkers } from './fixtures';
import { ServerProcess } from './server';
import { numberArg } from './args';

/**
 * Finding P1, measured: the server's RSS before, during (peak) and after a burst of uploads by one worker, each
 * request carrying five files of almost 10 MB. Printed, never asserted (test/upload/upload-quota.e2e-spec.ts
 * asserts the quotas). Two rounds: with the concurrency quota raised to the burst size, so every upload is
 * accepted and only the streaming is measured; then with the default quotas, where uploads past the concurrency
 * quota are refused at once.
 *
 *   npm run bench:uploads [-- --parallel 6 --files 5]
 *   BENCH_SERVER_MAIN=/path/to/other/dist/src/main.js npm run bench:uploads   (another build, e.g. before a change)
 */
const FILE_BYTES = 10 * 1024 * 1024 - 4096;
const PDF_HEAD = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n', 'latin1');

function form(files: number): FormData {
  const body = new FormData();
  const file = Buffer.concat([PDF_HEAD, Buffer.alloc(FILE_BYTES - PDF_HEAD.length, 0x20)]);
  for (let i = 0; i < files; i++) body.append('files', new Blob([file]), `scan-${i}.pdf`);
  return body;
}

async function round(label: string, env: Record<string, string>, parallel: number, files: number) {
  const name = await createDatabase('legwork_bench_uploads');
  const dataDir = mkdtempSync(join(tmpdir(), 'legwork-bench-uploads-'));
  const server = await ServerProcess.start({ databaseUrl: databaseUrl(name), dataDir, env });
  const db = pool(databaseUrl(name), 2);
  try {
    const [worker] = await createWorkers(db, 1);
    const forms = Array.from({ length: parallel }, () => form(files));
    await new Promise((r) => setTimeout(r, 1000)); // let the server settle after start
    const before = server.rssMiB();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, server.rssMiB())), 25);
    const statuses = await Promise.all(
      forms.map(async (body) => {
        const res = await fetch(`${server.baseUrl}/v1/upload/task-proofs-multiple`, {
          method: 'POST',
          headers: { authorization: `Bearer ${worker.token}` },
          body,
        });
        const json = (await res.json()) as { error?: { code: string } };
        return res.ok ? String(res.status) : `${res.status} ${json.error?.code}`;
      }),
    );
    clearInterval(sampler);
    const after = server.rssMiB();
    const counts = statuses.reduce<Record<string, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});
    const mib = Math.round((parallel * files * FILE_BYTES) / 1024 / 1024);
    console.log(
      `${label}: ${parallel} parallel requests x ${files} files (${mib} MiB sent); answers ${JSON.stringify(counts)}\n` +
        `  RSS before ${before} MiB, peak ${peak} MiB (+${Math.round((peak - before) * 10) / 10}), after ${after} MiB`,
    );
  } finally {
    await db.end();
    await server.stop();
    await dropDatabase(name);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const parallel = numberArg('parallel', 6);
  const files = numberArg('files', 5);
  const lots = { UPLOAD_DAILY_MB_PER_WORKER: '100000' };
  await round(
    'all accepted (concurrency quota = burst)',
    { ...lots, UPLOAD_MAX_CONCURRENT_PER_WORKER: String(parallel) },
    parallel,
    files,
  );
  await round('default concurrency quota', lots, parallel, files);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
