import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { ErrorNotice, Loading, Empty } from '../../shared/ui';
import { liveEvents } from '../components/Frame';
import { useWords } from '../messages';
import { loadNotices, markRead, MONEY_EVENTS, noticeHeadingKey, type Notice } from '../notices';

/**
 * News of the worker's money (product-decisions §19): paid, rejected with the agent's reason, a dispute decided,
 * newest first, each opening its task. What was unread when shown is marked read (the badge goes down) but keeps its
 * mark on screen until the list is read again, so the worker sees what was new.
 */
export function Notifications() {
  const { t, locale } = useWords();
  const [items, setItems] = useState<Notice[] | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);

  const load = async (offset: number) => {
    setLoading(true);
    setError(null);
    try {
      const page = await loadNotices(offset);
      setItems((list) => (offset === 0 ? page.notifications : [...(list ?? []), ...page.notifications]));
      setTotal(page.total);
      await markRead(page.notifications.filter((n) => !n.read_at).map((n) => n.notification_id));
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    void load(0);
    const onEvent = (e: Event) => {
      if (MONEY_EVENTS.includes((e as CustomEvent<{ name: string }>).detail.name)) void load(0);
    };
    liveEvents.addEventListener('event', onEvent);
    return () => liveEvents.removeEventListener('event', onEvent);
  }, []);

  return (
    <main className="screen">
      <h1>{t('notice.title')}</h1>
      {error ? <ErrorNotice error={error} onRetry={() => void load(0)} /> : null}
      {items === null && !error && <Loading />}
      {items?.length === 0 && <Empty>{t('notice.empty')}</Empty>}
      {items && items.length > 0 && (
        <ul
          className="notices"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label={t('notice.title')}
        >
          {items.map((n) => (
            <li key={n.notification_id} className="card" data-testid="notice">
              <Link to={`/mine/${n.assignment_id}`}>
                <strong>{t(noticeHeadingKey(n), { amount: formatCents(n.amount_cents, locale) })}</strong>
                {!n.read_at && <span className="badge">{t('notice.new')}</span>}
              </Link>
              <p style={{ margin: '0.3em 0' }}>{n.task_title}</p>
              {n.kind === 'rejected' && (n.reason_code || n.reason_text) && (
                <p className="muted" style={{ margin: 0 }}>
                  {n.reason_code === 'confirmed_fraud'
                    ? t('notice.fraud')
                    : t('notice.reason', {
                        reason: n.reason_text ?? t(`reason.${n.reason_code}` as 'reason.other'),
                      })}
                </p>
              )}
              <p className="muted" style={{ margin: 0 }}>
                <small>{formatDateTime(n.created_at, locale)}</small>
              </p>
            </li>
          ))}
        </ul>
      )}
      {items && items.length < total && (
        <div className="actions one">
          <button
            type="button"
            className="secondary"
            disabled={loading}
            onClick={() => void load(items.length)}
          >
            {t('notice.more')}
          </button>
        </div>
      )}
      <p className="muted">
        <small>{t('notice.how')}</small>
      </p>
    </main>
  );
}
