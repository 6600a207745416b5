/** An admins row: an operator account, created from the command line (admin-create.cli.ts). */
export interface AdminRow {
  id: string;
  email: string;
  password_hash: string;
  /** The lock-out columns, kept by auth's LoginThrottle. */
  failed_login_count: number;
  failed_login_window_start: Date | null;
  locked_until: Date | null;
  /** The confirmed TOTP secret, sealed (OperatorSecrets); null when two-factor is off. */
  totp_secret: string | null;
  /** When the secret was confirmed with a first code; null exactly when totp_secret is. */
  totp_enabled_at: Date | null;
  /** bigint (text from pg): the time step of the last code accepted; codes for it or earlier are refused. */
  totp_last_step: string | null;
  /** An enrolment started and not yet confirmed (sealed); replaced by each new start. */
  totp_pending_secret: string | null;
  /** `admin:create --require-totp`: the account may not act before it enrols. */
  totp_required: boolean;
  created_at: Date;
}

/** An admin_recovery_codes row: one single-use code, kept as a keyed hash only. */
export interface AdminRecoveryCodeRow {
  admin_id: string;
  code_hash: string;
  created_at: Date;
  used_at: Date | null;
}
