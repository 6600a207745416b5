import { Client, Pool } from 'pg';

/**
 * The PostgreSQL server the benchmarks, the soak and the slow fault scripts run against. Each run creates its own
 * database on it (`legwork_bench_<ts>`), never touches another one, and drops it at the end.
 */
export const BENCH_SERVER_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string, server = BENCH_SERVER_URL): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(work: (c: Client) => Promise<T>, server = BENCH_SERVER_URL): Promise<T> {
  const client = new Client({ connectionString: server, application_name: 'legwork-bench' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(prefix = 'legwork_bench'): Promise<string> {
  const name = `${prefix}_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
  await onServer((c) => c.query(`CREATE DATABASE ${name}`));
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  await onServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export function pool(url: string, max = 4): Pool {
  return new Pool({ connectionString: url, max, application_name: 'legwork-bench' });
}

/** Server facts for the report (version and the settings that shape throughput). */
export async function serverFacts(url: string): Promise<Record<string, string>> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const names = [
      'server_version',
      'max_connections',
      'shared_buffers',
      'work_mem',
      'synchronous_commit',
      'fsync',
      'wal_level',
    ];
    const facts: Record<string, string> = {};
    for (const n of names) facts[n] = (await c.query<Record<string, string>>(`SHOW ${n}`)).rows[0][n];
    return facts;
  } finally {
    await c.end();
  }
}
