import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AgentActor, WorkerActor } from '../../common/actor';
import { atTime, Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { LatLng } from '../../common/geo';
import { sqlRows } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import { AvailabilityService } from '../../matching/services/availability.service';
import { currentConsentVersion } from '../../matching/services/location-consent';
import { WorkerConsents } from '../../matching/services/worker-consents';
import { AssignmentService } from '../../task/services/assignment.service';
import { TaskOffers } from '../../task/services/task-offers';
import { TaskRepository } from '../../task/task.repository';
import { TestClocks } from '../../task/test-clocks';
import { WorkerRepository } from '../../worker/worker.repository';
import { type Behavior, PERSONA_BEHAVIORS, resolveBehavior } from '../behaviors';
import type {
  CreateSandboxWorkerRequest,
  DeletedSandboxWorker,
  SandboxWorkerList,
  SandboxWorkerResponse,
  UpdateSandboxWorkerRequest,
} from '../dtos/sandbox-worker.dto';
import { pointAtDistance } from '../sandbox-photo';
import { SimulatedWorkerQueries, workerView } from '../simulation.queries';

/** A new simulated worker's reputation unless given: what every new worker starts with (product-decisions §5). */
const DEFAULT_REPUTATION = 4.0;

/**
 * `/v1/sandbox/workers`: an agent's simulated workers. Each is a real worker account (closed to logins) that
 * stays online where it was put, is offered only its own agent's tasks, and acts through WorkerSimulator. Creating
 * or moving one offers it the agent's tasks that wait for workers, as a real worker would find them nearby.
 */
@Injectable()
export class SandboxWorkersService {
  constructor(
    private readonly ds: DataSource,
    private readonly availability: AvailabilityService,
    private readonly assignments: AssignmentService,
    private readonly offers: TaskOffers,
    private readonly clock: Clock,
  ) {}

  async create(actor: AgentActor, dto: CreateSandboxWorkerRequest): Promise<SandboxWorkerResponse> {
    if (!dto.location === !dto.near_task) {
      throw ApiError.field('location', 'give exactly one of location and near_task');
    }
    const position = (await this.position(actor, dto))!;
    const behavior = resolveBehavior(dto.persona ?? null, dto.behavior);
    const id = randomUUID();
    const name = dto.name ?? `${dto.persona ?? 'custom'} worker`;
    const now = this.clock.now();
    await inTransaction(this.ds, async (em) => {
      await WorkerRepository.insertSimulated(
        em,
        id,
        actor.id,
        {
          displayName: name,
          skills: dto.skills ?? [],
          reputation: dto.reputation ?? DEFAULT_REPUTATION,
        },
        now,
      );
      await sqlRows(
        em,
        `INSERT INTO sandbox_workers (worker_id, agent_id, name, persona, behavior, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [id, actor.id, name, dto.persona ?? null, JSON.stringify(behavior), now],
      );
      // Created with its consent to precise location (product-decisions §19): it goes on call at once below.
      const version = await currentConsentVersion(em, 'precise_location');
      await WorkerConsents.record(em, id, 'precise_location', version, now);
    });
    await this.availability.update(workerActor(id), { online: true, ...position });
    await this.offerWaitingTasks(actor.id);
    return this.get(actor, id);
  }

  async list(actor: AgentActor): Promise<SandboxWorkerList> {
    const rows = await SimulatedWorkerQueries.list(this.ds, actor.id);
    const activity = await SimulatedWorkerQueries.activity(
      this.ds,
      rows.map((r) => r.worker_id),
    );
    return { data: rows.map((r) => workerView(r, activity.get(r.worker_id) ?? [])) };
  }

  async get(actor: AgentActor, workerId: string): Promise<SandboxWorkerResponse> {
    const row = await SimulatedWorkerQueries.own(this.ds, actor.id, workerId);
    if (!row) throw notFound();
    const activity = await SimulatedWorkerQueries.activity(this.ds, [workerId]);
    return workerView(row, activity.get(workerId) ?? []);
  }

  /**
   * Changes take effect from the worker's next planned step. A `persona` replaces the behaviour by that persona's
   * (then `behavior` fields apply over it); `behavior` alone changes only the fields it names.
   */
  async update(
    actor: AgentActor,
    workerId: string,
    dto: UpdateSandboxWorkerRequest,
  ): Promise<SandboxWorkerResponse> {
    if (dto.location && dto.near_task) {
      throw ApiError.field('location', 'give at most one of location and near_task');
    }
    const row = await SimulatedWorkerQueries.own(this.ds, actor.id, workerId);
    if (!row) throw notFound();
    const position = await this.position(actor, dto);
    const base: Behavior = dto.persona ? PERSONA_BEHAVIORS[dto.persona] : row.behavior;
    const defined = Object.fromEntries(Object.entries(dto.behavior ?? {}).filter(([, v]) => v !== undefined));
    const behavior: Behavior = { ...base, ...defined };
    const now = this.clock.now();
    await inTransaction(this.ds, async (em) => {
      await WorkerRepository.updateSimulated(
        em,
        workerId,
        actor.id,
        { displayName: dto.name, skills: dto.skills, reputation: dto.reputation },
        now,
      );
      await sqlRows(
        em,
        `UPDATE sandbox_workers SET name = COALESCE($2, name), persona = COALESCE($3, persona), behavior = $4,
                updated_at = $5 WHERE worker_id = $1`,
        [workerId, dto.name ?? null, dto.persona ?? null, JSON.stringify(behavior), now],
      );
    });
    if (position) await this.availability.update(workerActor(workerId), { online: true, ...position });
    await this.offerWaitingTasks(actor.id);
    return this.get(actor, workerId);
  }

  /**
   * The worker leaves: it declines the offers it holds and abandons unfinished work (through the services, so
   * those slots are offered to others), goes offline and its account closes. Results it submitted stay and are
   * reviewed (or auto-approved) as usual; its earnings stay on its account.
   */
  async remove(actor: AgentActor, workerId: string): Promise<DeletedSandboxWorker> {
    const row = await SimulatedWorkerQueries.own(this.ds, actor.id, workerId);
    if (!row) throw notFound();
    const now = this.clock.now();
    // Closed first, so the dispatch that follows each decline or abandonment never offers it anything again.
    await inTransaction(this.ds, async (em) => {
      await sqlRows(em, `UPDATE sandbox_workers SET deleted_at = $2 WHERE worker_id = $1`, [workerId, now]);
      await WorkerRepository.updateSimulated(em, workerId, actor.id, { close: true }, now);
    });
    const worker = workerActor(workerId);
    for (const a of await SimulatedWorkerQueries.openAssignments(this.ds, workerId)) {
      try {
        if (a.status === 'pending') await this.assignments.decline(worker, a.id);
        else await this.assignments.abandon(worker, a.id);
      } catch (err) {
        // Moved on meanwhile (a sweep or the agent got there first): nothing left to give up.
        if (!(err instanceof ApiError)) throw err;
      }
    }
    await this.availability.update(worker, { online: false });
    return { worker_id: workerId, deleted: true };
  }

  /** The agent's tasks waiting for workers, on real time and on each of its test clocks (at that clock's time). */
  private async offerWaitingTasks(agentId: string): Promise<void> {
    await this.offers.offerOpenSlotsOf(agentId, null);
    for (const clock of await TestClocks.list(this.ds, agentId)) {
      await atTime(clock.frozen_time, () => this.offers.offerOpenSlotsOf(agentId, clock.id));
    }
  }

  private async position(actor: AgentActor, dto: UpdateSandboxWorkerRequest): Promise<LatLng | null> {
    if (dto.location) return { latitude: dto.location.latitude, longitude: dto.location.longitude };
    if (!dto.near_task) return null;
    const task = await TaskRepository.findOwned(this.ds.manager, actor.id, dto.near_task.task_id);
    if (!task) throw new ApiError('task_not_found', 'No such task.');
    return pointAtDistance(task, dto.near_task.distance_m);
  }
}

function workerActor(id: string): WorkerActor {
  return { kind: 'worker', id, scheme: 'jwt' };
}

function notFound(): ApiError {
  return new ApiError('sandbox_worker_not_found', 'No such simulated worker.');
}
