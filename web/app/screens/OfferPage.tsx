import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { OfferBanner } from '../components/OfferBanner';
import { StatusBadge } from '../../shared/StatusBadge';
import { loadAssignment } from '../my-tasks';
import { loadOfferRecord, offerFromAssignment } from '../offers';
import { AgentRecord } from '../components/AgentRecord';
import { Place } from './TaskPage';

/**
 * The page an offer's push notification and SMS link open (/app/offers/{assignment_id}, product-decisions §16); a
 * signed-out phone signs in first and lands here. While the offer waits: the task, and the offer itself to accept or
 * decline with the time left. Once taken it is the assignment's page; once declined, lapsed or withdrawn, it says so.
 */
export function OfferPage() {
  const { t, locale } = useWords();
  const navigate = useNavigate();
  const { assignmentId = '' } = useParams();
  const item = useAsync(() => loadAssignment(assignmentId), [assignmentId]);
  const a = item.data;
  const waiting = a?.status === 'pending';
  // Only while the offer waits: the record is what the worker weighs before answering.
  const record = useAsync(
    () => (waiting ? loadOfferRecord(assignmentId) : Promise.resolve(null)),
    [assignmentId, waiting],
  );
  if (a && !['pending', 'declined', 'expired', 'cancelled'].includes(a.status)) {
    return <Navigate to={`/mine/${a.assignment_id}`} replace />;
  }
  const offer = a ? offerFromAssignment(a) : null;
  return (
    <main className="screen">
      <Link to="/tasks">← {t('task.back')}</Link>
      {item.error ? <ErrorNotice error={item.error} onRetry={() => void item.reload()} /> : null}
      {!a && item.loading && <Loading />}
      {a && (
        <article>
          <div className="topbar">
            <h1>{a.title}</h1>
            <StatusBadge status={a.status} />
          </div>
          <div className="meta">
            <span className="pay">{formatCents(a.payment_cents, locale)}</span>
            <span>{t('tasks.deadline', { time: formatDateTime(a.deadline_at, locale) })}</span>
          </div>
          {!offer && (
            <p className="notice" role="status">
              {t('offer.ended')}
            </p>
          )}
          {a.description && <p>{a.description}</p>}
          {offer && record.data && (
            <p className="muted">
              <AgentRecord record={record.data} />
            </p>
          )}
          <Place location={a.location} label={a.title} />
          {offer && <OfferBanner offer={offer} onDone={() => void navigate('/tasks', { replace: true })} />}
        </article>
      )}
    </main>
  );
}
