import { withServer } from './databases';

export default async function globalTeardown(): Promise<void> {
  const name = process.env.LEGWORK_TEST_TEMPLATE;
  if (!name) return;
  await withServer(async (c) => {
    const dbs = await c.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `${name}%`,
    ]);
    for (const { datname } of dbs.rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  });
}
