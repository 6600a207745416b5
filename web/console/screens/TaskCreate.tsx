import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  createTaskRequestLimits,
  createTaskRequestTask_typeValues as TYPES,
  taskLocationLimits,
  taskRequirementsLocation_proofValues as PROOFS,
  workerRegisterSkillsValues as SKILLS,
} from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { useI18n } from '../../shared/i18n';
import { formatCents } from '../format';
import { ErrorNotice } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useAgent } from '../components/Shell';
import { useAction } from '../hooks';
import { parsePlace } from '../maplink';
import { agentApi } from '../session';
import { yuanToCents } from './Money';

type Body = Schemas['CreateTaskRequest'];
type Quote = Schemas['TaskQuoteResponse'];
const REFUND_CASES = [
  'cancel_unassigned',
  'cancel_assigned',
  'cancel_in_progress',
  'worker_abandons',
  'result_rejected',
  'deadline_expired',
] as const;

function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * The task form. The place comes from coordinates or a pasted map link (maplink.ts converts Chinese map datums to
 * WGS-84). "Get a quote" sends the body to POST /v1/tasks/quote; "Create" is offered only for the body that was
 * quoted (any change asks for a new quote), with one idempotency key per quoted body so a retried click never
 * creates two tasks.
 */
export function TaskCreate() {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const { sandbox } = useAgent();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [taskType, setTaskType] = useState<(typeof TYPES)[number]>('photo');
  const [link, setLink] = useState('');
  const [latitude, setLatitude] = useState('');
  const [longitude, setLongitude] = useState('');
  const [address, setAddress] = useState('');
  const [radius, setRadius] = useState('5000');
  const [skills, setSkills] = useState<string[]>(['photography']);
  const [proof, setProof] = useState<(typeof PROOFS)[number]>('photo_gps');
  const [budget, setBudget] = useState('50.00');
  const [workers, setWorkers] = useState('1');
  const [deadline, setDeadline] = useState(() => localInput(new Date(Date.now() + 24 * 3_600_000)));
  const [clock, setClock] = useState('');
  const [linkNote, setLinkNote] = useState<string | null>(null);
  const [quoted, setQuoted] = useState<{ body: string; quote: Quote; key: string } | null>(null);
  const quoting = useAction();
  const creating = useAction();
  const clocks = useAsync(
    () => (sandbox ? unwrap(agentApi.GET('/v1/sandbox/clocks')) : Promise.resolve({ data: [] })),
    [sandbox],
  );

  const body: Body = useMemo(() => {
    const deadlineAt = new Date(deadline);
    return {
      title: title.trim(),
      description: description.trim(),
      task_type: taskType,
      location: {
        latitude: Number(latitude),
        longitude: Number(longitude),
        ...(address.trim() ? { address: address.trim() } : {}),
        ...(radius ? { max_distance_meters: Number(radius) } : {}),
      },
      requirements: { skills, location_proof: proof },
      budget_cents: yuanToCents(budget),
      max_workers: Number(workers),
      deadline_at: Number.isNaN(deadlineAt.getTime()) ? deadline : deadlineAt.toISOString(),
      ...(clock ? { test_clock: clock } : {}),
    };
  }, [
    title,
    description,
    taskType,
    latitude,
    longitude,
    address,
    radius,
    skills,
    proof,
    budget,
    workers,
    deadline,
    clock,
  ]);
  const bodyKey = JSON.stringify(body);
  const current = quoted && quoted.body === bodyKey ? quoted : null;

  const applyLink = (value: string) => {
    setLink(value);
    const place = parsePlace(value);
    if (!value.trim()) setLinkNote(null);
    else if (!place) setLinkNote(t('create.link_unknown'));
    else {
      setLatitude(String(place.latitude));
      setLongitude(String(place.longitude));
      setLinkNote(t(`create.link_${place.datum}`, { lat: place.latitude, lng: place.longitude }));
    }
  };
  const quote = quoting.onSubmit(async () => {
    creating.setError(null);
    const answer = await unwrap(agentApi.POST('/v1/tasks/quote', { body }));
    setQuoted({ body: bodyKey, quote: answer, key: crypto.randomUUID() });
  });
  const create = () =>
    void creating.run(async () => {
      if (!current) return;
      const task = await unwrap(
        agentApi.POST('/v1/tasks/create', { body: { ...body, idempotency_key: current.key } }),
      );
      void navigate(`/tasks/${task.task_id}`);
    });

  return (
    <>
      <h1>{t('nav.new_task')}</h1>
      <div className="two-col">
        <form className="card" onSubmit={quote} aria-label={t('nav.new_task')}>
          <label htmlFor="t-title">{t('create.title')}</label>
          <input
            id="t-title"
            required
            maxLength={createTaskRequestLimits.title.maxLength}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
          />
          <label htmlFor="t-desc">{t('create.description')}</label>
          <textarea
            id="t-desc"
            required
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
          <label htmlFor="t-type">{t('create.type')}</label>
          <select
            id="t-type"
            value={taskType}
            onChange={(e) => setTaskType(e.target.value as typeof taskType)}
          >
            {TYPES.map((ty) => (
              <option key={ty} value={ty}>
                {t(`type.${ty}`)}
              </option>
            ))}
          </select>
          <fieldset>
            <legend>{t('create.place')}</legend>
            <label htmlFor="t-link">{t('create.map_link')}</label>
            <input
              id="t-link"
              value={link}
              placeholder="https://maps.google.com/?q=31.2304,121.4737"
              aria-describedby="t-link-note"
              onChange={(e) => applyLink(e.target.value)}
            />
            <p id="t-link-note" className="hint" aria-live="polite">
              {linkNote ?? t('create.link_hint')}
            </p>
            <div className="grid2">
              <div>
                <label htmlFor="t-lat">{t('create.latitude')}</label>
                <input
                  id="t-lat"
                  required
                  inputMode="decimal"
                  value={latitude}
                  onChange={(e) => setLatitude(e.target.value)}
                />
              </div>
              <div>
                <label htmlFor="t-lng">{t('create.longitude')}</label>
                <input
                  id="t-lng"
                  required
                  inputMode="decimal"
                  value={longitude}
                  onChange={(e) => setLongitude(e.target.value)}
                />
              </div>
            </div>
            <label htmlFor="t-address">{t('create.address')}</label>
            <input id="t-address" value={address} onChange={(e) => setAddress(e.target.value)} />
            <label htmlFor="t-radius">{t('create.radius')}</label>
            <input
              id="t-radius"
              type="number"
              min={taskLocationLimits.max_distance_meters.minimum}
              max={taskLocationLimits.max_distance_meters.maximum}
              value={radius}
              onChange={(e) => setRadius(e.target.value)}
            />
          </fieldset>
          <fieldset>
            <legend>{t('create.skills')}</legend>
            <div className="checks">
              {SKILLS.map((s) => (
                <label key={s} className="choice">
                  <input
                    type="checkbox"
                    checked={skills.includes(s)}
                    onChange={(e) =>
                      setSkills(e.target.checked ? [...skills, s] : skills.filter((x) => x !== s))
                    }
                  />
                  {t(`skill.${s}`)}
                </label>
              ))}
            </div>
          </fieldset>
          <label htmlFor="t-proof">{t('create.proof')}</label>
          <select id="t-proof" value={proof} onChange={(e) => setProof(e.target.value as typeof proof)}>
            {PROOFS.map((p) => (
              <option key={p} value={p}>
                {t(`proof.${p}`)}
              </option>
            ))}
          </select>
          <div className="grid2">
            <div>
              <label htmlFor="t-budget">{t('create.budget')}</label>
              <input
                id="t-budget"
                required
                inputMode="decimal"
                value={budget}
                onChange={(e) => setBudget(e.target.value)}
              />
            </div>
            <div>
              <label htmlFor="t-workers">{t('create.workers')}</label>
              <input
                id="t-workers"
                type="number"
                min={createTaskRequestLimits.max_workers.minimum}
                max={createTaskRequestLimits.max_workers.maximum}
                required
                value={workers}
                onChange={(e) => setWorkers(e.target.value)}
              />
            </div>
          </div>
          <label htmlFor="t-deadline">{t('create.deadline')}</label>
          <input
            id="t-deadline"
            type="datetime-local"
            required
            value={deadline}
            onChange={(e) => setDeadline(e.target.value)}
          />
          {sandbox && (
            <>
              <label htmlFor="t-clock">{t('create.test_clock')}</label>
              <select id="t-clock" value={clock} onChange={(e) => setClock(e.target.value)}>
                <option value="">{t('create.no_clock')}</option>
                {(clocks.data?.data ?? []).map((c) => (
                  <option key={c.clock_id} value={c.clock_id}>
                    {c.name || c.clock_id}
                  </option>
                ))}
              </select>
            </>
          )}
          <p>
            <button type="submit" disabled={quoting.busy}>
              {t('create.get_quote')}
            </button>
          </p>
          {quoting.error ? <ErrorNotice error={quoting.error} /> : null}
        </form>
        <section className="card sticky" aria-labelledby="quote-h" aria-live="polite">
          <h2 id="quote-h">{t('create.quote')}</h2>
          {!current && <p className="muted">{quoted ? t('create.quote_stale') : t('create.quote_first')}</p>}
          {current && <QuoteView quote={current.quote} locale={locale} />}
          {current && (
            <p>
              <button type="button" disabled={creating.busy || !current.quote.can_create} onClick={create}>
                {t('create.create', { amount: formatCents(current.quote.total_to_hold_cents, locale) })}
              </button>
            </p>
          )}
          {creating.error ? <ErrorNotice error={creating.error} /> : null}
        </section>
      </div>
    </>
  );
}

