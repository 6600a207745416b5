import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LoginThrottle } from '../../auth/login-throttle';
import { PasswordHasher } from '../../auth/passwords';
import { Tokens } from '../../auth/tokens';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows, type SqlRunner } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import type { DeleteAccountRequest, DeleteAccountResponse } from '../dtos/worker-deletion.dto';
import type { WorkerRow } from '../worker.repository';

/**
 * How long a deleted worker's withdrawal payees are held, hidden: accounting vouchers, which a payout's payee is part
 * of, are kept 30 years (会计档案管理办法 2015, art. 14), longer than the 10 years of tax records
 * (税收征收管理法实施细则 art. 29). docs/workers-rights.md says the same.
 */
export const WITHDRAWAL_IDENTITY_YEARS = 30;

/** Assignments still open: an offer waiting, a task taken, a submission not yet reviewed. */
const OPEN_ASSIGNMENTS = `SELECT 1 FROM assignments
  WHERE worker_id = $1 AND status IN ('pending', 'accepted', 'in_progress', 'submitted') LIMIT 1`;
/** Disputes not decided: the worker's own case is still open (product-decisions §19). */
const OPEN_DISPUTES = `SELECT 1 FROM disputes WHERE worker_id = $1 AND decided_at IS NULL LIMIT 1`;
/** Withdrawals not settled: under review or being paid. */
const OPEN_WITHDRAWALS = `SELECT 1 FROM withdrawals
  WHERE worker_id = $1 AND status IN ('pending_review', 'processing') LIMIT 1`;

/** One statement of the erasure and the values of its parameters, in order. */
interface Erasure {
  args: readonly ('worker' | 'now' | 'phone')[];
  sql: string;
}

/**
 * What deletion erases or hides, in order. The tables of modules above this one (assignments, messages, uploads,
 * withdrawals, ratings) are written by SQL here, as the data export reads them. Kept: the ledger (its accounts are named by the worker's id, which nothing links to a person any more), the
 * assignments with what the worker delivered (the agent paid for it), the ratings' numbers.
 */
const ERASE: readonly Erasure[] = [
  { args: ['phone'], sql: `DELETE FROM sms_codes WHERE phone_number = $1` },
  { args: ['phone'], sql: `DELETE FROM sandbox_sms WHERE phone_number = $1` },
  { args: ['worker'], sql: `DELETE FROM push_subscriptions WHERE worker_id = $1` },
  // The worker's own money notifications (their deliveries go with them): the ledger keeps what moved.
  { args: ['worker'], sql: `DELETE FROM worker_notifications WHERE worker_id = $1` },
  { args: ['worker'], sql: `DELETE FROM worker_availability WHERE worker_id = $1` },
  { args: ['worker'], sql: `DELETE FROM position_reports WHERE worker_id = $1` },
  {
    args: ['worker', 'now'],
    sql: `UPDATE worker_consents SET withdrawn_at = $2 WHERE worker_id = $1 AND withdrawn_at IS NULL`,
  },
  // Where the proof photos were taken, and what the file was called on the phone.
  {
    args: ['worker'],
    sql: `UPDATE uploads SET latitude = NULL, longitude = NULL, exif = NULL, original_name = NULL WHERE worker_id = $1`,
  },
  {
    args: ['worker'],
    sql: `UPDATE assignments SET device_location = NULL WHERE worker_id = $1 AND device_location IS NOT NULL`,
  },
  {
    args: ['worker'],
    sql: `UPDATE assignment_messages m SET body = '(deleted with the worker''s account)'
     FROM assignments a WHERE a.id = m.assignment_id AND a.worker_id = $1 AND m.sender = 'worker'`,
  },
  // The same text in the events that carried it (kept for replay and webhook redelivery).
  {
    args: ['worker'],
    sql: `UPDATE events e SET data = jsonb_set(e.data, '{body}', to_jsonb('(deleted with the worker''s account)'::text))
     FROM assignments a
    WHERE e.name = 'message.created' AND e.task_id = a.task_id AND a.worker_id = $1
      AND e.data->>'assignment_id' = a.id::text AND e.data->>'from' = 'worker'`,
  },
  // The worker's statements in decided disputes (an open one refuses deletion); the decision and its money stay.
  {
    args: ['worker'],
    sql: `UPDATE disputes SET statement = '(deleted with the worker''s account)', photo_urls = '{}'
    WHERE worker_id = $1`,
  },
  // The worker's words in their reports of tasks; the reason and what operators decided stay.
  {
    args: ['worker'],
    sql: `UPDATE task_reports SET note = '(deleted with the worker''s account)' WHERE worker_id = $1`,
  },
  {
    args: ['worker'],
    sql: `UPDATE agent_ratings SET comment = NULL WHERE worker_id = $1 AND comment IS NOT NULL`,
  },
  // The payee moves out of the table every route reads, held for the statutory period.
  {
    args: ['worker', 'now'],
    sql: `INSERT INTO withdrawal_identity_holds (withdrawal_id, payee_account, payee_name, held_until, created_at)
   SELECT id, payee_account, payee_name, created_at + interval '${WITHDRAWAL_IDENTITY_YEARS} years', $2
     FROM withdrawals WHERE worker_id = $1 AND payee_account <> 'erased'`,
  },
  {
    args: ['worker'],
    sql: `UPDATE withdrawals SET payee_account = 'erased', payee_name = NULL WHERE worker_id = $1`,
  },
  {
    args: ['worker', 'now'],
    sql: `UPDATE workers SET phone_number = 'deleted:' || id, password_hash = '!', display_name = NULL, skills = '{}',
          account_status = 'closed', offer_sms_enabled = false, failed_login_count = 0,
          failed_login_window_start = NULL, locked_until = NULL, deleted_at = $2, updated_at = $2
    WHERE id = $1`,
  },
];

