import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ActionButton, ActionError, ConfirmButtons } from '../../shared/action-ui';
import { unwrap, type Schemas } from '../../shared/api';
import { Radios, SelectField, TextBox } from '../../shared/fields';
import { formatDateTime } from '../../shared/i18n';
import { Pager, useOffsetPages } from '../../shared/pager';
import { ErrorNotice, ListState, Loading, ReloadButton } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { DataTable } from '../components/DataTable';
import { RiskBadge, SignalList } from '../components/ProofSignals';
import { useI18n } from '../i18n';
import { adminApi } from '../session';

type Review = Schemas['ProofReviewResponse'];
type Signal = Schemas['ProofSignalView'];
const PAGE = 20;
const STATUSES = ['open', 'decided'] as const;
const OUTCOMES = ['confirmed_fraud', 'cleared'] as const;

/** Every signal of a submission's photos, each code once (a travel signal is on every photo of the submission). */
function signalsOf(review: Review): Signal[] {
  const seen = new Map<string, Signal>();
  for (const p of review.submission.photos) {
    for (const s of p.verification?.signals ?? []) {
      const key = `${s.code}-${s.scope ?? ''}`;
      if (!seen.has(key)) seen.set(key, s);
    }
  }
  return [...seen.values()];
}

/**
 * The operators' queue of flagged submissions (product-decisions §18): held high-risk results nobody decided (and those
 * approved after 14 days with a note), or what was decided.
 */
