import { randomUUID } from 'node:crypto';
import { Tokens } from '../../src/auth/tokens';
import type { TestApp } from './app';

export interface TestAdmin {
  id: string;
  bearer: string;
}

/**
 * An operator with an access token. The row is inserted directly with a hash nothing matches: operator login has
 * its own tests (test/admin), and skipping argon2 keeps fixtures cheap on a loaded machine.
 */
export async function createAdmin(t: TestApp): Promise<TestAdmin> {
  const [{ id }]: { id: string }[] = await t.db.query(
    `INSERT INTO admins (email, password_hash) VALUES ($1, 'fixture-no-login') RETURNING id`,
    [`admin-${randomUUID()}@example.com`],
  );
  const pair = await t.app.get(Tokens).issuePair('admin', id);
  return { id, bearer: `Bearer ${pair.access_token}` };
}
