import { Body, Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AgentActor } from '../../common/actor';
import { Auth, CurrentActor } from '../../auth/auth.decorators';
import { ApiErrors } from '../../common/errors/api-errors.decorator';
import { UuidParam } from '../../common/http/uuid-param';
import {
  CreateSandboxWorkerRequest,
  DeletedSandboxWorker,
  SandboxWorkerList,
  SandboxWorkerResponse,
  UpdateSandboxWorkerRequest,
} from '../dtos/sandbox-worker.dto';
import { SandboxWorkersService } from '../services/sandbox-workers.service';

/** Simulated workers (sandbox mode only; not mounted in live mode, so 404 there). */
@ApiTags('sandbox')
@Controller(['v1/sandbox/workers', 'api/v1/sandbox/workers'])
export class SandboxWorkersController {
  constructor(private readonly workers: SandboxWorkersService) {}

  @Post()
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @ApiOperation({
    summary: 'Sandbox only: add a simulated worker that takes your tasks by itself',
    description:
      'Place it with `location` or `near_task` (exactly one). It stays online there, is offered only your tasks, ' +
      'and answers offers, starts, submits (a generated JPEG with EXIF GPS at `photo.distance_m` from the task), ' +
      'abandons or declines as its `persona` and `behavior` say, through the same services as a person.',
  })
  @ApiCreatedResponse({ type: SandboxWorkerResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['task_not_found'] })
  create(
    @CurrentActor() actor: AgentActor,
    @Body() dto: CreateSandboxWorkerRequest,
  ): Promise<SandboxWorkerResponse> {
    return this.workers.create(actor, dto);
  }

  @Get()
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'Sandbox only: your simulated workers with their latest steps',
    description:
      'Every simulated worker this agent made, with its behaviour and its most recent steps, so a test can see where each one is. 404 in live mode.',
  })
  @ApiOkResponse({ type: SandboxWorkerList })
  list(@CurrentActor() actor: AgentActor): Promise<SandboxWorkerList> {
    return this.workers.list(actor);
  }

  @Get(':worker_id')
  @Auth({ actors: ['agent'], permission: 'task:read' })
  @ApiOperation({
    summary: 'Sandbox only: one simulated worker and what it did (each step and its outcome)',
    description:
      "One simulated worker with the whole history of its steps (offer answered, accepted, started, submitted, abandoned) and the outcome of each. Another agent's worker is 404, as is everything in live mode.",
  })
  @ApiOkResponse({ type: SandboxWorkerResponse })
  @ApiErrors({ 404: ['sandbox_worker_not_found'] })
  get(
    @CurrentActor() actor: AgentActor,
    @UuidParam('worker_id') workerId: string,
  ): Promise<SandboxWorkerResponse> {
    return this.workers.get(actor, workerId);
  }

  @Patch(':worker_id')
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @ApiOperation({
    summary: 'Sandbox only: change a simulated worker (from its next step on)',
    description: 'A `persona` replaces the behaviour; `behavior` alone changes only the fields it names.',
  })
  @ApiOkResponse({ type: SandboxWorkerResponse })
  @ApiErrors({ 400: ['validation_error'], 404: ['sandbox_worker_not_found', 'task_not_found'] })
  update(
    @CurrentActor() actor: AgentActor,
    @UuidParam('worker_id') workerId: string,
    @Body() dto: UpdateSandboxWorkerRequest,
  ): Promise<SandboxWorkerResponse> {
    return this.workers.update(actor, workerId, dto);
  }

  @Delete(':worker_id')
  @HttpCode(200)
  @Auth({ actors: ['agent'], permission: 'task:create' })
  @ApiOperation({
    summary: 'Sandbox only: remove a simulated worker',
    description:
      'It declines its offers and abandons unfinished work (those slots go to others), then goes away.',
  })
  @ApiOkResponse({ type: DeletedSandboxWorker })
  @ApiErrors({ 404: ['sandbox_worker_not_found'] })
  remove(
    @CurrentActor() actor: AgentActor,
    @UuidParam('worker_id') workerId: string,
  ): Promise<DeletedSandboxWorker> {
    return this.workers.remove(actor, workerId);
  }
}
