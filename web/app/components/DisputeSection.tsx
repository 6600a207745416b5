import { useState } from 'react';
import { TextBox } from '../../shared/fields';
import { unwrap, type Schemas } from '../../shared/api';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice } from '../../shared/ui';
import { useWords } from '../messages';
import type { AssignmentDetail } from '../my-tasks';
import { api } from '../session';
import { uploadProof } from '../proof-upload';
import { CameraButton } from './CameraButton';

type Dispute = Schemas['DisputeView'];

/** The assignment's dispute, read only when the assignment names one (no dispute yet: nothing but the way to open one). */
async function loadDispute(assignmentId: string, disputeId: string | null): Promise<Dispute | null> {
  if (!disputeId) return null;
  return unwrap(
    api.GET('/v1/worker/assignments/{assignment_id}/dispute', {
      params: { path: { assignment_id: assignmentId } },
    }),
  );
}

/**
 * A rejected assignment's dispute (product-decisions §19): within 72 hours of the rejection, "Dispute" opens a form
 * for the worker's statement and an optional photo; then where the dispute stands (the agent may answer until its
 * deadline, then an operator decides) and the decision with what it paid. The API, on the task's own clock, has the
 * last word on the window: a late dispute is refused in words (dispute_window_closed).
 */
export function DisputeSection({
  task,
  version,
  onOpened,
}: {
  task: AssignmentDetail;
  version: unknown;
  /** Reloads the assignment, which then names the new dispute. */
  onOpened: () => Promise<unknown>;
}) {
  const { t, locale } = useWords();
  const dispute = useAsync(
    () => loadDispute(task.assignment_id, task.dispute_id),
    [task.assignment_id, task.dispute_id, version],
  );
  const [writing, setWriting] = useState(false);
  const [statement, setStatement] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const sending = useAction();
  const open = sending.onSubmit(async () => {
    const urls: string[] = [];
    if (photo) {
      urls.push(await uploadProof(photo, 'dispute.jpg'));
    }
    await unwrap(
      api.POST('/v1/worker/assignments/{assignment_id}/dispute', {
        params: { path: { assignment_id: task.assignment_id } },
        body: { statement: statement.trim(), ...(urls.length ? { photo_urls: urls } : {}) },
      }),
    );
    setWriting(false);
    await onOpened();
  });
  if (dispute.error) return <ErrorNotice error={dispute.error} onRetry={() => void dispute.reload()} />;
  if (dispute.data === undefined) return null;
  const d = dispute.data;
  // The API's window, on the task's own clock (a sandbox test clock's for a task on one).
  const closesAt = task.dispute_window_ends_at ? Date.parse(task.dispute_window_ends_at) : 0;
  return (
    <section className="card" aria-labelledby="dispute-title">
      <h2 id="dispute-title">{t('dispute.title')}</h2>
      {!d && !writing && Date.now() < closesAt && (
        <>
          <p className="muted">
            {t('dispute.intro', { time: formatDateTime(new Date(closesAt).toISOString(), locale) })}
          </p>
          <button type="button" className="secondary" onClick={() => setWriting(true)}>
            {t('dispute.open')}
          </button>
        </>
      )}
      {!d && !writing && Date.now() >= closesAt && <p className="muted">{t('dispute.closed')}</p>}
      {!d && writing && (
        <form onSubmit={open}>
          <TextBox
            id="dispute-statement"
            label={t('dispute.statement')}
            maxLength={2000}
            value={statement}
            onChange={setStatement}
            hint={t('dispute.statement_hint')}
          />
          <CameraButton id="dispute-photo" photo={photo} onChoose={setPhoto} takeLabel={t('dispute.photo')} />
          {sending.error ? <ErrorNotice error={sending.error} /> : null}
          <div className="actions">
            <button type="button" className="secondary" onClick={() => setWriting(false)}>
              {t('unable.back')}
            </button>
            <button type="submit" disabled={sending.busy || !statement.trim()}>
              {t('dispute.send')}
            </button>
          </div>
        </form>
      )}
      {d && (
        <>
          <p role="status">
            {d.status === 'awaiting_response'
              ? t('dispute.state.awaiting_response', { time: formatDateTime(d.response_due_at, locale) })
              : t(`dispute.state.${d.status}`)}
          </p>
          <p className="muted">{t('dispute.you_said')}</p>
          <p className="body-text">{d.worker.statement}</p>
          {d.agent && (
            <>
              <p className="muted">{t('dispute.agent_said')}</p>
              <p className="body-text">{d.agent.statement}</p>
            </>
          )}
          {d.decision && (
            <div className="notice">
              <p>
                <strong>{t(`dispute.outcome.${d.decision.outcome}`)}</strong>
              </p>
              {d.decision.worker_cents > 0 && (
                <p>{t('dispute.paid', { amount: formatCents(d.decision.worker_cents, locale) })}</p>
              )}
              {d.decision.note && <p className="body-text">{t('dispute.note', { text: d.decision.note })}</p>}
            </div>
          )}
        </>
      )}
    </section>
  );
}