function QuoteView({ quote, locale }: { quote: Quote; locale: Parameters<typeof formatCents>[1] }) {
  const { t } = useI18n();
  const money = (c: number) => formatCents(c, locale);
  return (
    <div data-testid="quote">
      <dl className="pairs">
        <dt>{t('quote.per_slot')}</dt>
        <dd>
          {money(quote.per_slot.budget_cents)} = {money(quote.per_slot.worker_payout_cents)}{' '}
          {t('quote.to_worker')} + {money(quote.per_slot.platform_fee_cents)}{' '}
          {t('quote.fee', { pct: quote.fee_bps / 100 })}
        </dd>
        <dt>{t('quote.workers')}</dt>
        <dd>{quote.max_workers}</dd>
        <dt>{t('quote.total')}</dt>
        <dd>
          <strong>{money(quote.total_to_hold_cents)}</strong>
        </dd>
        <dt>{t('quote.balance')}</dt>
        <dd>
          {money(quote.balance.available_cents)}{' '}
          {quote.balance.covers ? (
            <span className="badge ok">{t('quote.covers')}</span>
          ) : (
            <span className="badge bad">
              {t('quote.shortfall', { amount: money(quote.balance.shortfall_cents) })}
            </span>
          )}
        </dd>
        <dt>{t('quote.nearby')}</dt>
        <dd>
          {t('quote.nearby_value', {
            online: quote.workers.eligible_online,
            now: quote.workers.available_now,
            radius: quote.workers.radius_meters,
          })}
          <br />
          <small className="muted">{t('quote.nearby_note')}</small>
        </dd>
        {quote.workers.simulated_online > 0 && (
          <>
            <dt>{t('quote.simulated')}</dt>
            <dd>{quote.workers.simulated_online}</dd>
          </>
        )}
        <dt>{t('quote.concurrency')}</dt>
        <dd>
          {quote.concurrency.active_tasks} / {quote.concurrency.max_concurrent_tasks}{' '}
          {!quote.concurrency.within_limit && <span className="badge bad">{t('quote.over_limit')}</span>}
        </dd>
        <dt>{t('quote.auto_approval')}</dt>
        <dd>{t('quote.hours', { hours: quote.auto_approval.delay_hours })}</dd>
      </dl>
      <table className="compact">
        <caption>{t('quote.refunds')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('quote.case')}</th>
            <th scope="col" className="num">
              {t('quote.refund')}
            </th>
            <th scope="col" className="num">
              {t('quote.worker_gets')}
            </th>
          </tr>
        </thead>
        <tbody>
          {REFUND_CASES.map((c) => {
            const r = quote.refund_policy[c];
            return (
              <tr key={c}>
                <th scope="row">{t(`refund.${c}`)}</th>
                <td className="num">
                  {r.allowed
                    ? `${money(r.refund_cents_per_slot)} (${r.refund_percent} %)`
                    : t('quote.not_allowed')}
                </td>
                <td className="num">{money(r.worker_cents_per_slot)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
