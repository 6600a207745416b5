import { useState } from 'react';
import { pathsV1AgentEventsGetParametersQueryTypeValues } from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { Checks } from '../../shared/fields';
import { Empty, ErrorNotice, Loading, ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { ShownOnce } from '../components/Secret';
import { agentApi } from '../session';
import { RedeliverButton } from '../components/RedeliverButton';
import { useAction } from '../../shared/use-action';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { DataTable } from '../components/DataTable';

type Endpoint = Schemas['WebhookEndpointResponse'];
/** The events an endpoint can subscribe to one by one (the API's list; `*` is every event). */
export const EVENT_NAMES = pathsV1AgentEventsGetParametersQueryTypeValues;
type EventName = (typeof EVENT_NAMES)[number];

/** Webhook endpoints: add one (its signing secret shown once), send a test event, see deliveries, remove. */
export function Webhooks() {
  const { t } = useI18n();
  const list = useAsync(() => unwrap(agentApi.GET('/v1/agent/webhooks')), []);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <h1>{t('nav.webhooks')}</h1>
      <p className="muted">{t('hooks.lead')}</p>
      {secret && <ShownOnce items={[[t('hooks.secret'), secret]]} onDone={() => setSecret(null)} />}
      <CreateEndpoint
        onCreated={(s) => {
          setSecret(s);
          void list.reload();
        }}
      />
      <ListState state={list} count={(d) => d.data.length} empty={t('hooks.none')} />
      {list.data?.data.map((e) => (
        <EndpointCard key={e.webhook_id} endpoint={e} onChanged={() => void list.reload()} />
      ))}
    </>
  );
}

function CreateEndpoint({ onCreated }: { onCreated: (secret: string) => void }) {
  const { t } = useI18n();
  const [url, setUrl] = useState('');
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<EventName[]>(['task.submitted', 'task.completed']);
  const action = useAction();
  const submit = action.onSubmit(async () => {
    const created = await unwrap(
      agentApi.POST('/v1/agent/webhooks', { body: { url: url.trim(), events: all ? ['*'] : events } }),
    );
    setUrl('');
    onCreated(created.secret);
  });
  return (
    <form className="card" onSubmit={submit} aria-labelledby="new-hook-h">
      <h2 id="new-hook-h">{t('hooks.add')}</h2>
      <label htmlFor="hook-url">{t('hooks.url')}</label>
      <input id="hook-url" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
      <fieldset>
        <legend>{t('hooks.events')}</legend>
        <label className="choice">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          {t('hooks.all_events')}
        </label>
        {!all && (
          <Checks
            options={EVENT_NAMES}
            checked={events}
            onChange={setEvents}
            optionLabel={(n) => <span className="mono">{n}</span>}
          />
        )}
      </fieldset>
      <ActionError action={action} />
      <p>
        <button type="submit" disabled={action.busy}>
          {t('hooks.create')}
        </button>
      </p>
    </form>
  );
}

function EndpointCard({ endpoint: e, onChanged }: { endpoint: Endpoint; onChanged: () => void }) {
  const { t, locale } = useI18n();
  const [open, setOpen] = useState(false);
  const [test, setTest] = useState<Schemas['WebhookTestResponse'] | null>(null);
  const action = useAction();
  const path = { params: { path: { id: e.webhook_id } } };
  const sendTest = async () => {
    setTest(await unwrap(agentApi.POST('/v1/agent/webhooks/{id}/test', path)));
    setOpen(true);
  };
  const remove = async () => {
    await unwrap(agentApi.DELETE('/v1/agent/webhooks/{id}', path));
    onChanged();
  };
  return (
    <section className="card" aria-labelledby={`hook-${e.webhook_id}`}>
      <div className="row spread">
        <h2 id={`hook-${e.webhook_id}`} className="mono">
          {e.url}
        </h2>
        <span className={`badge ${e.status === 'active' ? 'ok' : 'bad'}`}>
          {t(`hooks.status_${e.status}`)}
        </span>
      </div>
      <p className="muted">
        {e.events.join(', ')} · {t('hooks.last_success', { at: formatDateTime(e.last_success_at, locale) })}
        {e.disabled_reason ? ` · ${e.disabled_reason}` : ''}
      </p>
      <ActionError action={action} />
      {test && (
        <p className={test.delivered ? 'notice' : 'error'} role="status">
          {t(test.delivered ? 'hooks.test_ok' : 'hooks.test_failed', {
            status: test.status_code ?? '—',
            ms: test.latency_ms ?? '—',
            error: test.error ?? '',
          })}
        </p>
      )}
      <div className="row">
        <ActionButton action={action} className="secondary" onClick={sendTest}>
          {t('hooks.send_test')}
        </ActionButton>
        <button type="button" className="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
          {t('hooks.deliveries')}
        </button>
        <ActionButton action={action} className="danger" onClick={remove}>
          {t('hooks.remove')}
        </ActionButton>
      </div>
      {open && <Deliveries id={e.webhook_id} key={test?.delivery_id ?? 'd'} />}
    </section>
  );
}

function Deliveries({ id }: { id: string }) {
  const { t, locale } = useI18n();
  const [cursor, setCursor] = useState<string | undefined>();
  const list = useAsync(
    () =>
      unwrap(
        agentApi.GET('/v1/agent/webhooks/{id}/deliveries', {
          params: { path: { id }, query: { limit: 20, ...(cursor ? { starting_after: cursor } : {}) } },
        }),
      ),
    [id, cursor],
  );
  const action = useAction();
  if (list.error) return <ErrorNotice error={list.error} onRetry={() => void list.reload()} />;
  if (!list.data) return <Loading />;
  if (list.data.data.length === 0) return <Empty>{t('hooks.no_deliveries')}</Empty>;
  return (
    <>
      <ActionError action={action} />
      <DataTable
        columns={[t('col.when'), t('col.event'), t('col.status'), t('hooks.attempts'), t('col.actions')]}
        caption={t('hooks.deliveries')}
        captionClass="visually-hidden"
      >
        {list.data.data.map((d) => (
          <tr key={d.delivery_id}>
            <td>{formatDateTime(d.created_at, locale)}</td>
            <td className="mono">
              {d.event} <span className="muted">({t(`hooks.kind_${d.kind}`)})</span>
            </td>
            <td>
              <span
                className={`badge ${d.status === 'delivered' ? 'ok' : d.status === 'failed' ? 'bad' : 'warn'}`}
              >
                {t(`delivery.${d.status}`)}
              </span>
            </td>
            <td>
              <details>
                <summary>{t('hooks.attempt_count', { n: d.attempts })}</summary>
                <ol className="attempts">
                  {d.attempt_log.map((a) => (
                    <li key={a.attempt}>
                      {formatDateTime(a.started_at, locale)} · HTTP {a.status_code ?? '—'} ·{' '}
                      {a.latency_ms ?? '—'} ms
                      {a.error ? ` · ${a.error}` : ''}
                    </li>
                  ))}
                </ol>
                {d.next_retry_at && (
                  <p className="muted">
                    {t('hooks.next_retry', { at: formatDateTime(d.next_retry_at, locale) })}
                  </p>
                )}
              </details>
            </td>
            <td>
              {d.kind !== 'test' && (
                <RedeliverButton action={action} eventId={d.event_id} onQueued={list.reload} />
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {list.data.has_more && list.data.next_cursor && (
        <button type="button" className="secondary" onClick={() => setCursor(list.data!.next_cursor!)}>
          {t('pager.older')}
        </button>
      )}
    </>
  );
}
