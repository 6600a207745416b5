import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { formatDistance, isSkill } from '../format';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { OfferBanner } from '../components/OfferBanner';
import { StatusBadge } from '../../shared/StatusBadge';
import { loadAssignment } from '../my-tasks';
import { loadOfferContext, offerFromAssignment, type OfferWhy } from '../offers';
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
  // Only while the offer waits: why it was made and the agent's record are what the worker weighs before answering
  // (a failed read only hides them).
  const context = useAsync(
    () => (waiting ? loadOfferContext(assignmentId) : Promise.resolve(null)),
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
          {offer && context.data && (
            <p className="muted">
              <AgentRecord record={context.data.record} />
            </p>
          )}
          <Place location={a.location} label={a.title} />
          {offer && context.data && <WhyThisOffer why={context.data.why} />}
          {offer && <OfferBanner offer={offer} onDone={() => void navigate('/tasks', { replace: true })} />}
        </article>
      )}
    </main>
  );
}

/**
 * Why the offer came to this worker (product-decisions §19), in plain words: how near they were against the task's
 * radius, the required skills they hold, their reputation against the task's minimum, and how the ranking ordered
 * those who qualified.
 */
function WhyThisOffer({ why }: { why: OfferWhy }) {
  const { t, locale } = useWords();
  const radius = formatDistance(why.max_distance_meters, locale);
  const skills = why.skills_matched.map((s) => (isSkill(s) ? t(`skill.${s}`) : s));
  return (
    <section aria-labelledby="offer-why-title" className="card">
      <h2 id="offer-why-title">{t('offer.why.title')}</h2>
      <ul>
        <li>
          {why.distance_meters === null
            ? t('offer.why.distance_unknown', { radius })
            : t('offer.why.distance', { distance: formatDistance(why.distance_meters, locale), radius })}
        </li>
        <li>
          {skills.length
            ? t('offer.why.skills', { skills: skills.join(locale === 'zh-CN' ? '、' : ', ') })
            : t('offer.why.no_skills')}
        </li>
        {why.reputation !== null && (
          <li>
            {why.min_reputation !== null
              ? t('offer.why.reputation_min', {
                  reputation: why.reputation.toFixed(1),
                  min: why.min_reputation.toFixed(1),
                })
              : t('offer.why.reputation', { reputation: why.reputation.toFixed(1) })}
          </li>
        )}
        <li>{t('offer.why.ranking')}</li>
      </ul>
    </section>
  );
}
