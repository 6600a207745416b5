import { useState } from 'react';
import { createSandboxWorkerRequestPersonaValues as PERSONAS } from '@legwork/sdk/types';
import { unwrap } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { formatCents, yuanToCents } from '../../shared/money';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useAgent } from '../components/Shell';
import { useLiveEvents } from '../hooks';
import { agentApi } from '../session';
import { useAction } from '../../shared/use-action';
import { Field, Radios, SelectField } from '../../shared/fields';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { CoordinateFields } from '../components/CoordinateFields';
import { DataTable } from '../components/DataTable';

type Persona = (typeof PERSONAS)[number];
const PLACES = ['task', 'point'] as const;
const ADVANCE = [
  ['clock.hour', 3600],
  ['clock.day', 86_400],
  ['clock.three_days', 259_200],
] as const;

/** A change to a list's rows, then the list again: the list shows the answer. */
function thenReload(list: { reload: () => Promise<void> }, work: () => Promise<unknown>) {
  return async () => {
    await work();
    await list.reload();
  };
}

/**
 * Sandbox mode only (product-decisions §12; docs/sandbox.md): instant test funds, simulated workers that take the
 * agent's tasks by themselves, and test clocks that move a task's time forward.
 */
export function Sandbox() {
  const { t } = useI18n();
  return (
    <>
      <h1>{t('nav.sandbox')}</h1>
      <p className="muted">{t('sandbox.lead')}</p>
      <Funds />
      <Workers />
      <Clocks />
    </>
  );
}

function Funds() {
  const { t, locale } = useI18n();
  const { reloadProfile } = useAgent();
  const [amount, setAmount] = useState('1000.00');
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const submit = action.onSubmit(async () => {
    const cents = yuanToCents(amount);
    const answer = await unwrap(
      agentApi.POST('/v1/sandbox/balance', { body: { amount_cents: Number.isNaN(cents) ? -1 : cents } }),
    );
    setDone(t('sandbox.funded', { balance: formatCents(answer.balance_cents, locale) }));
    await reloadProfile();
  });
  return (
    <form className="card inline-form" onSubmit={submit} aria-labelledby="funds-h">
      <h2 id="funds-h">{t('sandbox.funds')}</h2>
      <Field
        id="fund-amount"
        label={t('money.amount_yuan')}
        inputMode="decimal"
        required
        value={amount}
        onChange={setAmount}
      />
      <div>
        <button type="submit" disabled={action.busy}>
          {t('sandbox.fund')}
        </button>
      </div>
      {done && (
        <p className="notice" role="status">
          {done}
        </p>
      )}
      <ActionError action={action} />
    </form>
  );
}

