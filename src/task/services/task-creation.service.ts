import { DEFAULT_LOCATION_PROOF } from '../domain/location-proof';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AgentRepository, type AgentRow } from '../../agent/agent.repository';
import type { AgentActor } from '../../common/actor';
import { atTime, Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { requestHash } from '../../idempotency/canonical-json';
import { IdempotencyKeys } from '../../idempotency/idempotency-keys';
import type { HeldClaims } from '../../idempotency/idempotency-context';
import { idempotentTransaction } from '../../idempotency/idempotent-transaction';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { splitSlot, taskCost } from '../../escrow/fees';
import { Ledger } from '../../escrow/services/ledger';
import { type Spender, SpendCapsLedger, spendCapExceeded, spenderOf } from '../../escrow/services/spend-caps';
import {
  checkDeadline,
  DEFAULT_MAX_DISTANCE_METERS,
  DEFAULT_UNABLE_PAYOUT_PERCENT,
  estimateCompletion,
} from '../domain/task-policy';
import { LIVE_TASK_STATUSES } from '../domain/task-status';
import { checkAnswerRules } from '../domain/agreement';
import type { CreateTaskRequest } from '../dtos/create-task.dto';
import type { TaskResponse } from '../dtos/task-response.dto';
import { taskCreatedResponse } from '../task.presenter';
import { mapTask, TaskRow } from '../task.repository';
import { TestClocks } from '../test-clocks';
import { TaskDispatch } from './task-dispatch';
import { TaskSettlement } from './task-settlement';
import { SpendApprovals } from './spend-approvals';
import { tasksCreated } from '../../observability/metrics';

type AgentLimits = Pick<AgentRow, 'fee_bps' | 'max_concurrent_tasks'>;

/**
 * Task creation: validation the DTO cannot express, the agent's concurrent-task limit, the fee split and the
 * escrow hold, all in one idempotentTransaction that starts by locking the agent row (so the limit check is
 * race-free: concurrent creations by one agent run one after another).
 *
 * The body idempotency_key is a key of its own (scope `task`, kept for good) in the same store as the
 * Idempotency-Key header, hashed over the body alone, so it names one task whichever surface repeats it. With both,
 * the header is claimed first (it guards the exact request, by the interceptor), then the body key (it guards the
 * task); the answer commits with the task under both. A body key already used answers its task, and the header key
 * then stores that same answer.
 */
@Injectable()
export class TaskCreationService {
  constructor(
    private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly dispatch: TaskDispatch,
    private readonly settlement: TaskSettlement,
    private readonly keys: IdempotencyKeys,
    private readonly spendCaps: SpendCapsLedger,
    private readonly approvals: SpendApprovals,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `replayed` is true when an earlier creation with the same idempotency_key answers. */
  async create(
    actor: AgentActor,
    dto: CreateTaskRequest,
    claims: HeldClaims,
  ): Promise<{ body: TaskResponse; replayed: boolean }> {
    // The answer schema is part of the body's validation, so it is checked before any key is claimed (a body the
    // DTO passes but the schema check refuses never meets idempotency_conflict); the body then carries it as stored
    // (optional nulls dropped), for the key's hash and the insert alike.
    dto.answer_schema =
      checkAnswerRules(dto.answer_schema, dto.review_policy, dto.max_workers ?? 1).schema ?? undefined;
    if (dto.test_clock === undefined) return this.createNow(actor, dto, claims);
    // A task on a sandbox test clock is created at the clock's time (product-decisions §12).
    if (this.config.paymentMode !== 'sandbox') {
      throw ApiError.field('test_clock', 'test clocks exist only in sandbox mode');
    }
    const clock = await TestClocks.findOwned(this.ds, actor.id, dto.test_clock);
    if (!clock) throw new ApiError('test_clock_not_found', 'No such test clock.');
    return atTime(clock.frozen_time, () => this.createNow(actor, dto, claims));
  }

  private async createNow(
    actor: AgentActor,
    dto: CreateTaskRequest,
    claims: HeldClaims,
  ): Promise<{ body: TaskResponse; replayed: boolean }> {
    const key = dto.idempotency_key;
    if (key === undefined) return { body: await this.createTask(actor, dto, claims), replayed: false };
    const outcome = await this.keys.run(
      {
        ref: { agentId: actor.id, scope: 'task', key },
        name: 'idempotency_key',
        hash: requestHash('create-task', dto),
        successStatus: 201,
        keepRefusals: false,
        mismatch: (stored) =>
          new ApiError(
            'idempotency_conflict',
            'This idempotency_key was already used for a task created with a different body.',
            taskOf(stored.response),
          ),
      },
      (claim) => this.createTask(actor, dto, [...claims, claim]),
    );
    return { body: outcome.body as TaskResponse, replayed: outcome.replayed };
  }

  /** Checked after the key: a repeat of an earlier creation replays it even once its deadline has passed. */
  private async createTask(
    actor: AgentActor,
    dto: CreateTaskRequest,
    claims: HeldClaims,
  ): Promise<TaskResponse> {
    const now = this.clock.now();
    const deadline = checkDeadline(dto.deadline_at, now);
    const spender = spenderOf(actor);
    const created = await idempotentTransaction(this.ds, claims, async (em) => {
      const agent = await this.lockAgent(em, actor.id);
      const approval = spender ? await this.checkSpendCap(em, actor.id, spender, dto, agent, now) : null;
      // The insert counts the agent's live tasks itself (under the agent lock, so the count is current).
      const task = await this.insert(em, actor.id, dto, agent, now, deadline, spender);
      if (approval) await this.approvals.markUsed(em, approval, task.id, now);
      await this.ledger.holdTaskEscrow(em, {
        agentId: actor.id,
        taskId: task.id,
        amountCents: task.total_cents,
      });
      // Every slot is open: offer them to online workers nearby, in this transaction (see TaskDispatch). The task
      // was inserted by this transaction, so it has no assignments yet.
      if ((await this.dispatch.offerOpenSlots(em, task, now, [])).length > 0) {
        await this.settlement.reconcileTask(em, task, now);
      }
      return taskCreatedResponse(task);
    });
    // Committed: counted once (an Idempotency-Key or idempotency_key replay answers without coming here).
    tasksCreated.inc();
    return created;
  }

  /**
   * The spender's caps, under the agent's lock and the spender's (spend-caps.ts): a task that fits passes; one
   * that does not passes only with an approval a person gave for this exact body, which the caller marks used once
   * the task exists (the same transaction, so a refused creation leaves it unused). Otherwise 402 and nothing
   * changes. Answers the approval to use, or null.
   */
  private async checkSpendCap(
    em: EntityManager,
    agentId: string,
    spender: Spender,
    dto: CreateTaskRequest,
    agent: AgentLimits,
    now: Date,
  ): Promise<string | null> {
    const total = this.totalOf(dto, agent);
    const { over, limits } = await this.spendCaps.overCap(em, spender, total, now);
    if (!over) return null;
    const approval = dto.spend_approval_id
      ? await this.approvals.usable(em, {
          agentId,
          spender,
          id: dto.spend_approval_id,
          dto,
          total,
          now,
          limits,
        })
      : null;
    if (!approval) throw spendCapExceeded(over, total);
    return approval;
  }

  private totalOf(dto: CreateTaskRequest, agent: AgentLimits): number {
    const feeBps = agent.fee_bps ?? this.config.platformFeeBps;
    return taskCost(dto.budget_cents, dto.max_workers ?? 1, feeBps).total_cents;
  }

  private async insert(
    em: EntityManager,
    agentId: string,
    dto: CreateTaskRequest,
    agent: AgentLimits,
    now: Date,
    deadline: Date,
    spender: Spender | null,
  ): Promise<TaskRow> {
    const maxWorkers = dto.max_workers ?? 1;
    const feeBps = agent.fee_bps ?? this.config.platformFeeBps;
    const cost = taskCost(dto.budget_cents, maxWorkers, feeBps);
    const slot = splitSlot(dto.budget_cents, feeBps);
    const rows = await sqlRows(
      em,
      `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, address,
                          max_distance_meters, budget_cents, max_workers, fee_bps, payout_cents, fee_cents,
                          total_cents, required_skills, min_reputation, metadata, status, deadline_at,
                          estimated_completion_at, created_at, updated_at, open_slots, test_clock_id,
                          location_proof, answer_schema, review_policy, unable_payout_percent,
                          created_by_api_key_id, created_by_grant_id)
       SELECT $1::uuid, $2::text, $3::text, $4::text, $5::float8, $6::float8, $7::text, $8::int, $9::bigint,
              $10::int, $11::int, $12::bigint, $13::bigint, $14::bigint, $15::text[], $16::numeric, $17::jsonb,
              'pending', $18::timestamptz, $19::timestamptz, $20::timestamptz, $20::timestamptz, $10::int,
              $23::uuid, $24::text, $25::json, $26::jsonb, $27::int, $28::uuid, $29::uuid
        WHERE (SELECT count(*) FROM tasks WHERE agent_id = $1::uuid AND status = ANY($21::text[])) < $22::int
       RETURNING *`,
      [
        agentId,
        dto.title,
        dto.description,
        dto.task_type,
        dto.location.latitude,
        dto.location.longitude,
        dto.location.address ?? null,
        dto.location.max_distance_meters ?? DEFAULT_MAX_DISTANCE_METERS,
        dto.budget_cents,
        maxWorkers,
        feeBps,
        slot.payoutCents,
        slot.feeCents,
        cost.total_cents,
        [...new Set(dto.requirements?.skills ?? [])],
        dto.requirements?.min_reputation ?? null,
        JSON.stringify(dto.metadata ?? {}),
        deadline,
        estimateCompletion(now, deadline, dto.task_type),
        now,
        LIVE_TASK_STATUSES,
        agent.max_concurrent_tasks,
        dto.test_clock ?? null,
        dto.requirements?.location_proof ?? DEFAULT_LOCATION_PROOF,
        dto.answer_schema ? JSON.stringify(dto.answer_schema) : null,
        dto.review_policy ? JSON.stringify(dto.review_policy) : null,
        dto.unable_payout_percent ?? DEFAULT_UNABLE_PAYOUT_PERCENT,
        spender?.kind === 'api_key' ? spender.id : null,
        spender?.kind === 'grant' ? spender.id : null,
      ],
    );
    if (!rows.length) await this.refuseOverLimit(em, agentId, agent.max_concurrent_tasks);
    return mapTask(rows[0]);
  }

  private async lockAgent(em: EntityManager, agentId: string): Promise<AgentLimits> {
    const agent = await AgentRepository.lockForTaskCreation(em, agentId);
    if (!agent) throw new ApiError('invalid_token', 'The account of this credential no longer exists.');
    return agent;
  }

  /** The insert found the agent at its limit (it counts in the same statement); the count for the answer. */
  private async refuseOverLimit(em: EntityManager, agentId: string, limit: number): Promise<never> {
    const [{ live }] = await sqlRows<{ live: number }>(
      em,
      `SELECT count(*)::int AS live FROM tasks WHERE agent_id = $1 AND status = ANY($2)`,
      [agentId, LIVE_TASK_STATUSES],
    );
    throw new ApiError(
      'concurrent_task_limit',
      `At most ${limit} tasks may be active at once (pending, assigned, in progress or submitted).`,
      { max_concurrent_tasks: limit, active_tasks: live },
    );
  }
}

/** The task an earlier creation with this key made, for the 409 (unknown while that creation still runs). */
function taskOf(response: unknown): Record<string, unknown> {
  const taskId = (response as { task_id?: unknown } | null)?.task_id;
  return typeof taskId === 'string' ? { task_id: taskId } : {};
}
