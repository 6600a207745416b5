import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import {
  AdvanceTestClockRequest,
  CreateTestClockRequest,
  DeletedTestClock,
  TestClockList,
  TestClockResponse,
} from '../dtos/test-clock.dto';
import { TestClocksService } from '../services/test-clocks.service';

/** Test clocks (sandbox mode only; not mounted in live mode, so 404 there). */
@ApiTags('sandbox')
@Controller(['v1/sandbox/clocks', 'api/v1/sandbox/clocks'])
export class TestClocksController {
  constructor(private readonly clocks: TestClocksService) {}

  @Post()
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @ApiOperation({
    summary: 'Sandbox only: a test clock, a time of its own for the tasks created with `test_clock`',
    description:
      'Stripe’s test clocks: create tasks on it, then advance it to a deadline or past the auto-approval.',
  })
  @ApiCreatedResponse({ type: TestClockResponse })
  @ApiErrors({ 400: ['validation_error'] })
  create(@CurrentActor() actor: AgentActor, @Body() dto: CreateTestClockRequest): Promise<TestClockResponse> {
    return this.clocks.create(actor, dto);
  }

  @Get()
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'Sandbox only: your test clocks',
    description:
      'The test clocks this agent made, with their frozen time and status. Tasks created with `test_clock` live on that clock. 404 in live mode.',
  })
  @ApiOkResponse({ type: TestClockList })
  list(@CurrentActor() actor: AgentActor): Promise<TestClockList> {
    return this.clocks.list(actor);
  }

  @Get(':clock_id')
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'Sandbox only: one test clock',
    description:
      "One test clock: its frozen time, its status (`advancing` while an advance runs) and how many tasks were created on it. 404 in live mode or for another agent's clock.",
  })
  @ApiOkResponse({ type: TestClockResponse })
  @ApiErrors({ 404: ['test_clock_not_found'] })
  get(@CurrentActor() actor: AgentActor, @UuidParam('clock_id') clockId: string): Promise<TestClockResponse> {
    return this.clocks.get(actor, clockId);
  }

  @Post(':clock_id/advance')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @ApiOperation({
    summary: 'Sandbox only: move a test clock forward, running everything due on its tasks in time order',
    description:
      'Give `to` or `by_seconds` (forward only, at most 30 days). Simulated workers’ steps, offer lapses, deadlines ' +
      'and auto-approvals of the clock’s tasks run as if that time had passed, with events stamped with the ' +
      'clock’s time. Answers when done. Tasks not on the clock are untouched.',
  })
  @ApiOkResponse({ type: TestClockResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['test_clock_not_found'], 409: ['invalid_state'] })
  advance(
    @CurrentActor() actor: AgentActor,
    @UuidParam('clock_id') clockId: string,
    @Body() dto: AdvanceTestClockRequest,
  ): Promise<TestClockResponse> {
    return this.clocks.advance(actor, clockId, dto);
  }

  @Delete(':clock_id')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @ApiOperation({
    summary: 'Sandbox only: delete a test clock, ending its live tasks with full refunds',
    description:
      'Offers lapse, held and submitted work is refunded, open slots close, and each task is cancelled.',
  })
  @ApiOkResponse({ type: DeletedTestClock })
  @ApiErrors({ 404: ['test_clock_not_found'], 409: ['invalid_state'] })
  remove(
    @CurrentActor() actor: AgentActor,
    @UuidParam('clock_id') clockId: string,
  ): Promise<DeletedTestClock> {
    return this.clocks.remove(actor, clockId);
  }
}
