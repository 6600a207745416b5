import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { type SqlRunner, sqlRows } from '../../database/sql';
import { taskCost } from '../../escrow/fees';
import {
  type Spender,
  type SpenderLimits,
  SpendCapsLedger,
  spenderOf,
} from '../../escrow/services/spend-caps';
import { requestHash } from '../../idempotency/canonical-json';
import { AgentRepository } from '../../agent/agent.repository';
import { checkAnswerRules } from '../domain/agreement';
import type { CreateTaskRequest } from '../dtos/create-task.dto';
import type { SpendApprovalResponse, SpendApprovalStatus } from '../dtos/spend-approval.dto';

/** How long a person has to decide, and the agent to create the task once approved. */
export const SPEND_APPROVAL_TTL_MS = 30 * 60_000;

interface ApprovalRow {
  id: string;
  status: Exclude<SpendApprovalStatus, 'expired'>;
  task_body: Record<string, unknown>;
  total_cents: string;
  expires_at: Date;
  decided_at: Date | null;
  used_at: Date | null;
  task_id: string | null;
  created_at: Date;
}

const COLUMNS = `id, status, task_body, total_cents, expires_at, decided_at, used_at, task_id, created_at`;

/** What a task creation names when it asks to use an approval. */
export interface ApprovalUse {
  agentId: string;
  spender: Spender;
  id: string;
  dto: CreateTaskRequest;
  total: number;
  now: Date;
  limits: SpenderLimits | null;
}

/**
 * A person's approval of one task over the spend cap (product-decisions §21). The agent asks for it with the exact
 * task body; the person approves or declines it in the console (signed in, never with an API key: a key approving
 * its own spending would be no control); a creation with the same body then passes the cap once. An approval is
 * bound to the hash of that body, to the key or grant that asked, and to the ceiling, and expires.
 */
@Injectable()
export class SpendApprovals {
  constructor(
    private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly spendCaps: SpendCapsLedger,
    private readonly clock: Clock,
  ) {}

  async request(actor: AgentActor, dto: CreateTaskRequest): Promise<SpendApprovalResponse> {
    const spender = spenderOf(actor);
    if (!spender) {
      throw new ApiError(
        'forbidden',
        'Only an API key or an OAuth grant has a spend cap; the console creates tasks without one.',
      );
    }
    dto.answer_schema =
      checkAnswerRules(dto.answer_schema, dto.review_policy, dto.max_workers ?? 1).schema ?? undefined;
    const agent = await AgentRepository.account(this.ds, actor.id);
    if (!agent) throw new ApiError('invalid_token', 'The account of this credential no longer exists.');
    const feeBps = agent.fee_bps ?? this.config.platformFeeBps;
    const total = taskCost(dto.budget_cents, dto.max_workers ?? 1, feeBps).total_cents;
    const limits = await this.spendCaps.limits(this.ds, spender);
    refuseOverCeiling(limits, total);
    const now = this.clock.now();
    const rows = await sqlRows<ApprovalRow>(
      this.ds,
      `INSERT INTO spend_approvals (agent_id, spender_kind, spender_id, body_hash, task_body, total_cents,
                                    expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
      [
        actor.id,
        spender.kind,
        spender.id,
        bodyHash(dto),
        JSON.stringify(approvedBody(dto)),
        total,
        new Date(now.getTime() + SPEND_APPROVAL_TTL_MS),
        now,
      ],
    );
    return this.view(rows[0]);
  }

  async get(agentId: string, id: string): Promise<SpendApprovalResponse> {
    return this.view(await this.find(this.ds, agentId, id));
  }

  /**
   * The person's decision, once: a pending, unexpired approval becomes approved or declined; anything else is 409
   * with its status and changes nothing (an approval link opened again does nothing the second time).
   */
  async decide(agentId: string, id: string, approve: boolean): Promise<SpendApprovalResponse> {
    const now = this.clock.now();
    const rows = await sqlRows<ApprovalRow>(
      this.ds,
      `UPDATE spend_approvals SET status = $3, decided_at = $4
        WHERE id = $1 AND agent_id = $2 AND status = 'pending' AND expires_at > $4
       RETURNING ${COLUMNS}`,
      [id, agentId, approve ? 'approved' : 'declined', now],
    );
    if (rows[0]) return this.view(rows[0]);
    const current = this.view(await this.find(this.ds, agentId, id));
    throw new ApiError('invalid_state', `This approval is already ${current.status}: nothing was changed.`, {
      current_status: current.status,
    });
  }

  /**
   * In the creation transaction: the approval named, locked, if it lets this very creation pass the cap; else null
   * (the caller answers the cap's 402). The ceiling is read again, so lowering it after the approval still holds.
   */
  async usable(em: EntityManager, use: ApprovalUse): Promise<string | null> {
    const rows = await sqlRows<{ id: string }>(
      em,
      `SELECT id FROM spend_approvals
        WHERE id = $1 AND agent_id = $2 AND spender_kind = $3 AND spender_id = $4 AND status = 'approved'
          AND expires_at > $5 AND body_hash = $6 AND total_cents >= $7
        FOR UPDATE`,
      [use.id, use.agentId, use.spender.kind, use.spender.id, use.now, bodyHash(use.dto), use.total],
    );
    if (!rows[0]) return null;
    const ceiling = use.limits?.ceilingCents ?? 0;
    return use.total <= ceiling ? rows[0].id : null;
  }

  async markUsed(em: EntityManager, id: string, taskId: string, now: Date): Promise<void> {
    await sqlRows(
      em,
      `UPDATE spend_approvals SET status = 'used', used_at = $2, task_id = $3 WHERE id = $1 AND status = 'approved'`,
      [id, now, taskId],
    );
  }

  private async find(runner: SqlRunner, agentId: string, id: string): Promise<ApprovalRow> {
    const rows = await sqlRows<ApprovalRow>(
      runner,
      `SELECT ${COLUMNS} FROM spend_approvals WHERE id = $1 AND agent_id = $2`,
      [id, agentId],
    );
    if (!rows[0]) throw new ApiError('not_found', 'No spend approval of yours has this id.');
    return rows[0];
  }

  private view(row: ApprovalRow): SpendApprovalResponse {
    const open = row.status === 'pending' || row.status === 'approved';
    const expired = open && row.expires_at.getTime() <= this.clock.now().getTime();
    return {
      id: row.id,
      status: expired ? 'expired' : row.status,
      total_cents: Number(row.total_cents),
      task: row.task_body,
      approval_url: `${this.config.publicBaseUrl}/console/approvals/${row.id}`,
      expires_at: row.expires_at,
      decided_at: row.decided_at,
      used_at: row.used_at,
      task_id: row.task_id,
      created_at: row.created_at,
    };
  }
}

/** The task body an approval is for: every field but the approval itself and the idempotency key. */
function approvedBody(dto: CreateTaskRequest): Record<string, unknown> {
  const { spend_approval_id: _a, idempotency_key: _k, ...body } = dto;
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
}

function bodyHash(dto: CreateTaskRequest): string {
  return requestHash('spend-approval', approvedBody(dto));
}

function refuseOverCeiling(limits: SpenderLimits | null, total: number): void {
  const ceiling = limits?.ceilingCents ?? 0;
  if (total > ceiling) {
    throw new ApiError(
      'spend_approval_over_ceiling',
      ceiling === 0
        ? 'No task may be approved over the spend cap for this key: set an approval ceiling or raise the cap in the console.'
        : `This task (${total} cents) costs more than the ${ceiling} cents a person may approve over the cap.`,
      { ceiling_cents: ceiling, required_cents: total },
    );
  }
}
