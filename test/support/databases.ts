import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The server the e2e suite runs against: TEST_DATABASE_URL, or the local PostgreSQL with trust auth. Tests create
 * their own databases on it and drop them afterwards; they never touch an existing database.
 */
export const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withServer<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: SERVER_URL, application_name: 'legwork-tests' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function templateName(): string {
  const name = process.env.LEGWORK_TEST_TEMPLATE;
  if (!name)
    throw new Error('LEGWORK_TEST_TEMPLATE is not set: run the e2e suite through jest (global setup).');
  return name;
}

/** A fresh, migrated database for one test file, cloned from the run's template in a few hundred ms. */
export async function createTestDatabase(): Promise<string> {
  const name = `${templateName()}_f${randomBytes(4).toString('hex')}`;
  await withServer((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${templateName()}`));
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  await withServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
