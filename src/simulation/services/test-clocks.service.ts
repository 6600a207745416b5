import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentActor } from '../../common/actor';
import { atTime, Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlRows } from '../../database/sql';
import { TaskTimers } from '../../task/services/task-timers';
import { type TestClockRow, TestClocks } from '../../task/test-clocks';
import {
  type AdvanceTestClockRequest,
  type CreateTestClockRequest,
  type DeletedTestClock,
  MAX_ADVANCE_SECONDS,
  type TestClockList,
  type TestClockResponse,
} from '../dtos/test-clock.dto';
import { ClockAdvance } from './clock-advance';

/**
 * `/v1/sandbox/clocks` (Stripe's test clocks): an agent's clocks, each a time of its own for the tasks created with
 * `test_clock`. Clocks move forward only, at most 30 days per advance; an advance or deletion holds the clock (status
 * `advancing`) so two never overlap. Real time keeps running for every task that is not on a clock.
 */
@Injectable()
export class TestClocksService {
  constructor(
    private readonly ds: DataSource,
    private readonly advancing: ClockAdvance,
    private readonly timers: TaskTimers,
    private readonly clock: Clock,
  ) {}

  async create(actor: AgentActor, dto: CreateTestClockRequest): Promise<TestClockResponse> {
    const now = this.clock.now();
    const frozen = dto.frozen_time ? new Date(dto.frozen_time) : now;
    const row = await TestClocks.insert(this.ds, actor.id, dto.name ?? null, frozen, now);
    return this.view(row);
  }

  async list(actor: AgentActor): Promise<TestClockList> {
    const rows = await TestClocks.list(this.ds, actor.id);
    return { data: await Promise.all(rows.map((r) => this.view(r))) };
  }

  async get(actor: AgentActor, clockId: string): Promise<TestClockResponse> {
    return this.view(await this.own(actor, clockId));
  }

  /** Runs everything due on the clock's tasks up to the target, in time order, then answers the clock. */
  async advance(
    actor: AgentActor,
    clockId: string,
    dto: AdvanceTestClockRequest,
  ): Promise<TestClockResponse> {
    if ((dto.to === undefined) === (dto.by_seconds === undefined)) {
      throw ApiError.field('to', 'give exactly one of to and by_seconds');
    }
    const current = await this.own(actor, clockId);
    const target =
      dto.to !== undefined
        ? new Date(dto.to)
        : new Date(current.frozen_time.getTime() + dto.by_seconds! * 1000);
    const seconds = (target.getTime() - current.frozen_time.getTime()) / 1000;
    if (seconds <= 0)
      throw ApiError.field('to', `must be after the clock's time ${current.frozen_time.toISOString()}`);
    if (seconds > MAX_ADVANCE_SECONDS)
      throw ApiError.field('to', 'must be at most 30 days after the clock’s time');
    const claimed = await this.claim(clockId);
    let done: TestClockRow;
    try {
      await this.advancing.run(claimed, target);
    } finally {
      done = await TestClocks.release(this.ds, clockId);
    }
    return this.view(done);
  }

  /** Ends the clock's live tasks at the clock's time, every held cent back to the agent, then the clock goes. */
  async remove(actor: AgentActor, clockId: string): Promise<DeletedTestClock> {
    await this.own(actor, clockId);
    const claimed = await this.claim(clockId);
    let ended = 0;
    try {
      ended = await atTime(claimed.frozen_time, () => this.timers.endClockTasks(clockId));
    } catch (err) {
      await TestClocks.release(this.ds, clockId);
      throw err;
    }
    await TestClocks.release(this.ds, clockId, new Date());
    return { clock_id: clockId, deleted: true, ended_tasks: ended };
  }

  private async claim(clockId: string): Promise<TestClockRow> {
    const claimed = await TestClocks.claim(this.ds, clockId, new Date());
    if (!claimed) {
      throw new ApiError('invalid_state', 'The clock is advancing; try again when it is ready.', {
        current_status: 'advancing',
      });
    }
    return claimed;
  }

  private async own(actor: AgentActor, clockId: string): Promise<TestClockRow> {
    const row = await TestClocks.findOwned(this.ds, actor.id, clockId);
    if (!row) throw new ApiError('test_clock_not_found', 'No such test clock.');
    return row;
  }

  private async view(r: TestClockRow): Promise<TestClockResponse> {
    const [{ n }] = await sqlRows<{ n: number }>(
      this.ds,
      `SELECT count(*)::int AS n FROM tasks WHERE test_clock_id = $1`,
      [r.id],
    );
    return {
      clock_id: r.id,
      name: r.name,
      frozen_time: r.frozen_time.toISOString(),
      status: r.status,
      task_count: n,
      created_at: r.created_at.toISOString(),
    };
  }
}
