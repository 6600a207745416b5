import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { Clock } from '../../common/clock';
import { ApiError } from '../../common/errors/api-error';
import { sqlExec, sqlRows, type SqlRunner } from '../../database/sql';
import { inTransaction } from '../../database/transaction';
import {
  CONSENT_KINDS,
  type ConsentKind,
  type ConsentListResponse,
  type ConsentView,
  type GiveConsentRequest,
} from '../dtos/consent.dto';
import { currentConsentVersion } from './location-consent';
import { AvailabilityService } from './availability.service';
import { PositionTrail } from './position-trail';

interface ConsentRow {
  kind: ConsentKind;
  version: number;
  title_en: string;
  title_zh: string;
  text_en: string;
  text_zh: string;
  given_version: number | null;
  given_at: Date | null;
}

/**
 * The current text of each kind with the worker's live consent beside it. Kinds come from CONSENT_KINDS (the table's
 * CHECK lists the same), texts from consent_versions.
 */
const VIEW_SQL = `
  SELECT v.kind, v.version, v.title_en, v.title_zh, v.text_en, v.text_zh,
         c.version AS given_version, c.given_at
    FROM consent_versions v
    LEFT JOIN worker_consents c ON c.worker_id = $1 AND c.kind = v.kind AND c.withdrawn_at IS NULL
   WHERE v.kind = ANY($2::text[])
     AND v.version = (SELECT max(version) FROM consent_versions m WHERE m.kind = v.kind)
   ORDER BY v.kind`;

/**
 * Separate, versioned consent (PIPL; product-decisions §19): what is asked, giving it, withdrawing it. A consent
 * counts only for the version it was given to: publishing a newer text (a consent_versions row) asks everyone again.
 * Giving and withdrawing lock the worker's row first, so two of them for one worker run one after the other; then the
 * consent row, then availability (the order availability reports take them in, after the worker row they never take).
 */
@Injectable()
export class WorkerConsents {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly availability: AvailabilityService,
  ) {}

  async list(actor: WorkerActor): Promise<ConsentListResponse> {
    return { consents: await this.views(this.ds, actor.id, CONSENT_KINDS) };
  }

  /** Gives consent to the current version; giving it again is a no-op, a consent to an older version is replaced. */
  async give(actor: WorkerActor, dto: GiveConsentRequest): Promise<ConsentView> {
    return inTransaction(this.ds, async (em) => {
      await lockWorker(em, actor.id);
      const current = await currentConsentVersion(em, dto.kind);
      if (dto.version !== undefined && dto.version !== current) {
        throw ApiError.field(
          'version',
          `the current version is ${current}: read GET /v1/worker/consents and consent to it`,
        );
      }
      const now = this.clock.now();
      const [live] = await sqlRows<{ id: string; version: number }>(
        em,
        `SELECT id, version FROM worker_consents WHERE worker_id = $1 AND kind = $2 AND withdrawn_at IS NULL`,
        [actor.id, dto.kind],
      );
      if (live?.version !== current) {
        if (live) {
          await sqlExec(em, `UPDATE worker_consents SET withdrawn_at = $2 WHERE id = $1`, [live.id, now]);
        }
        await WorkerConsents.record(em, actor.id, dto.kind, current, now);
      }
      return (await this.views(em, actor.id, [dto.kind]))[0];
    });
  }

  /**
   * Withdraws the consent: the worker goes off call at once, and the positions kept under it (the last one, and those
   * reported while on call) are erased. Withdrawing what is not given changes nothing and answers the same.
   */
  async withdraw(actor: WorkerActor, kind: ConsentKind): Promise<ConsentView> {
    return inTransaction(this.ds, async (em) => {
      await lockWorker(em, actor.id);
      const now = this.clock.now();
      await sqlExec(
        em,
        `UPDATE worker_consents SET withdrawn_at = $3 WHERE worker_id = $1 AND kind = $2 AND withdrawn_at IS NULL`,
        [actor.id, kind, now],
      );
      await this.availability.endForWithdrawnConsent(em, actor.id, now);
      await PositionTrail.eraseOnCallPositions(em, actor.id);
      return (await this.views(em, actor.id, [kind]))[0];
    });
  }

  /** Records a consent to the current version, in the caller's transaction (also: simulated workers at creation). */
  static async record(
    db: SqlRunner,
    workerId: string,
    kind: ConsentKind,
    version: number,
    now: Date,
  ): Promise<void> {
    await sqlExec(
      db,
      `INSERT INTO worker_consents (worker_id, kind, version, given_at) VALUES ($1, $2, $3, $4)`,
      [workerId, kind, version, now],
    );
  }

  private async views(
    db: SqlRunner,
    workerId: string,
    kinds: readonly ConsentKind[],
  ): Promise<ConsentView[]> {
    const rows = await sqlRows<ConsentRow>(db, VIEW_SQL, [workerId, kinds]);
    return rows.map((r) => ({
      kind: r.kind,
      version: r.version,
      title: { en: r.title_en, zh: r.title_zh },
      text: { en: r.text_en, zh: r.text_zh },
      given: r.given_version === r.version,
      given_version: r.given_version,
      given_at: r.given_at ? r.given_at.toISOString() : null,
    }));
  }
}

async function lockWorker(db: SqlRunner, workerId: string): Promise<void> {
  await sqlExec(db, `SELECT 1 FROM workers WHERE id = $1 FOR NO KEY UPDATE`, [workerId]);
}
