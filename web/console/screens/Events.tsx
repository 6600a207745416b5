import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { Empty, ErrorNotice, Loading } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useLiveEvents } from '../hooks';
import { agentApi } from '../session';
import { EVENT_NAMES } from './Webhooks';
import { useAction } from '../../shared/use-action';
import { Pager, useCursorPages } from '../../shared/pager';

interface ListedEvent {
  event: string;
  event_id: string;
  task_id?: string | null;
  timestamp: string;
  data?: unknown;
}

/** The last 30 days of events (to reconcile what a webhook missed), by name, cursor paged, each redeliverable. */
export function Events() {
  const { t, locale } = useI18n();
  const [type, setType] = useState('');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const list = useAsync(
    () =>
      unwrap(
        agentApi.GET('/v1/agent/events', {
          params: {
            query: {
              limit: 25,
              ...(type ? { type: type as (typeof EVENT_NAMES)[number] } : {}),
              ...(cursor ? { starting_after: cursor } : {}),
            },
          },
        }),
      ),
    [type, cursor],
  );
  useLiveEvents(
    () => pages.onFirstPage,
    () => void list.reload(),
  );
  const action = useAction();
  const [queued, setQueued] = useState<string | null>(null);
  const redeliver = (id: string) =>
    void action.run(async () => {
      const answer = await unwrap(
        agentApi.POST('/v1/agent/events/{event_id}/redeliver', { params: { path: { event_id: id } } }),
      );
      setQueued(t('events.queued', { n: answer.deliveries.length }));
    });
  const events = (list.data?.data ?? []) as unknown as ListedEvent[];
  return (
    <>
      <h1>{t('nav.events')}</h1>
      <div className="inline-form">
        <div>
          <label htmlFor="event-type">{t('events.type')}</label>
          <select
            id="event-type"
            value={type}
            onChange={(e) => {
              setType(e.target.value);
              pages.reset();
            }}
          >
            <option value="">{t('tasks.all')}</option>
            {EVENT_NAMES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </div>
      {queued && (
        <p className="notice" role="status">
          {queued}
        </p>
      )}
      {action.error ? <ErrorNotice error={action.error} /> : null}
      {list.error ? <ErrorNotice error={list.error} onRetry={() => void list.reload()} /> : null}
      {!list.data && !list.error && <Loading />}
      {list.data && events.length === 0 && <Empty>{t('events.none')}</Empty>}
      {events.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('col.when')}</th>
              <th scope="col">{t('col.event')}</th>
              <th scope="col">{t('events.task')}</th>
              <th scope="col">{t('events.data')}</th>
              <th scope="col">{t('col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.event_id}>
                <td>{formatDateTime(e.timestamp, locale)}</td>
                <td className="mono">{e.event}</td>
                <td>{e.task_id ? <Link to={`/tasks/${e.task_id}`}>{e.task_id.slice(0, 8)}</Link> : '—'}</td>
                <td>
                  <details>
                    <summary>{t('events.show')}</summary>
                    <pre className="mono">{JSON.stringify(e.data, null, 2)}</pre>
                  </details>
                </td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => redeliver(e.event_id)}
                    disabled={action.busy}
                  >
                    {t('hooks.redeliver')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data && <Pager onPrev={pages.prev} onNext={pages.next(list.data)} />}
    </>
  );
}
