import type { TestWorker } from '../support/actors';
import type { TestApp } from '../support/app';
import type { Point } from '../support/photos';

export async function goOnline(t: TestApp, worker: TestWorker, at: Point): Promise<void> {
  const res = await t.http
    .put('/v1/worker/availability')
    .set('Authorization', worker.bearer)
    .send({ online: true, ...at });
  if (res.status !== 200) throw new Error(`availability failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export interface OfferRow {
  id: string;
  worker_id: string;
  status: string;
  offered_at: Date | null;
  offer_expires_at: Date | null;
}

/** Every assignment of a task that started as an offer, oldest first. */
export async function offersOf(t: TestApp, taskId: string): Promise<OfferRow[]> {
  return t.db.query(
    `SELECT id, worker_id, status, offered_at, offer_expires_at FROM assignments
      WHERE task_id = $1 AND offered_at IS NOT NULL ORDER BY offered_at, created_at`,
    [taskId],
  );
}

export async function pendingOffer(t: TestApp, taskId: string): Promise<OfferRow | null> {
  return (await offersOf(t, taskId)).find((o) => o.status === 'pending') ?? null;
}

export async function setReputation(t: TestApp, worker: TestWorker, reputation: number): Promise<void> {
  await t.db.query(`UPDATE workers SET reputation = $2 WHERE id = $1`, [worker.id, reputation]);
}

export function decline(t: TestApp, worker: TestWorker, assignmentId: string) {
  return t.http.post(`/v1/worker/assignments/${assignmentId}/decline`).set('Authorization', worker.bearer);
}
