import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { unwrap } from '../../shared/api';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { useWords } from '../messages';
import { ErrorNotice } from '../../shared/ui';
import { DistanceText } from '../format';
import type { Offer } from '../offers';
import { api } from '../session';

/**
 * An offer waiting for the worker (live, or read on load): what, where, how much, and the seconds left to answer,
 * counted to the server's expiry (120 s from the offer, product-decisions §5). Accepting takes the offered slot
 * (POST /v1/worker/tasks/{id}/accept) and opens the task; declining hands it to the next worker at once, and the
 * task stays in the nearby list for this worker to take later if a slot is still open.
 */
export function OfferBanner(props: { offer: Offer; onDone: () => void }) {
  const { t, locale } = useWords();
  const navigate = useNavigate();
  const { task } = props.offer;
  const left = () => Math.max(0, Math.round((Date.parse(props.offer.expiresAt) - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
  }, []);
  const answer = async (accept: boolean) => {
    setBusy(true);
    setError(null);
    try {
      if (accept) {
        const accepted = await unwrap(
          api.POST('/v1/worker/tasks/{task_id}/accept', { params: { path: { task_id: task.taskId } } }),
        );
        props.onDone();
        void navigate(`/mine/${accepted.assignment_id}`);
      } else {
        await unwrap(
          api.POST('/v1/worker/assignments/{assignment_id}/decline', {
            params: { path: { assignment_id: props.offer.assignmentId } },
          }),
        );
        props.onDone();
      }
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const expired = seconds <= 0;
  return (
    <section
      className="card offer"
      role="alertdialog"
      aria-labelledby="offer-title"
      aria-describedby="offer-what"
    >
      <div className="topbar">
        <h2 id="offer-title">{t('offer.title')}</h2>
        <span className={`badge ${seconds <= 20 ? 'bad' : 'warn'}`} role="timer" aria-live="off">
          {expired ? t('offer.expired') : t('offer.countdown', { seconds })}
        </span>
      </div>
      <div id="offer-what">
        <h3 style={{ margin: 0 }}>{task.title}</h3>
        <p className="pay">{formatCents(task.paymentCents, locale)}</p>
        <p className="meta">
          {task.distanceMeters != null && (
            <span>
              <DistanceText meters={task.distanceMeters} />
            </span>
          )}
          <span>{t('tasks.deadline', { time: formatDateTime(task.deadlineAt, locale) })}</span>
          {task.address && <span>{task.address}</span>}
        </p>
      </div>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions">
        <button
          type="button"
          className="secondary"
          disabled={busy || expired}
          onClick={() => void answer(false)}
        >
          {t('offer.decline')}
        </button>
        <button type="button" disabled={busy || expired} onClick={() => void answer(true)}>
          {t('offer.accept')}
        </button>
      </div>
      {expired && (
        <button type="button" className="secondary" onClick={props.onDone}>
          OK
        </button>
      )}
    </section>
  );
}
