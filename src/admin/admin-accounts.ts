import { isEmail } from 'class-validator';
import type { DataSource, EntityManager } from 'typeorm';
import { recordOperatorAction } from '../audit/operator-audit';
import { PasswordHasher } from '../auth/passwords';
import { revokeSessions } from '../auth/tokens';
import { sqlExec, sqlRows } from '../database/sql';
import type { AdminRow } from './admin.rows';

export const ADMIN_PASSWORD_MIN = 12;
export const ADMIN_PASSWORD_MAX = 128;

export const ADMIN_CREATE_USAGE =
  'Usage: npm run admin:create -- --email <email> [--password <password>] [--require-totp | --no-require-totp]\n' +
  '                               [--reset-totp]\n' +
  '  Creates the operator (--password needed), or changes an existing one and ends its sessions:\n' +
  '  --password         sets a new password (and clears a lock-out)\n' +
  '  --require-totp     the operator must set up two-factor sign-in (TOTP) before any operator action\n' +
  '  --no-require-totp  lifts that requirement (two-factor already set up stays on)\n' +
  '  --reset-totp       removes the two-factor secret and recovery codes (a lost authenticator)\n' +
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
  /** Required to create; optional when changing an existing operator. */
  password?: string;
  /** true or false to set the requirement; undefined leaves it (false for a new operator). */
  requireTotp?: boolean;
  resetTotp?: boolean;
}

export interface AdminCreateResult {
  id: string;
  email: string;
  created: boolean;
}

const FLAGS = ['require-totp', 'no-require-totp', 'reset-totp'] as const;

/** Parses `--email E --password P` (or `--email=E`) and the two-factor flags; every problem is reported at once. */
export function parseAdminCreateArgs(argv: readonly string[]): AdminCreateArgs {
  const values: Partial<Record<'email' | 'password', string>> = {};
  const flags = new Set<string>();
  const problems: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = /^--([a-z-]+)$/.exec(argv[i])?.[1];
    if (flag && (FLAGS as readonly string[]).includes(flag)) {
      flags.add(flag);
      continue;
    }
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
  if (
    password !== undefined &&
    (password.length < ADMIN_PASSWORD_MIN || password.length > ADMIN_PASSWORD_MAX)
  ) {
    problems.push(`--password must have ${ADMIN_PASSWORD_MIN} to ${ADMIN_PASSWORD_MAX} characters`);
  }
  if (flags.has('require-totp') && flags.has('no-require-totp')) {
    problems.push('--require-totp and --no-require-totp contradict each other');
  }
  if (password === undefined && flags.size === 0) {
    problems.push('--password is required (or a two-factor option, to change an existing operator)');
  }
  if (problems.length > 0) throw new AdminCreateUsageError(problems.join('; '));
  const requireTotp = flags.has('require-totp') ? true : flags.has('no-require-totp') ? false : undefined;
  return { email: email!, password, requireTotp, resetTotp: flags.has('reset-totp') || undefined };
}

type AdminState = Pick<AdminRow, 'id' | 'email' | 'totp_required'> & { totp_enabled: boolean };

/**
 * Creates the operator or changes an existing one (the email matched case-insensitively). Any change ends the
 * operator's sessions: a new password must end sessions opened with the old one, a two-factor reset or requirement
 * must take effect at once. One audit entry per run, from the command line (source `cli`), in the same transaction.
 */
export async function createOrUpdateAdmin(
  ds: DataSource,
  args: AdminCreateArgs,
  hasher: PasswordHasher = new PasswordHasher(),
  now: Date = new Date(),
): Promise<AdminCreateResult> {
  const passwordHash = args.password === undefined ? null : await hasher.hash(args.password);
  return ds.transaction(async (em) => {
    const [before] = await sqlRows<AdminState>(
      em,
      `SELECT id, email, totp_required, totp_enabled_at IS NOT NULL AS totp_enabled
         FROM admins WHERE lower(email) = $1 FOR UPDATE`,
      [args.email],
    );
    if (!before && passwordHash === null) {
      throw new AdminCreateUsageError(`no operator ${args.email} yet: --password is required to create one`);
    }
    const after = before
      ? await changeAdmin(em, before.id, passwordHash, args, now)
      : await insertAdmin(em, args.email, passwordHash!, args.requireTotp ?? false, now);
    await recordOperatorAction(
      em,
      { source: 'cli', adminId: null, sessionId: null, requestId: null, ip: null },
      {
        action: before ? 'operator.updated' : 'operator.created',
        target: { type: 'operator', id: after.id },
        before: before ? stateView(before) : null,
        after: { ...stateView(after), ...(before ? { password_replaced: passwordHash !== null } : {}) },
      },
      now,
    );
    return { id: after.id, email: after.email, created: !before };
  });
}

async function insertAdmin(
  em: EntityManager,
  email: string,
  passwordHash: string,
  requireTotp: boolean,
  now: Date,
): Promise<AdminState> {
  const [row] = await sqlRows<AdminState>(
    em,
    `INSERT INTO admins (email, password_hash, totp_required, created_at) VALUES ($1, $2, $3, $4)
     RETURNING id, email, totp_required, false AS totp_enabled`,
    [email, passwordHash, requireTotp, now],
  );
  return row;
}

async function changeAdmin(
  em: EntityManager,
  id: string,
  passwordHash: string | null,
  args: AdminCreateArgs,
  now: Date,
): Promise<AdminState> {
  const reset = args.resetTotp === true;
  const [row] = await sqlRows<AdminState>(
    em,
    `UPDATE admins SET
       password_hash = COALESCE($2, password_hash),
       failed_login_count = CASE WHEN $2::text IS NULL THEN failed_login_count ELSE 0 END,
       failed_login_window_start = CASE WHEN $2::text IS NULL THEN failed_login_window_start END,
       locked_until = CASE WHEN $2::text IS NULL THEN locked_until END,
       totp_required = COALESCE($3, totp_required),
       totp_secret = CASE WHEN $4 THEN NULL ELSE totp_secret END,
       totp_enabled_at = CASE WHEN $4 THEN NULL ELSE totp_enabled_at END,
       totp_last_step = CASE WHEN $4 THEN NULL ELSE totp_last_step END,
       totp_pending_secret = CASE WHEN $4 THEN NULL ELSE totp_pending_secret END
     WHERE id = $1
     RETURNING id, email, totp_required, totp_enabled_at IS NOT NULL AS totp_enabled`,
    [id, passwordHash, args.requireTotp ?? null, reset],
  );
  if (reset) await sqlExec(em, `DELETE FROM admin_recovery_codes WHERE admin_id = $1`, [id]);
  await revokeSessions(em, 'admin', id, now);
  return row;
}

function stateView(s: AdminState): Record<string, unknown> {
  return { email: s.email, totp_required: s.totp_required, totp_enabled: s.totp_enabled };
}