/**
 * POST /v1/worker/delete-account (PIPL art. 47; product-decisions §19). Workers sign in with their phone number and
 * a password (registration proves the phone by SMS), so the password is the credential §19 names; a wrong one counts
 * toward the login lock-out. Refused with 409 while the account has open assignments, disputes or withdrawals.
 */
@Injectable()
export class WorkerDeletionService {
  constructor(
    private readonly ds: DataSource,
    private readonly passwords: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly tokens: Tokens,
    private readonly clock: Clock,
  ) {}

  async delete(actor: WorkerActor, dto: DeleteAccountRequest): Promise<DeleteAccountResponse> {
    const [worker] = await sqlRows<Pick<WorkerRow, 'password_hash'>>(
      this.ds,
      `SELECT password_hash FROM workers WHERE id = $1`,
      [actor.id],
    );
    const ok = await this.throttle.attempt('worker', actor.id, () =>
      this.passwords.verify(worker?.password_hash ?? null, dto.password),
    );
    if (!ok) throw new ApiError('invalid_credentials', 'Wrong password.');
    const now = this.clock.now();
    await inTransaction(this.ds, async (em) => {
      // FOR UPDATE: an accept (which locks the worker FOR NO KEY UPDATE) waits, then finds the account closed.
      const [row] = await sqlRows<Pick<WorkerRow, 'phone_number' | 'account_status'>>(
        em,
        `SELECT phone_number, account_status FROM workers WHERE id = $1 FOR UPDATE`,
        [actor.id],
      );
      if (!row || row.account_status !== 'active') {
        throw new ApiError('account_disabled', 'This account is suspended or closed.');
      }
      await refuseWhileOpen(em, actor.id);
      const values = { worker: actor.id, now, phone: row.phone_number };
      for (const e of ERASE)
        await sqlExec(
          em,
          e.sql,
          e.args.map((k) => values[k]),
        );
    });
    // Every session ends; an access token already issued is refused too (the account is closed).
    await this.tokens.revokeAllFor('worker', actor.id);
    return { status: 'deleted', deleted_at: now.toISOString() };
  }
}

/** The refusals of §19: open assignments, open disputes, withdrawals not settled. */
async function refuseWhileOpen(db: SqlRunner, workerId: string): Promise<void> {
  if ((await sqlRows(db, OPEN_ASSIGNMENTS, [workerId])).length > 0) {
    throw new ApiError('open_assignments', 'Finish or give up your open tasks and offers first.');
  }
  if ((await sqlRows(db, OPEN_DISPUTES, [workerId])).length > 0) {
    throw new ApiError('open_disputes', 'Wait until your disputes are decided first.');
  }
  if ((await sqlRows(db, OPEN_WITHDRAWALS, [workerId])).length > 0) {
    throw new ApiError('open_withdrawals', 'Wait until your withdrawals are paid or refused first.');
  }
}
