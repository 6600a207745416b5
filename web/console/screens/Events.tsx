import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useLiveEvents } from '../hooks';
import { agentApi } from '../session';
import { RedeliverButton } from '../components/RedeliverButton';
import { EVENT_NAMES } from './Webhooks';
import { useAction } from '../../shared/use-action';
import { Pager, useCursorPages } from '../../shared/pager';
import { ActionError } from '../../shared/action-ui';
import { DataTable } from '../components/DataTable';
import { FilterField } from '../../shared/fields';

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
  const [type, setType] = useState<(typeof EVENT_NAMES)[number] | ''>('');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const list = useAsync(
    () =>
      unwrap(
        agentApi.GET('/v1/agent/events', {
          params: {
            query: {
              limit: 25,
              ...(type ? { type } : {}),
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
  const events = (list.data?.data ?? []) as unknown as ListedEvent[];
  return (
    <>
      <h1>{t('nav.events')}</h1>
      <div className="inline-form">
        <FilterField
          id="event-type"
          label={t('events.type')}
          value={type}
          options={EVENT_NAMES}
          optionLabel={(n) => n}
          blank={t('tasks.all')}
          onChange={(v) => {
            setType(v);
            pages.reset();
          }}
        />
      </div>
      {queued && (
        <p className="notice" role="status">
          {queued}
        </p>
      )}
      <ActionError action={action} />
      <ListState state={list} count={(d) => d.data.length} empty={t('events.none')} />
      {events.length > 0 && (
        <DataTable
          columns={[t('col.when'), t('col.event'), t('events.task'), t('events.data'), t('col.actions')]}
        >
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
                <RedeliverButton
                  action={action}
                  eventId={e.event_id}
                  onQueued={(answer) => setQueued(t('events.queued', { n: answer.deliveries.length }))}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.data && <Pager onPrev={pages.prev} onNext={pages.next(list.data)} />}
    </>
  );
}
