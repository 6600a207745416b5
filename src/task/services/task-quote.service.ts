import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { sqlRows } from '../../database/sql';
import { cancellationSplit, shareSplit, splitSlot, taskCost } from '../../escrow/fees';
import { Balances } from '../../escrow/services/balances';
import { WorkerRanking } from '../../matching/services/worker-ranking';
import {
  checkDeadline,
  DEFAULT_MAX_DISTANCE_METERS,
  DEFAULT_UNABLE_PAYOUT_PERCENT,
  estimateCompletion,
} from '../domain/task-policy';
import { LIVE_TASK_STATUSES } from '../domain/task-status';
import type { CreateTaskRequest } from '../dtos/create-task.dto';
import type {
  QuoteRefundCase,
  QuoteRefundPolicy,
  QuoteWorkers,
  TaskQuoteResponse,
} from '../dtos/task-quote.dto';
import { checkAnswerRules, type ReviewPolicy } from '../domain/agreement';
import { quoteCountArea, workerCountBucket } from '../domain/quote-privacy';

/**
 * The quote: a creation body priced and checked as creation would, without creating, holding or locking anything.
 * The same validation (the DTO and the deadline rules), the same fee arithmetic (escrow/fees) with the agent's own
 * rate, and the same eligibility query the offers use (for people over a coarser area, reported coarsely:
 * domain/quote-privacy.ts). Reads are separate statements, so under concurrent writes the figures are each current
 * but not one snapshot: a quote is advice, creation decides.
 */
@Injectable()
export class TaskQuoteService {
  constructor(
    private readonly ds: DataSource,
    private readonly balances: Balances,
    private readonly ranking: WorkerRanking,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async quote(actor: AgentActor, dto: CreateTaskRequest): Promise<TaskQuoteResponse> {
    const now = this.clock.now();
    const deadline = checkDeadline(dto.deadline_at, now);
    const agent = await this.agentLimits(actor.id);
    const maxWorkers = dto.max_workers ?? 1;
    const answers = checkAnswerRules(dto.answer_schema, dto.review_policy, maxWorkers);
    const feeBps = agent.fee_bps ?? this.config.platformFeeBps;
    const cost = taskCost(dto.budget_cents, maxWorkers, feeBps);
    const slot = splitSlot(dto.budget_cents, feeBps);
    const radius = dto.location.max_distance_meters ?? DEFAULT_MAX_DISTANCE_METERS;
    const [funds, workers] = await Promise.all([
      this.balances.agentFunds(actor.id),
      this.workers(actor, dto, radius, now),
    ]);
    const covers = funds.availableCents >= cost.total_cents;
    const withinLimit = agent.active < agent.max_concurrent_tasks;
    const unablePercent = dto.unable_payout_percent ?? DEFAULT_UNABLE_PAYOUT_PERCENT;
    return {
      max_workers: maxWorkers,
      unable_payout_percent: unablePercent,
      fee_bps: feeBps,
      per_slot: {
        budget_cents: dto.budget_cents,
        worker_payout_cents: slot.payoutCents,
        platform_fee_cents: slot.feeCents,
      },
      cost_breakdown: cost,
      total_to_hold_cents: cost.total_cents,
      balance: {
        available_cents: funds.availableCents,
        covers,
        shortfall_cents: Math.max(0, cost.total_cents - funds.availableCents),
      },
      concurrency: {
        active_tasks: agent.active,
        max_concurrent_tasks: agent.max_concurrent_tasks,
        within_limit: withinLimit,
      },
      can_create: covers && withinLimit,
      refund_policy: refundPolicy(dto.budget_cents, unablePercent, feeBps),
      auto_approval: { delay_hours: this.config.autoApproveHours },
      workers,
      estimated_completion_at: estimateCompletion(now, deadline, dto.task_type).toISOString(),
      answer_schema: answers.schema,
      review_policy: (dto.review_policy as ReviewPolicy | undefined) ?? null,
    };
  }

  /**
   * People are counted around the task's 500 m grid cell within at least 2 km and reported in buckets; the agent's
   * own simulated workers exactly as the offers would reach them (at the point, within the task's radius).
   */
  private async workers(
    actor: AgentActor,
    dto: CreateTaskRequest,
    radius: number,
    now: Date,
  ): Promise<QuoteWorkers> {
    const area = quoteCountArea(dto.location, radius);
    const target = {
      taskId: null,
      agentId: actor.id,
      latitude: dto.location.latitude,
      longitude: dto.location.longitude,
      maxDistanceMeters: radius,
      requiredSkills: [...new Set(dto.requirements?.skills ?? [])],
      minReputation: dto.requirements?.min_reputation ?? null,
    };
    const around = { ...target, ...area.centre, maxDistanceMeters: area.radiusMeters };
    const [people, simulated] = await Promise.all([
      this.ranking.count(this.ds, around, now, 'people'),
      this.ranking.count(this.ds, target, now, 'simulated'),
    ]);
    return {
      radius_meters: area.radiusMeters,
      eligible_online: workerCountBucket(people.eligibleOnline),
      available_now: workerCountBucket(people.freeNow),
      simulated_online: simulated.eligibleOnline,
    };
  }

  private async agentLimits(
    agentId: string,
  ): Promise<{ fee_bps: number | null; max_concurrent_tasks: number; active: number }> {
    const rows = await sqlRows<{ fee_bps: number | null; max_concurrent_tasks: number; active: number }>(
      this.ds,
      `SELECT a.fee_bps, a.max_concurrent_tasks,
              (SELECT count(*)::int FROM tasks t WHERE t.agent_id = a.id AND t.status = ANY($2)) AS active
         FROM agents a WHERE a.id = $1`,
      [agentId, LIVE_TASK_STATUSES],
    );
    if (!rows.length) throw new ApiError('invalid_token', 'The account of this credential no longer exists.');
    return rows[0];
  }
}

/** The refund policy (spec, decisions "Tasks") applied to one slot's budget, with the ledger's own rounding. */
export function refundPolicy(budgetCents: number, unablePercent: number, feeBps: number): QuoteRefundPolicy {
  const whole = refundCase(budgetCents, budgetCents, 0);
  const split = cancellationSplit(budgetCents);
  const unable = shareSplit(budgetCents, unablePercent, feeBps);
  return {
    worker_unable: refundCase(budgetCents, unable.agentRefundCents, unable.workerCents),
    cancel_unassigned: whole,
    cancel_assigned: refundCase(budgetCents, split.agentRefundCents, split.workerCents),
    cancel_in_progress: { ...refundCase(budgetCents, 0, 0), allowed: false },
    result_rejected: whole,
    deadline_expired: whole,
    worker_abandons: refundCase(budgetCents, 0, 0),
  };
}

function refundCase(budgetCents: number, refundCents: number, workerCents: number): QuoteRefundCase {
  return {
    allowed: true,
    refund_cents_per_slot: refundCents,
    worker_cents_per_slot: workerCents,
    refund_percent: Math.round((refundCents * 100) / budgetCents),
  };
}
