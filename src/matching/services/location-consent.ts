import { ApiError } from '../../common/errors/api-error';
import { sqlRows, type SqlRunner } from '../../database/sql';
import type { ConsentKind } from '../dtos/consent.dto';

/** The version of each consent asked now: the highest published (texts are never edited; a new one is a new row). */
export async function currentConsentVersion(db: SqlRunner, kind: ConsentKind): Promise<number> {
  const [row] = await sqlRows<{ version: number }>(
    db,
    `SELECT max(version) AS version FROM consent_versions WHERE kind = $1`,
    [kind],
  );
  if (!row?.version) throw new Error(`no published text for consent ${kind}`);
  return row.version;
}

/**
 * Refuses with 403 consent_required unless the worker's live consent to precise location is of the current version
 * (product-decisions §19). Runs in the caller's transaction before it locks the worker's availability, and holds the
 * live consent row FOR SHARE until it commits: a withdrawal (which updates that row, then takes the worker off call)
 * waits for a report in flight, or the report waits for the withdrawal and then finds no live consent. Both take
 * consent before availability, so they never deadlock.
 */
export async function requireLocationConsent(db: SqlRunner, workerId: string): Promise<void> {
  const current = await currentConsentVersion(db, 'precise_location');
  const [live] = await sqlRows<{ version: number }>(
    db,
    `SELECT version FROM worker_consents
      WHERE worker_id = $1 AND kind = 'precise_location' AND withdrawn_at IS NULL FOR SHARE`,
    [workerId],
  );
  if (live?.version === current) return;
  throw new ApiError(
    'consent_required',
    live
      ? 'The text of the consent to precise location has changed: read it and consent again to go on call.'
      : 'Going on call needs your consent to the use of your precise location.',
    { consent_kind: 'precise_location', consent_version: current },
  );
}
