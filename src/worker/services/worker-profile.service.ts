import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import type { UpdateWorkerProfile, WorkerResponse } from '../dtos/worker-profile.dto';
import { Worker } from '../entities/worker.entity';
import { liveAssignmentCap } from '../../matching/live-assignment-cap';
import { NEW_WORKER_REPUTATION, WorkerReputation } from '../../matching/services/worker-reputation';

/** The worker's own profile. */
@Injectable()
export class WorkerProfileService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly reputation: WorkerReputation,
    private readonly clock: Clock,
  ) {}

  async get(actor: WorkerActor): Promise<WorkerResponse> {
    return this.render(await this.load(actor.id));
  }

  /** Only the fields present change; display_name null clears it. */
  async update(actor: WorkerActor, dto: UpdateWorkerProfile): Promise<WorkerResponse> {
    const changes: Partial<Worker> = {};
    if (dto.display_name !== undefined) changes.displayName = dto.display_name;
    if (dto.skills !== undefined) changes.skills = dto.skills;
    if (Object.keys(changes).length > 0) {
      await this.ds
        .getRepository(Worker)
        .update({ id: actor.id }, { ...changes, updatedAt: this.clock.now() });
    }
    return this.get(actor);
  }

  private async load(id: string): Promise<Worker> {
    const worker = await this.ds.getRepository(Worker).findOneBy({ id });
    // The guard checked the account a moment ago; it can only be missing if it was deleted since.
    if (!worker) throw new ApiError('invalid_token', 'The account of this token no longer exists.');
    return worker;
  }

  private async render(worker: Worker): Promise<WorkerResponse> {
    const rep = await this.reputation.details(worker.id);
    return {
      worker_id: worker.id,
      phone_number: worker.phoneNumber,
      display_name: worker.displayName,
      skills: worker.skills,
      account_status: worker.accountStatus,
      reputation: rep?.reputation ?? NEW_WORKER_REPUTATION,
      reputation_details: {
        finished_tasks: rep?.finished_tasks ?? 0,
        approved_tasks: rep?.approved_tasks ?? 0,
        rating_count: rep?.rating_count ?? 0,
        rating_average: rep?.rating_average ?? null,
        median_response_minutes:
          rep?.median_response_seconds == null ? null : Math.round(rep.median_response_seconds / 6) / 10,
        live_assignment_limit: liveAssignmentCap(rep?.reputation ?? NEW_WORKER_REPUTATION),
      },
      created_at: worker.createdAt,
    };
  }
}
