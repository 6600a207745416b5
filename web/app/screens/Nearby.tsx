import { useEffect, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { Empty, ErrorNotice, Loading, ReloadButton } from '../../shared/ui';
import { availability } from '../availability';
import { AvailabilitySwitch } from '../components/AvailabilitySwitch';
import { liveEvents } from '../components/Frame';
import { NotifyPrompt } from '../components/NotifyPrompt';
import { PullToRefresh } from '../components/PullToRefresh';
import { AgentRating } from '../components/AgentRating';
import { AgentRecord } from '../components/AgentRecord';
import { type Fix } from '../geo';
import { DistanceText, SkillBadges, formatDistance } from '../format';
import { loadNearby, positionForList, SORTS, type NearbyTask, type Sort } from '../nearby';

const RADII = [1, 2, 5, 10, 20, 50];

/** Tasks nearby: the online switch, sort and radius, and the list (pull or press Refresh to reload). */
export function Nearby() {
  const { t, locale } = useWords();
  const [sort, setSort] = useState<Sort>('payment_desc');
  const [km, setKm] = useState(5);
  const [fix, setFix] = useState<Fix | null>(null);
  const online = useSyncExternalStore(availability.subscribe, availability.snapshot).online;
  const list = useAsync(async () => {
    const position = await positionForList();
    setFix(position);
    return loadNearby(sort, km, position);
  }, [sort, km, online]);
  // An offer that ended unanswered (declined, lapsed) may leave its task open: it is listed again, for this worker too.
  useEffect(() => {
    const onEvent = (e: Event) => {
      const name = (e as CustomEvent<{ name: string }>).detail.name;
      if (name === 'assignment.declined' || name === 'assignment.expired') void list.reload();
    };
    liveEvents.addEventListener('event', onEvent);
    return () => liveEvents.removeEventListener('event', onEvent);
  }, [list.reload]);
  return (
    <main className="screen">
      <div className="topbar">
        <h1>{t('tasks.title')}</h1>
        <ReloadButton state={list}>{t('tasks.refresh')}</ReloadButton>
      </div>
      <AvailabilitySwitch />
      <NotifyPrompt />
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <div style={{ flex: 2 }}>
          <label htmlFor="sort">{t('tasks.sort')}</label>
          <select id="sort" value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {t(`tasks.sort.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div style={{ flex: 1 }}>
          <label htmlFor="radius">{t('tasks.radius')}</label>
          <select id="radius" value={km} onChange={(e) => setKm(Number(e.target.value))}>
            {RADII.map((r) => (
              <option key={r} value={r}>
                {formatDistance(r * 1000, locale)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <PullToRefresh onRefresh={list.reload}>
        {list.error ? <ErrorNotice error={list.error} onRetry={() => void list.reload()} /> : null}
        {!list.data && list.loading && <Loading />}
        {list.data && !fix && <p className="muted">{t('tasks.no_position')}</p>}
        {list.data && list.data.tasks.length === 0 && <Empty>{t('tasks.empty')}</Empty>}
        {list.data && list.data.tasks.length > 0 && (
          <ul aria-label={t('tasks.title')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {list.data.tasks.map((task) => (
              <li key={task.task_id}>
                <TaskCard task={task} fix={fix} />
              </li>
            ))}
          </ul>
        )}
      </PullToRefresh>
    </main>
  );
}

function TaskCard({ task, fix }: { task: NearbyTask; fix: Fix | null }) {
  const { t, locale } = useWords();
  return (
    <Link to={`/tasks/${task.task_id}`} className="card task-card">
      <div className="topbar">
        <h3>{task.title}</h3>
        <span className="pay">{formatCents(task.payment_cents, locale)}</span>
      </div>
      <div className="meta">
        <span>
          <DistanceText meters={task.distance_meters} from={fix} to={task.location} />
        </span>
        <span>{t('tasks.deadline', { time: formatDateTime(task.deadline_at, locale) })}</span>
        <span>
          <AgentRating rating={task.agent_rating} />
        </span>
        <span>
          <AgentRecord record={task.agent_record} />
        </span>
      </div>
      <SkillBadges skills={task.required_skills} labelShown={false} />
    </Link>
  );
}
