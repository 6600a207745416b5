/** An admins row: an operator account, created from the command line (admin-create.cli.ts). */
export interface AdminRow {
  id: string;
  email: string;
  password_hash: string;
  /** The lock-out columns, kept by auth's LoginThrottle. */
  failed_login_count: number;
  failed_login_window_start: Date | null;
  locked_until: Date | null;
  created_at: Date;
}