function Workers() {
  const { t, locale } = useI18n();
  const list = useAsync(() => unwrap(agentApi.GET('/v1/sandbox/workers')), []);
  useLiveEvents(
    (e) => e.name.startsWith('task.'),
    () => void list.reload(),
  );
  const [name, setName] = useState('');
  const [persona, setPersona] = useState<Persona>('reliable');
  const [place, setPlace] = useState<'task' | 'point'>('task');
  const [taskId, setTaskId] = useState('');
  const [distance, setDistance] = useState('30');
  const [point, setPoint] = useState({ latitude: '', longitude: '' });
  const action = useAction();
  const create = action.onSubmit(async () => {
    await unwrap(
      agentApi.POST('/v1/sandbox/workers', {
        body: {
          persona,
          ...(name.trim() ? { name: name.trim() } : {}),
          ...(place === 'task'
            ? { near_task: { task_id: taskId.trim(), distance_m: Number(distance) } }
            : { location: { latitude: Number(point.latitude), longitude: Number(point.longitude) } }),
        },
      }),
    );
    setName('');
    await list.reload();
  });
  const remove = (id: string) =>
    thenReload(list, () =>
      unwrap(agentApi.DELETE('/v1/sandbox/workers/{worker_id}', { params: { path: { worker_id: id } } })),
    );

  return (
    <section className="card" aria-labelledby="sim-h">
      <h2 id="sim-h">{t('sandbox.workers')}</h2>
      <form onSubmit={create} aria-label={t('sandbox.add_worker')}>
        <div className="grid3">
          <Field id="sim-name" label={t('sandbox.name')} value={name} onChange={setName} />
          <SelectField
            id="sim-persona"
            label={t('sandbox.persona')}
            value={persona}
            options={PERSONAS}
            optionLabel={(p) => t(`persona.${p}`)}
            onChange={setPersona}
          />
          <Radios
            legend={t('sandbox.where')}
            name="sim-place"
            value={place}
            options={PLACES}
            optionLabel={(p) => t(p === 'task' ? 'sandbox.near_task' : 'sandbox.at_point')}
            onChange={setPlace}
          />
        </div>
        {place === 'task' ? (
          <div className="grid2">
            <Field id="sim-task" label={t('sandbox.task_id')} required value={taskId} onChange={setTaskId} />
            <Field
              id="sim-distance"
              label={t('sandbox.distance')}
              type="number"
              min={0}
              required
              value={distance}
              onChange={setDistance}
            />
          </div>
        ) : (
          <CoordinateFields
            idPrefix="sim"
            latitude={point.latitude}
            longitude={point.longitude}
            onChange={(c) => setPoint({ ...point, ...c })}
          />
        )}
        <p>
          <button type="submit" disabled={action.busy}>
            {t('sandbox.add_worker')}
          </button>
        </p>
      </form>
      <ActionError action={action} />
      <ListState state={list} count={(d) => d.data.length} empty={t('sandbox.no_workers')} />
      {list.data && list.data.data.length > 0 && (
        <DataTable
          columns={[t('sandbox.name'), t('sandbox.persona'), t('sandbox.activity'), t('col.actions')]}
        >
          {list.data.data.map((w) => (
            <tr key={w.worker_id}>
              <td>{w.name}</td>
              <td>{w.persona ? t(`persona.${w.persona}`) : t('persona.custom')}</td>
              <td>
                <ul className="plain">
                  {w.activity.slice(-5).map((a) => (
                    <li key={`${a.assignment_id}-${a.step}`}>
                      {a.step} · {a.outcome ?? t('sandbox.due', { at: formatDateTime(a.due_at, locale) })}
                    </li>
                  ))}
                </ul>
              </td>
              <td>
                <ActionButton action={action} className="secondary" onClick={remove(w.worker_id)}>
                  {t('sandbox.remove')}
                </ActionButton>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

function Clocks() {
  const { t, locale } = useI18n();
  const list = useAsync(() => unwrap(agentApi.GET('/v1/sandbox/clocks')), []);
  const [name, setName] = useState('');
  const action = useAction();
  const create = action.onSubmit(async () => {
    await unwrap(agentApi.POST('/v1/sandbox/clocks', { body: name.trim() ? { name: name.trim() } : {} }));
    setName('');
    await list.reload();
  });
  const advance = (id: string, seconds: number) =>
    thenReload(list, () =>
      unwrap(
        agentApi.POST('/v1/sandbox/clocks/{clock_id}/advance', {
          params: { path: { clock_id: id } },
          body: { by_seconds: seconds },
        }),
      ),
    );
  const remove = (id: string) =>
    thenReload(list, () =>
      unwrap(agentApi.DELETE('/v1/sandbox/clocks/{clock_id}', { params: { path: { clock_id: id } } })),
    );
  return (
    <section className="card" aria-labelledby="clocks-h">
      <h2 id="clocks-h">{t('sandbox.clocks')}</h2>
      <p className="hint">{t('sandbox.clocks_lead')}</p>
      <form className="inline-form" onSubmit={create} aria-label={t('sandbox.add_clock')}>
        <Field id="clock-name" label={t('sandbox.name')} value={name} onChange={setName} />
        <div>
          <button type="submit" disabled={action.busy}>
            {t('sandbox.add_clock')}
          </button>
        </div>
      </form>
      <ActionError action={action} />
      <ListState state={list} count={(d) => d.data.length} empty={t('sandbox.no_clocks')} />
      {list.data && list.data.data.length > 0 && (
        <DataTable columns={[t('sandbox.name'), t('sandbox.time'), t('nav.tasks'), t('col.actions')]}>
          {list.data.data.map((c) => (
            <tr key={c.clock_id}>
              <td>{c.name || c.clock_id.slice(0, 8)}</td>
              <td>
                {formatDateTime(c.frozen_time, locale)}{' '}
                {c.status === 'advancing' && <span className="badge warn">{t('clock.advancing')}</span>}
              </td>
              <td>{c.task_count}</td>
              <td className="row">
                {ADVANCE.map(([key, s]) => (
                  <ActionButton
                    key={key}
                    action={action}
                    className="secondary"
                    onClick={advance(c.clock_id, s)}
                  >
                    {t(key)}
                  </ActionButton>
                ))}
                <ActionButton action={action} className="danger" onClick={remove(c.clock_id)}>
                  {t('sandbox.remove')}
                </ActionButton>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
