import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { createOrUpdateAdmin } from '../../src/admin/admin-accounts';
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

export const OPERATOR_PASSWORD = 'operator passphrase';

/** An operator who signs in through the API (a real password), made with admin:create's own function. */
export async function createOperator(
  t: TestApp,
  opts: { requireTotp?: boolean } = {},
): Promise<{ id: string; email: string }> {
  const email = `operator-${randomUUID()}@example.com`;
  const { id } = await createOrUpdateAdmin(t.db, {
    email,
    password: OPERATOR_PASSWORD,
    requireTotp: opts.requireTotp,
  });
  return { id, email };
}

/** The code an authenticator app shows for `secret` at `at` (the app's clock: pass the test clock's now). */
export function totpCode(secret: string, at: Date): string {
  return TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: at.getTime() });
}

/** The secret in an otpauth:// URI, as an app scanning the QR code reads it. */
export function secretOfUri(uri: string): string {
  return new URL(uri).searchParams.get('secret')!;
}
