import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { ApiError } from '../../common/errors/api-error';
import { type SqlRunner, sqlRows } from '../../database/sql';
import { periodBounds, SPEND_PERIODS, type SpendPeriod } from '../spend-periods';

/**
 * Who spends when a task is created: the API key it was created with, or the OAuth grant behind an MCP host's
 * token. The cap is counted per spender (product-decisions §21); a task created from the console (the agent's own
 * session) has no spender and no cap.
 */
export interface Spender {
  kind: 'api_key' | 'grant';
  id: string;
}

/**
 * The spender of a request: the OAuth grant whose internal agent token /mcp's tools call with, or the API key. The
 * console's own session spends as the person and is not capped.
 */
export function spenderOf(actor: AgentActor): Spender | null {
  if (actor.grantId) return { kind: 'grant', id: actor.grantId };
  return actor.keyId ? { kind: 'api_key', id: actor.keyId } : null;
}

/** `{daily_cents?, monthly_cents?}` as stored (jsonb) on an API key and on a grant. */
export interface SpendCaps {
  daily_cents?: number;
  monthly_cents?: number;
}

export interface SpenderLimits {
  caps: SpendCaps | null;
  /** The most one task approved over the cap may cost; null or 0: none may be. */
  ceilingCents: number | null;
}

/** One capped period as the API shows it (key listing, profile, the 402). */
export interface SpendPeriodStatus {
  period: SpendPeriod;
  cap_cents: number;
  counted_cents: number;
  remaining_cents: number;
  resets_at: string;
}

/**
 * Where each kind of spender keeps its caps, and the tasks column that names it. The grant row is the OAuth
 * module's (its `spend_caps` jsonb and `ceiling_cents`); the lock is taken in the creation transaction after the
 * agent's, so a cap changed meanwhile is read as committed.
 */
const SPENDERS = {
  api_key: {
    limits: `SELECT spend_caps, approval_ceiling_cents AS ceiling_cents FROM api_keys WHERE id = $1`,
    taskColumn: 'created_by_api_key_id',
  },
  grant: {
    limits: `SELECT spend_caps, ceiling_cents FROM oauth_grants WHERE id = $1`,
    taskColumn: 'created_by_grant_id',
  },
} as const;

/**
 * Spend caps: what a spender has spent in the period and whether one more task fits. Counted = the totals of the
 * tasks the spender created in the period, less the refunds to the agent later posted on those tasks (rejected or
 * expired slots, unfilled slots, cancellation refunds), read from the ledger's postings so the count follows the
 * money exactly.
 *
 * Race-freedom: `check` runs in the task-creation transaction, after the agent row is locked (every creation by
 * one agent runs one after another, and every spender belongs to one agent) and with the spender's row locked too,
 * so no two creations can both see room for themselves; refunds only lower the count, so one landing meanwhile can
 * never let a creation pass that should not.
 */
@Injectable()
export class SpendCapsLedger {
  async limits(em: SqlRunner, spender: Spender, lock = false): Promise<SpenderLimits | null> {
    const rows = await sqlRows<{ spend_caps: SpendCaps | null; ceiling_cents: string | null }>(
      em,
      SPENDERS[spender.kind].limits + (lock ? ' FOR UPDATE' : ''),
      [spender.id],
    );
    if (!rows[0]) return null;
    const ceiling = rows[0].ceiling_cents;
    return { caps: rows[0].spend_caps, ceilingCents: ceiling === null ? null : Number(ceiling) };
  }

  /** The status of each capped period at `now` (an empty list without caps). */
  async status(
    em: SqlRunner,
    spender: Spender,
    caps: SpendCaps | null,
    now: Date,
  ): Promise<SpendPeriodStatus[]> {
    const capped = SPEND_PERIODS.filter((p) => capOf(caps, p) !== undefined);
    if (capped.length === 0) return [];
    const counted = await this.counted(em, spender, now);
    return capped.map((period) => {
      const cap = capOf(caps, period)!;
      return {
        period,
        cap_cents: cap,
        counted_cents: counted[period],
        remaining_cents: Math.max(0, cap - counted[period]),
        resets_at: periodBounds(period, now).resetsAt.toISOString(),
      };
    });
  }

  /**
   * Locks the spender and answers the first period the new task would take past its cap (daily before monthly),
   * or null when it fits every cap. `null` too for a spender that no longer exists: the guard refuses those.
   */
  async overCap(
    em: EntityManager,
    spender: Spender,
    totalCents: number,
    now: Date,
  ): Promise<{ over: SpendPeriodStatus | null; limits: SpenderLimits | null }> {
    const limits = await this.limits(em, spender, true);
    const periods = await this.status(em, spender, limits?.caps ?? null, now);
    const over = periods.find((p) => p.counted_cents + totalCents > p.cap_cents) ?? null;
    return { over, limits };
  }

  /** Counted amounts of the current day and month (the month contains the day, so one scan serves both). */
  private async counted(em: SqlRunner, spender: Spender, now: Date): Promise<Record<SpendPeriod, number>> {
    const day = periodBounds('daily', now).start;
    const month = periodBounds('monthly', now).start;
    const column = SPENDERS[spender.kind].taskColumn;
    const rows = await sqlRows<{ daily: string; monthly: string }>(
      em,
      `WITH spent AS (
         SELECT t.id, t.created_at, t.total_cents,
                COALESCE((SELECT sum(p.amount)
                            FROM ledger_journals j
                            JOIN ledger_postings p ON p.journal_id = j.id
                            JOIN ledger_accounts a ON a.id = p.account_id
                           WHERE j.task_id = t.id
                             AND j.kind IN ('slot_refund', 'cancel_compensation')
                             AND a.kind = 'agent_available'), 0) AS refunded
           FROM tasks t
          WHERE t.${column} = $1 AND t.created_at >= $2)
       SELECT COALESCE(sum(total_cents - refunded) FILTER (WHERE created_at >= $3), 0)::text AS daily,
              COALESCE(sum(total_cents - refunded), 0)::text AS monthly
         FROM spent`,
      [spender.id, month, day],
    );
    return { daily: Number(rows[0].daily), monthly: Number(rows[0].monthly) };
  }
}

function capOf(caps: SpendCaps | null, period: SpendPeriod): number | undefined {
  const cap = period === 'daily' ? caps?.daily_cents : caps?.monthly_cents;
  return typeof cap === 'number' ? cap : undefined;
}

/** The 402 for a creation the cap refuses: nothing was created or held. */
export function spendCapExceeded(over: SpendPeriodStatus, totalCents: number): ApiError {
  return new ApiError(
    'spend_cap_exceeded',
    `This task (${totalCents} cents) would take the ${over.period} spend cap of ${over.cap_cents} cents past its ` +
      `limit: ${over.counted_cents} cents counted, ${over.remaining_cents} cents left until ${over.resets_at}.`,
    {
      period: over.period,
      cap_cents: over.cap_cents,
      counted_cents: over.counted_cents,
      remaining_cents: over.remaining_cents,
      resets_at: over.resets_at,
    },
  );
}
