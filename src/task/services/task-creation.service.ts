import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AgentRepository, type AgentRow } from '../../agent/agent.repository';
import type { AgentActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { requestHash } from '../../idempotency/canonical-json';
import { recordIdempotentResponse } from '../../idempotency/idempotency.store';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { splitSlot, taskCost } from '../../escrow/fees';
import { Ledger } from '../../escrow/services/ledger';
import { DEADLINE_MAX_DAYS, DEFAULT_MAX_DISTANCE_METERS, estimateCompletion } from '../domain/task-policy';
import { LIVE_TASK_STATUSES } from '../domain/task-status';
import type { CreateTaskRequest } from '../dtos/create-task.dto';
import type { TaskResponse } from '../dtos/task-response.dto';
import { taskCreatedResponse } from '../task.presenter';
import { mapTask, TaskRow } from '../task.repository';
import { TaskDispatch } from './task-dispatch';
import { TaskSettlement } from './task-settlement';

type AgentLimits = Pick<AgentRow, 'fee_bps' | 'max_concurrent_tasks'>;

/**
 * Task creation: validation the DTO cannot express, the agent's concurrent-task limit, the fee split and the
 * escrow hold, all in one transaction that starts by locking the agent row. That lock makes the limit check and
 * the body idempotency key race-free: concurrent creations by one agent run one after another.
 */
@Injectable()
export class TaskCreationService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly ledger: Ledger,
    private readonly dispatch: TaskDispatch,
    private readonly settlement: TaskSettlement,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `replayed` is true when an earlier creation with the same idempotency_key answers. */
  async create(
    actor: AgentActor,
    dto: CreateTaskRequest,
  ): Promise<{ body: TaskResponse; replayed: boolean }> {
    const key = dto.idempotency_key ?? null;
    const hash = key ? requestHash('create-task', dto) : null;
    if (key) {
      // Fast path for repeats: no lock needed to read a committed task.
      const earlier = await this.findByKey(this.ds.manager, actor.id, key);
      if (earlier) return { body: replay(earlier, hash!), replayed: true };
    }
    const now = this.clock.now();
    const deadline = checkDeadline(dto.deadline_at, now);
    return inTransaction(this.ds, async (em) => {
      const agent = await this.lockAgent(em, actor.id);
      if (key) {
        const earlier = await this.findByKey(em, actor.id, key);
        if (earlier) return { body: replay(earlier, hash!), replayed: true };
      }
      // The insert counts the agent's live tasks itself (under the agent lock, so the count is current).
      const task = await this.insert(em, actor.id, dto, agent, now, deadline, key, hash);
      await this.ledger.holdTaskEscrow(em, {
        agentId: actor.id,
        taskId: task.id,
        amountCents: task.total_cents,
        reference: `task:${task.id}:hold`,
        description: `Escrow for task ${task.id}`,
      });
      // Every slot is open: offer them to online workers nearby, in this transaction (see TaskDispatch).
      if ((await this.dispatch.offerOpenSlots(em, task, now)).length > 0) {
        await this.settlement.reconcileTask(em, task, now);
      }
      const body = taskCreatedResponse(task);
      // With an Idempotency-Key header, the answer commits with the task and its hold (exactly once after a crash).
      await recordIdempotentResponse(em, body);
      return { body, replayed: false };
    });
  }

  private async insert(
    em: EntityManager,
    agentId: string,
    dto: CreateTaskRequest,
    agent: AgentLimits,
    now: Date,
    deadline: Date,
    key: string | null,
    hash: string | null,
  ): Promise<TaskRow> {
    const maxWorkers = dto.max_workers ?? 1;
    const feeBps = agent.fee_bps ?? this.config.platformFeeBps;
    const cost = taskCost(dto.budget_cents, maxWorkers, feeBps);
    const slot = splitSlot(dto.budget_cents, feeBps);
    const rows = await sqlRows(
      em,
      `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, address,
                          max_distance_meters, budget_cents, max_workers, fee_bps, payout_cents, fee_cents,
                          total_cents, required_skills, min_reputation, metadata, status, idempotency_key,
                          idempotency_request_hash, deadline_at, estimated_completion_at, created_at, updated_at,
                          open_slots)
       SELECT $1::uuid, $2::text, $3::text, $4::text, $5::float8, $6::float8, $7::text, $8::int, $9::bigint,
              $10::int, $11::int, $12::bigint, $13::bigint, $14::bigint, $15::text[], $16::numeric, $17::jsonb,
              'pending', $18::text, $19::text, $20::timestamptz, $21::timestamptz, $22::timestamptz,
              $22::timestamptz, $10::int
        WHERE (SELECT count(*) FROM tasks WHERE agent_id = $1::uuid AND status = ANY($23::text[])) < $24::int
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
        key,
        hash,
        deadline,
        estimateCompletion(now, deadline, dto.task_type),
        now,
        LIVE_TASK_STATUSES,
        agent.max_concurrent_tasks,
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

  private async findByKey(em: EntityManager, agentId: string, key: string): Promise<TaskRow | null> {
    const rows = await sqlRows(em, `SELECT * FROM tasks WHERE agent_id = $1 AND idempotency_key = $2`, [
      agentId,
      key,
    ]);
    return rows.length ? mapTask(rows[0]) : null;
  }
}

function replay(task: TaskRow, hash: string): TaskResponse {
  if (task.idempotency_request_hash !== hash) {
    throw new ApiError(
      'idempotency_conflict',
      'This idempotency_key was already used for a task created with a different body.',
      { task_id: task.id },
    );
  }
  return taskCreatedResponse(task);
}

function checkDeadline(value: string, now: Date): Date {
  const deadline = new Date(value);
  if (Number.isNaN(deadline.getTime())) throw ApiError.field('deadline_at', 'is not a valid date-time');
  if (deadline.getTime() <= now.getTime()) throw ApiError.field('deadline_at', 'must be in the future');
  if (deadline.getTime() > now.getTime() + DEADLINE_MAX_DAYS * 86_400_000) {
    throw ApiError.field('deadline_at', `must be at most ${DEADLINE_MAX_DAYS} days ahead`);
  }
  return deadline;
}
