import type { AccountStatus } from '../common/actor';
import { numericColumns, sqlRows, type SqlRunner } from '../database/sql';
import type { ReputationDetails } from '../matching/services/worker-reputation';
import type { SmsPurpose } from './sms/sms-codes';

/**
 * A workers row. The lock-out columns are kept by auth's LoginThrottle; the reputation columns (ReputationDetails)
 * are recomputed in the transaction of every assignment outcome that feeds them (WorkerReputation.recompute).
 */
export interface WorkerRow extends ReputationDetails {
  id: string;
  phone_number: string;
  password_hash: string;
  display_name: string | null;
  skills: string[];
  account_status: AccountStatus;
  failed_login_count: number;
  failed_login_window_start: Date | null;
  locked_until: Date | null;
  reputation_updated_at: Date | null;
  /** The sandbox agent whose simulated worker this is (product-decisions §12); null for people. */
  simulated_by_agent_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** What the sandbox sets on one of its simulated workers. */
export interface SimulatedWorkerFields {
  displayName: string;
  skills: string[];
  reputation: number;
}

/** An sms_codes row: a verification code, stored only as a keyed hash (sms-codes.ts). */
export interface SmsCodeRow {
  id: string;
  phone_number: string;
  purpose: SmsPurpose;
  code_hash: string;
  attempts: number;
  expires_at: Date;
  consumed_at: Date | null;
  /** Set when a newer code for the same phone and purpose was sent. */
  superseded_at: Date | null;
  created_at: Date;
}

/** reputation and rating_average are numeric (text from pg). Takes any selection of workers columns. */
export function toWorker<T extends Partial<WorkerRow> = WorkerRow>(row: Record<string, unknown>): T {
  return numericColumns<T>(row, ['reputation', 'rating_average']);
}

/** The workers table for the modules above this one. */
export const WorkerRepository = {
  /**
   * Locks the worker for an accept and returns what eligibility needs. Callers hold the task row lock: always
   * task, then worker, so accepts never deadlock; NO KEY UPDATE leaves foreign-key checks on the row unblocked.
   */
  async lockForAccept(
    db: SqlRunner,
    workerId: string,
  ): Promise<Pick<WorkerRow, 'skills' | 'reputation'> | null> {
    const rows = await sqlRows(db, `SELECT skills, reputation FROM workers WHERE id = $1 FOR NO KEY UPDATE`, [
      workerId,
    ]);
    return rows.length ? toWorker<Pick<WorkerRow, 'skills' | 'reputation'>>(rows[0]) : null;
  },

  /**
   * A simulated worker of a sandbox agent: a real account that can never log in (its phone number is
   * `sandbox:<id>`, and login takes mobile numbers only; the password hash matches nothing).
   */
  async insertSimulated(
    db: SqlRunner,
    id: string,
    agentId: string,
    fields: SimulatedWorkerFields,
    now: Date,
  ): Promise<void> {
    await sqlRows(
      db,
      `INSERT INTO workers (id, phone_number, password_hash, display_name, skills, reputation, simulated_by_agent_id,
                            created_at, updated_at)
       VALUES ($1, $2, '!', $3, $4, $5, $6, $7, $7)`,
      [id, `sandbox:${id}`, fields.displayName, fields.skills, fields.reputation, agentId, now],
    );
  },

  /** Changes a simulated worker of this agent; closing it takes it out of matching for good. */
  async updateSimulated(
    db: SqlRunner,
    id: string,
    agentId: string,
    fields: Partial<SimulatedWorkerFields> & { close?: boolean },
    now: Date,
  ): Promise<void> {
    await sqlRows(
      db,
      `UPDATE workers SET display_name = COALESCE($3, display_name), skills = COALESCE($4, skills),
              reputation = COALESCE($5, reputation),
              account_status = CASE WHEN $6 THEN 'closed' ELSE account_status END, updated_at = $7
        WHERE id = $1 AND simulated_by_agent_id = $2`,
      [
        id,
        agentId,
        fields.displayName ?? null,
        fields.skills ?? null,
        fields.reputation ?? null,
        !!fields.close,
        now,
      ],
    );
  },
};
