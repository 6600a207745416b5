import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { unwrap } from '../../shared/api';
import { ApiError } from '../../shared/errors';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { availability } from '../availability';
import { mapLinks } from '../geo';
import { DistanceText, SkillBadges } from '../format';
import { api } from '../session';
import { lastNearby } from '../task-store';
import { AgentRating } from '../components/AgentRating';
import { AgentRecord } from '../components/AgentRecord';
import { loadNearby } from '../nearby';

/**
 * One available task: what to do, where (address and a link that opens the phone's map app), pay, deadline, the
 * proof it needs, and Accept. Opened from the list it needs no request; opened directly it reloads the nearby list.
 */
export function TaskPage() {
  const { t, locale } = useWords();
  const { taskId = '' } = useParams();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const task = useAsync(async () => {
    const known = lastNearby.get(taskId);
    if (known) return known;
    await loadNearby('payment_desc', 50, availability.snapshot().fix);
    const found = lastNearby.get(taskId);
    if (!found) throw new ApiError(404, 'task_not_found', 'This task is no longer available.');
    return found;
  }, [taskId]);
  const accept = async () => {
    setBusy(true);
    setError(null);
    try {
      const accepted = await unwrap(
        api.POST('/v1/worker/tasks/{task_id}/accept', { params: { path: { task_id: taskId } } }),
      );
      lastNearby.delete(taskId);
      void navigate(`/mine/${accepted.assignment_id}`, { replace: true });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const fix = availability.snapshot().fix;
  const data = task.data;
  return (
    <main className="screen">
      <Link to="/tasks">← {t('task.back')}</Link>
      {task.error ? <ErrorNotice error={task.error} /> : null}
      {!data && task.loading && <Loading />}
      {data && (
        <article>
          <h1>{data.title}</h1>
          <p className="pay">{formatCents(data.payment_cents, locale)}</p>
          <div className="meta">
            {data.distance_meters != null && (
              <span>
                <DistanceText meters={data.distance_meters} from={fix} to={data.location} />
              </span>
            )}
            <span>{t('tasks.deadline', { time: formatDateTime(data.deadline_at, locale) })}</span>
            {data.estimated_duration_minutes != null && (
              <span>{t('task.duration', { minutes: data.estimated_duration_minutes })}</span>
            )}
            <span>{t('task.slots', { n: data.open_slots })}</span>
          </div>
          <section className="card">
            <h2>{t('task.description')}</h2>
            <p style={{ whiteSpace: 'pre-wrap' }}>{data.description}</p>
            <p className="muted">{t(`task.proof.${data.location_proof}`)}</p>
            <SkillBadges skills={data.required_skills} labelShown />
            <p className="muted">
              <AgentRating rating={data.agent_rating} />
            </p>
            <p className="muted">
              <AgentRecord record={data.agent_record} />
            </p>
          </section>
          {data.location && <Place location={data.location} label={data.title} />}
          {error ? <ErrorNotice error={error} /> : null}
          <div className="actions one">
            <button type="button" disabled={busy} onClick={() => void accept()}>
              {t('task.accept')}
            </button>
          </div>
        </article>
      )}
    </main>
  );
}

/** The address and the map links (no map tiles: the phone's own map app shows the place). */
export function Place(props: {
  location: { latitude: number; longitude: number; address?: string | null };
  label: string;
}) {
  const { t } = useWords();
  const links = mapLinks(props.location, props.label);
  return (
    <section className="card">
      <h2>{t('task.address')}</h2>
      <p>{props.location.address ?? `${props.location.latitude}, ${props.location.longitude}`}</p>
      <div className="actions">
        <a className="button" href={links.geo}>
          {t('task.open_map')}
        </a>
        <a className="button secondary" href={links.amap} target="_blank" rel="noreferrer">
          高德地图 / Amap
        </a>
      </div>
    </section>
  );
}