export function OpsProofReviews() {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('open');
  const pages = useOffsetPages(PAGE);
  const { skip, limit } = pages;
  const list = useAsync(
    () => unwrap(adminApi.GET('/v1/admin/proof-reviews', { params: { query: { status, skip, limit } } })),
    [status, skip],
  );
  return (
    <>
      <div className="row spread">
        <h1>{t('nav.ops_proof_reviews')}</h1>
        <ReloadButton state={list}>{t('common.refresh')}</ReloadButton>
      </div>
      <p className="muted">{t('pr.lead')}</p>
      <div className="inline-form">
        <SelectField
          id="pr-status"
          label={t('col.status')}
          value={status}
          options={STATUSES}
          optionLabel={(s) => t(`pr.status_${s}`)}
          onChange={(v) => {
            setStatus(v);
            pages.reset();
          }}
        />
      </div>
      <ListState state={list} count={(d) => d.items.length} empty={t('pr.none')} />
      {list.data && list.data.items.length > 0 && (
        <DataTable
          columns={[
            t('pr.submitted'),
            t('pr.task'),
            t('ops.worker'),
            t('verify.risk'),
            t('pr.why'),
            t('col.status'),
          ]}
        >
          {list.data.items.map((r) => (
            <tr key={r.review_id} data-testid="proof-review">
              <td>{formatDateTime(r.submission.submitted_at, locale)}</td>
              <td>
                <Link to={`/ops/proof-reviews/${r.review_id}`}>{r.task.title}</Link>
              </td>
              <td className="mono">{r.worker.worker_id.slice(0, 8)}</td>
              <td>
                <RiskBadge risk={r.submission.risk} />
              </td>
              <td>
                <SignalList signals={signalsOf(r)} />
              </td>
              <td>{r.decision ? t(`pr.outcome_${r.decision.outcome}`) : t(`pr.hold_${r.hold}`)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.data && <Pager {...pages.pager(list.data.items.length, list.data)} />}
    </>
  );
}

/** One flagged submission with its evidence side by side, and the decision. */
export function OpsProofReview() {
  const { t, locale } = useI18n();
  const id = useParams().reviewId!;
  const state = useAsync(
    () => unwrap(adminApi.GET('/v1/admin/proof-reviews/{id}', { params: { path: { id } } })),
    [id],
  );
  if (state.error && !state.data)
    return <ErrorNotice error={state.error} onRetry={() => void state.reload()} />;
  if (!state.data) return <Loading />;
  const r = state.data;
  const w = r.worker;
  return (
    <>
      <p>
        <Link to="/ops/proof-reviews">← {t('nav.ops_proof_reviews')}</Link>
      </p>
      <h1>
        {r.task.title} <RiskBadge risk={r.submission.risk} />
      </h1>
      <p>
        {r.decision ? t(`pr.outcome_${r.decision.outcome}`) : t(`pr.hold_${r.hold}`)}
        {r.review_deadline_at &&
          ` · ${t('pr.deadline', { at: formatDateTime(r.review_deadline_at, locale) })}`}
        {r.note && ` · ${r.note}`}
      </p>
      <section className="card" aria-labelledby="pr-why-h">
        <h2 id="pr-why-h">{t('pr.why')}</h2>
        <SignalList signals={signalsOf(r)} />
      </section>
      <div className="two-col">
        <section className="card" aria-labelledby="pr-this-h">
          <h2 id="pr-this-h">{t('pr.this_photo')}</h2>
          <p className="muted">{formatDateTime(r.submission.submitted_at, locale)}</p>
          <div className="photos">
            {r.submission.photos.map((p) => (
              <figure key={p.url} className="photo">
                <a href={p.url} target="_blank" rel="noopener noreferrer">
                  <img src={p.url} alt={t('pr.this_alt', { at: formatDateTime(p.taken_at, locale) })} />
                </a>
                {p.verification && (
                  <figcaption>
                    <RiskBadge risk={p.verification.risk} />{' '}
                    {t('verify.metres', { m: p.verification.distance_meters })}
                  </figcaption>
                )}
              </figure>
            ))}
          </div>
        </section>
        <section className="card" aria-labelledby="pr-match-h">
          <h2 id="pr-match-h">{t('pr.matched_photo')}</h2>
          {r.reused_matches.length === 0 && <p className="muted">{t('pr.no_match')}</p>}
          {r.reused_matches.map((m) => (
            <div key={m.assignment_id} data-testid="matched-photo">
              <p>
                {t(m.same_worker ? 'pr.match_same' : 'pr.match_other', {
                  at: formatDateTime(m.recorded_at, locale),
                  bits: m.distance_bits,
                })}{' '}
                <span className="mono">{m.task_id.slice(0, 8)}</span>
              </p>
              <div className="photos">
                {m.photo_urls.map((u) => (
                  <figure key={u} className="photo">
                    <a href={u} target="_blank" rel="noopener noreferrer">
                      <img src={u} alt={t('pr.match_alt', { at: formatDateTime(m.recorded_at, locale) })} />
                    </a>
                  </figure>
                ))}
              </div>
            </div>
          ))}
        </section>
      </div>
      <div className="two-col">
        <section className="card" aria-labelledby="pr-worker-h">
          <h2 id="pr-worker-h">{t('pr.worker')}</h2>
          <dl className="pairs">
            <dt>{t('ops.worker')}</dt>
            <dd className="mono">{w.worker_id}</dd>
            <dt>{t('pr.reputation')}</dt>
            <dd>{w.reputation.toFixed(2)}</dd>
            <dt>{t('pr.account')}</dt>
            <dd>
              {t(`account.${w.account_status}`)}
              {w.suspended && (
                <>
                  {' '}
                  <span className="badge bad">{t('pr.suspended')}</span>
                </>
              )}
              {w.withdrawals_paused && (
                <>
                  {' '}
                  <span className="badge warn">{t('pr.withdrawals_paused')}</span>
                </>
              )}
            </dd>
            <dt>{t('pr.confirmed_frauds')}</dt>
            <dd>{w.confirmed_frauds}</dd>
          </dl>
        </section>
        <section className="card" aria-labelledby="pr-trail-h">
          <h2 id="pr-trail-h">{t('pr.trail')}</h2>
          <p className="muted">
            {t('pr.task_place', {
              place: r.task.location.address ?? '',
              lat: r.task.location.latitude,
              lng: r.task.location.longitude,
            })}
          </p>
          {r.travel_trail.length === 0 ? (
            <p className="muted">{t('pr.no_trail')}</p>
          ) : (
            <DataTable
              columns={[
                t('col.when'),
                t('pr.source'),
                t('pr.position'),
                { label: t('pr.accuracy'), num: true },
              ]}
            >
              {r.travel_trail.map((p, i) => (
                <tr key={`${p.reported_at}-${i}`}>
                  <td>{formatDateTime(p.reported_at, locale)}</td>
                  <td>{t(`pr.source_${p.source}`)}</td>
                  <td className="mono">
                    {p.latitude.toFixed(5)}, {p.longitude.toFixed(5)}
                  </td>
                  <td className="num">{p.accuracy_m != null ? `± ${Math.round(p.accuracy_m)} m` : '—'}</td>
                </tr>
              ))}
            </DataTable>
          )}
        </section>
      </div>
      {r.decision ? (
        <section className="card" aria-labelledby="pr-decided-h" data-testid="proof-decision">
          <h2 id="pr-decided-h">{t('pr.decision')}</h2>
          <p>
            {t(`pr.outcome_${r.decision.outcome}`)} · {formatDateTime(r.decision.decided_at, locale)}
            {r.decision.note && ` · ${r.decision.note}`}
          </p>
        </section>
      ) : (
        <Decision review={r} onDone={() => void state.reload()} />
      )}
    </>
  );
}

/**
 * Confirmed fraud or cleared, with a note for the audit log. Confirming fraud asks again first: it rejects a held
 * result, lowers the worker's reputation and may suspend them.
 */
function Decision({ review, onDone }: { review: Review; onDone: () => void }) {
  const { t } = useI18n();
  const [outcome, setOutcome] = useState<(typeof OUTCOMES)[number]>('confirmed_fraud');
  const [suspend, setSuspend] = useState(false);
  const [pause, setPause] = useState(false);
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const fraud = outcome === 'confirmed_fraud';
  const send = async () => {
    await unwrap(
      adminApi.POST('/v1/admin/proof-reviews/{id}/decision', {
        params: { path: { id: review.review_id } },
        body: {
          outcome,
          note: note.trim(),
          ...(fraud ? { suspend_worker: suspend, pause_withdrawals: pause } : {}),
        },
      }),
    );
    setConfirming(false);
    onDone();
  };
  const submit = action.onSubmit(async () => {
    if (fraud) setConfirming(true);
    else await send();
  });
  return (
    <section className="card" aria-labelledby="pr-decide-h">
      <h2 id="pr-decide-h">{t('pr.decide')}</h2>
      <form onSubmit={submit} aria-labelledby="pr-decide-h">
        <Radios
          legend={t('pr.outcome')}
          name="pr-outcome"
          value={outcome}
          options={OUTCOMES}
          optionLabel={(o) => t(`pr.choose_${o}`)}
          onChange={(o) => {
            setOutcome(o);
            setConfirming(false);
          }}
        />
        {fraud && (
          <fieldset>
            <legend>{t('pr.also')}</legend>
            <label className="choice">
              <input type="checkbox" checked={suspend} onChange={(e) => setSuspend(e.target.checked)} />
              {t('pr.suspend')}
            </label>
            <label className="choice">
              <input type="checkbox" checked={pause} onChange={(e) => setPause(e.target.checked)} />
              {t('pr.pause')}
            </label>
          </fieldset>
        )}
        <TextBox
          id="pr-note"
          label={t('pr.note')}
          required
          maxLength={2000}
          rows={3}
          value={note}
          onChange={setNote}
          hint={t('pr.note_hint')}
        />
        <ActionError action={action} />
        {!confirming && (
          <p>
            <button type="submit" className={fraud ? 'danger' : ''} disabled={action.busy}>
              {t(fraud ? 'pr.submit_fraud' : 'pr.submit_cleared')}
            </button>
          </p>
        )}
      </form>
      {confirming && (
        <div role="alertdialog" aria-labelledby="pr-confirm-h" className="confirm">
          <p id="pr-confirm-h">
            {t(suspend || pause ? 'pr.confirm_fraud_and' : 'pr.confirm_fraud', {
              also: [suspend ? t('pr.suspend') : '', pause ? t('pr.pause') : ''].filter(Boolean).join(', '),
            })}
          </p>
          <div className="row">
            <ConfirmButtons
              action={action}
              onConfirm={send}
              confirm={t('pr.confirm_yes')}
              onCancel={() => setConfirming(false)}
              cancel={t('common.cancel')}
            />
          </div>
        </div>
      )}
    </section>
  );
}

/** The workers' requests for a person to look again at a confirmed fraud or a suspension, and the answer. */
export function OpsWorkerReviews() {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('open');
  const pages = useOffsetPages(PAGE);
  const { skip, limit } = pages;
  const list = useAsync(
    () => unwrap(adminApi.GET('/v1/admin/worker-reviews', { params: { query: { status, skip, limit } } })),
    [status, skip],
  );
  return (
    <>
      <div className="row spread">
        <h1>{t('nav.ops_worker_reviews')}</h1>
        <ReloadButton state={list}>{t('common.refresh')}</ReloadButton>
      </div>
      <div className="inline-form">
        <SelectField
          id="wr-status"
          label={t('col.status')}
          value={status}
          options={STATUSES}
          optionLabel={(s) => t(`wr.status_${s}`)}
          onChange={(v) => {
            setStatus(v);
            pages.reset();
          }}
        />
      </div>
      <ListState state={list} count={(d) => d.items.length} empty={t('wr.none')} />
      {list.data?.items.map((r) => (
        <WorkerReviewCard key={r.review_id} r={r} locale={locale} onDone={() => void list.reload()} />
      ))}
      {list.data && <Pager {...pages.pager(list.data.items.length, list.data)} />}
    </>
  );
}

function WorkerReviewCard(props: {
  r: Schemas['AdminWorkerReviewResponse'];
  locale: Parameters<typeof formatDateTime>[1];
  onDone: () => void;
}) {
  const { t } = useI18n();
  const { r, locale } = props;
  const [note, setNote] = useState('');
  const action = useAction();
  const decide = (outcome: 'upheld' | 'reversed') => async () => {
    await unwrap(
      adminApi.POST('/v1/admin/worker-reviews/{id}/decision', {
        params: { path: { id: r.review_id } },
        body: { outcome, note: note.trim() },
      }),
    );
    props.onDone();
  };
  const h = `wr-${r.review_id}`;
  return (
    <article className="card" aria-labelledby={h} data-testid="worker-review">
      <h2 id={h}>
        {t(`wr.subject_${r.subject}`)} · <span className="mono">{r.worker_id.slice(0, 8)}</span>
      </h2>
      <p className="muted">
        {formatDateTime(r.created_at, locale)}
        {r.subject === 'fraud_hold' && (
          <>
            {' · '}
            <Link to={`/ops/proof-reviews/${r.subject_id}`}>{t('wr.open_subject')}</Link>
          </>
        )}
      </p>
      <blockquote>{r.statement}</blockquote>
      {r.outcome ? (
        <p>
          {t(`wr.outcome_${r.outcome}`)} · {formatDateTime(r.decided_at, locale)}
          {r.note && ` · ${r.note}`}
        </p>
      ) : (
        <>
          <TextBox
            id={`${h}-note`}
            label={t('wr.note')}
            required
            maxLength={2000}
            rows={2}
            value={note}
            onChange={setNote}
          />
          <ActionError action={action} />
          <p className="row">
            <ActionButton action={action} disabled={!note.trim()} onClick={decide('reversed')}>
              {t(r.subject_live ? 'wr.reverse' : 'wr.reverse_nothing')}
            </ActionButton>
            <ActionButton
              action={action}
              className="secondary"
              disabled={!note.trim()}
              onClick={decide('upheld')}
            >
              {t('wr.uphold')}
            </ActionButton>
          </p>
        </>
      )}
    </article>
  );
}
