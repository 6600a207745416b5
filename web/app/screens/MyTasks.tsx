import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { Empty, ErrorNotice, Loading } from '../../shared/ui';
import { liveEvents } from '../components/Frame';
import { StatusBadge } from '../../shared/StatusBadge';
import { loadMyTasks, MY_FILTERS, type MyFilter } from '../my-tasks';
import { useUnread } from '../threads';

/**
 * The worker's tasks by status, with the agent's verdict, a rejection's reason and unread messages; live events
 * reload the list.
 */
export function MyTasks() {
  const { t, locale } = useWords();
  const [filter, setFilter] = useState<MyFilter | null>(null);
  const list = useAsync(() => loadMyTasks(filter), [filter]);
  const messages = useUnread();
  useEffect(() => {
    const onEvent = () => void list.reload();
    liveEvents.addEventListener('event', onEvent);
    return () => liveEvents.removeEventListener('event', onEvent);
  }, [list.reload]);
  return (
    <main className="screen">
      <h1>{t('mine.title')}</h1>
      <div role="group" aria-label={t('mine.title')} className="row" style={{ gap: '0.3em' }}>
        {[null, ...MY_FILTERS].map((f) => (
          <button
            key={f ?? 'all'}
            type="button"
            className={filter === f ? '' : 'secondary'}
            aria-pressed={filter === f}
            onClick={() => setFilter(f)}
          >
            {f ? t(`status.${f}`) : t('mine.all')}
          </button>
        ))}
      </div>
      {list.error ? <ErrorNotice error={list.error} onRetry={() => void list.reload()} /> : null}
      {!list.data && list.loading && <Loading />}
      {list.data && list.data.tasks.length === 0 && <Empty>{t('mine.empty')}</Empty>}
      {list.data && list.data.tasks.length > 0 && (
        <ul style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('mine.title')}>
          {list.data.tasks.map((task) => (
            <li key={task.assignment_id}>
              <Link to={`/mine/${task.assignment_id}`} className="card task-card">
                <div className="topbar">
                  <h3>{task.title}</h3>
                  <StatusBadge status={task.status} />
                </div>
                <div className="meta">
                  <span className="pay" style={{ fontSize: '1rem' }}>
                    {formatCents(task.payment_cents, locale)}
                  </span>
                  <span>{t('tasks.deadline', { time: formatDateTime(task.deadline_at, locale) })}</span>
                  {(messages.byAssignment.get(task.assignment_id) ?? 0) > 0 && (
                    <span className="badge">
                      {t('msg.unread', { count: messages.byAssignment.get(task.assignment_id) ?? 0 })}
                    </span>
                  )}
                </div>
                {task.review?.reason_code && (
                  <p className="meta" style={{ color: 'var(--danger)' }}>
                    {t('work.rejection', { reason: t(`reason.${task.review.reason_code}`) })}
                  </p>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
