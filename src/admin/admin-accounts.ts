import { isEmail } from 'class-validator';
import type { DataSource } from 'typeorm';
import { PasswordHasher } from '../auth/passwords';
import { revokeSessions } from '../auth/tokens';
import { sqlRows } from '../database/sql';
import type { AdminRow } from './admin.rows';

export const ADMIN_PASSWORD_MIN = 12;
export const ADMIN_PASSWORD_MAX = 128;

export const ADMIN_CREATE_USAGE =
  'Usage: npm run admin:create -- --email <email> --password <password>\n' +
  `  Creates the operator, or sets a new password for an existing one (ending its sessions).\n` +
  `  The password needs ${ADMIN_PASSWORD_MIN} to ${ADMIN_PASSWORD_MAX} characters.`;

/** A mistake in the command line: the message says what is wrong, the CLI prints it with the usage. */
export class AdminCreateUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminCreateUsageError';
  }
}

export interface AdminCreateArgs {
  email: string;
  password: string;
}

export interface AdminCreateResult {
  id: string;
  email: string;
  created: boolean;
}

/** Parses `--email E --password P` (or `--email=E`); every problem is reported at once. */
export function parseAdminCreateArgs(argv: readonly string[]): AdminCreateArgs {
  const values: Partial<Record<'email' | 'password', string>> = {};
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const match = /^--(email|password)(?:=(.*))?$/s.exec(argv[i]);
    if (!match) {
      problems.push(`unknown argument '${argv[i]}'`);
      continue;
    }
    let value = match[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        problems.push(`--${match[1]} needs a value`);
        continue;
      }
      value = next;
      i++;
    }
    values[match[1] as 'email' | 'password'] = value;
  }
  const email = values.email?.trim().toLowerCase();
  const password = values.password;
  if (email === undefined) problems.push('--email is required');
  else if (!isEmail(email)) problems.push(`--email '${email}' is not an email address`);
  if (password === undefined) problems.push('--password is required');
  else if (password.length < ADMIN_PASSWORD_MIN || password.length > ADMIN_PASSWORD_MAX) {
    problems.push(`--password must have ${ADMIN_PASSWORD_MIN} to ${ADMIN_PASSWORD_MAX} characters`);
  }
  if (problems.length > 0) throw new AdminCreateUsageError(problems.join('; '));
  return { email: email!, password: password! };
}

/**
 * Creates the operator or, when the email exists (case-insensitively), replaces its password, clears a lock-out
 * and revokes its refresh tokens: resetting an operator password must end sessions opened with the old one.
 */
export async function createOrUpdateAdmin(
  ds: DataSource,
  args: AdminCreateArgs,
  hasher: PasswordHasher = new PasswordHasher(),
  now: Date = new Date(),
): Promise<AdminCreateResult> {
  const passwordHash = await hasher.hash(args.password);
  return ds.transaction(async (em) => {
    const rows = await sqlRows<Pick<AdminRow, 'id' | 'email'> & { created: boolean }>(
      em,
      `INSERT INTO admins AS a (email, password_hash, created_at) VALUES ($1, $2, $3)
       ON CONFLICT ((lower(email))) DO UPDATE SET
         password_hash = EXCLUDED.password_hash, failed_login_count = 0,
         failed_login_window_start = NULL, locked_until = NULL
       RETURNING a.id, a.email, (xmax = 0) AS created`,
      [args.email, passwordHash, now],
    );
    const admin = rows[0];
    if (!admin.created) await revokeSessions(em, 'admin', admin.id, now);
    return admin;
  });
}
