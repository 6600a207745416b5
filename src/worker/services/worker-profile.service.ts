import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows } from '../../database/sql';
import type { UpdateWorkerProfile, WorkerResponse } from '../dtos/worker-profile.dto';
import { liveAssignmentCap } from '../../matching/live-assignment-cap';
import { NEW_WORKER_REPUTATION, WorkerReputation } from '../../matching/services/worker-reputation';
import type { WorkerRow } from '../worker.repository';

type ProfileRow = Pick<
  WorkerRow,
  'id' | 'phone_number' | 'display_name' | 'skills' | 'account_status' | 'created_at'
>;

/** The worker's own profile. */
@Injectable()
export class WorkerProfileService {
  constructor(
    private readonly ds: DataSource,
    private readonly reputation: WorkerReputation,
    private readonly clock: Clock,
  ) {}

  async get(actor: WorkerActor): Promise<WorkerResponse> {
    return this.render(await this.load(actor.id));
  }

  /** Only the fields present change; display_name null clears it. */
  async update(actor: WorkerActor, dto: UpdateWorkerProfile): Promise<WorkerResponse> {
    if (dto.display_name !== undefined || dto.skills !== undefined) {
      await sqlExec(
        this.ds,
        `UPDATE workers SET display_name = CASE WHEN $2 THEN $3::text ELSE display_name END,
                skills = COALESCE($4::text[], skills), updated_at = $5
          WHERE id = $1`,
        [
          actor.id,
          dto.display_name !== undefined,
          dto.display_name ?? null,
          dto.skills ?? null,
          this.clock.now(),
        ],
      );
    }
    return this.get(actor);
  }

  private async load(id: string): Promise<ProfileRow> {
    const [worker] = await sqlRows<ProfileRow>(
      this.ds,
      `SELECT id, phone_number, display_name, skills, account_status, created_at FROM workers WHERE id = $1`,
      [id],
    );
    // The guard checked the account a moment ago; it can only be missing if it was deleted since.
    if (!worker) throw new ApiError('invalid_token', 'The account of this token no longer exists.');
    return worker;
  }

  private async render(worker: ProfileRow): Promise<WorkerResponse> {
    const rep = await this.reputation.details(worker.id);
    return {
      worker_id: worker.id,
      phone_number: worker.phone_number,
      display_name: worker.display_name,
      skills: worker.skills,
      account_status: worker.account_status,
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
      created_at: worker.created_at,
    };
  }
}
