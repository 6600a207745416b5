import { useState } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { formatCents } from '../../shared/money';
import { FilterField, TextBox } from '../../shared/fields';
import { ActionError } from '../../shared/action-ui';
import { ListState } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { useI18n } from '../i18n';
import { adminApi } from '../session';

type Dispute = Schemas['AdminDisputeView'];
const STATUSES = ['awaiting_decision', 'awaiting_response', 'decided'] as const;
type Status = (typeof STATUSES)[number];
const OUTCOMES = ['upheld', 'overturned', 'split'] as const;
type Outcome = (typeof OUTCOMES)[number];

/**
 * The operators' queue of disputes (product-decisions §19): those waiting for a decision first (the agent answered
 * or its 48 hours passed). Each shows the rejection, both sides' words as plain text and what is at stake; the
 * decision form takes upheld, overturned or split with the worker's percentage, and a note both sides read.
 */
export function OpsDisputes() {
  const { t } = useI18n();
  const [status, setStatus] = useState<Status | ''>('awaiting_decision');
  const list = useAsync(
    () => unwrap(adminApi.GET('/v1/admin/disputes', { params: { query: status ? { status } : {} } })),
    [status],
  );
  return (
    <>
      <h1>{t('nav.ops_disputes')}</h1>
      <div className="inline-form">
        <FilterField
          id="d-status"
          label={t('col.status')}
          value={status}
          options={STATUSES}
          optionLabel={(s) => t(`dispute.status.${s}`)}
          blank={t('tasks.all')}
          onChange={setStatus}
        />
      </div>
      <ListState state={list} count={(d) => d.disputes.length} empty={t('dispute.none')} />
      {list.data?.disputes.map((d) => (
        <DisputeCard key={d.dispute_id} d={d} onDecided={() => void list.reload()} />
      ))}
    </>
  );
}

function DisputeCard({ d, onDecided }: { d: Dispute; onDecided: () => void }) {
  const { t, locale } = useI18n();
  const money = (c: number) => formatCents(c, locale);
  return (
    <article className="card" aria-labelledby={`d-${d.dispute_id}`} data-testid="dispute">
      <div className="row spread">
        <h2 id={`d-${d.dispute_id}`}>{d.task_title}</h2>
        <span className="badge">{t(`dispute.status.${d.status}`)}</span>
      </div>
      <dl className="pairs">
        <dt>{t('dispute.rejected_for')}</dt>
        <dd>
          {d.rejection_reason_code ? t(`reason.${d.rejection_reason_code}` as 'reason.other') : '—'}
          {d.rejection_feedback && <span className="plain-text"> · {d.rejection_feedback}</span>}
        </dd>
        <dt>{t('dispute.at_stake')}</dt>
        <dd>
          {t('dispute.at_stake_value', { budget: money(d.budget_cents), payout: money(d.payout_cents) })}
        </dd>
        <dt>{t('dispute.worker_says')}</dt>
        <dd>
          <p className="plain-text">{d.worker.statement}</p>
          <Photos urls={d.worker.photo_urls} />
        </dd>
        <dt>{t('dispute.agent_says')}</dt>
        <dd>
          {d.agent ? (
            <>
              <p className="plain-text">{d.agent.statement}</p>
              <Photos urls={d.agent.photo_urls} />
            </>
          ) : (
            t('dispute.no_answer', { due: formatDateTime(d.response_due_at, locale) })
          )}
        </dd>
      </dl>
      {d.decision ? (
        <DecisionView decision={d.decision} />
      ) : (
        d.status === 'awaiting_decision' && <DecisionForm d={d} onDecided={onDecided} />
      )}
    </article>
  );
}

function Photos({ urls }: { urls: string[] }) {
  const { t } = useI18n();
  if (urls.length === 0) return null;
  return (
    <p>
      {urls.map((u, i) => (
        <a key={u} href={u} target="_blank" rel="noreferrer">
          {t('dispute.photo', { n: i + 1 })}{' '}
        </a>
      ))}
    </p>
  );
}

export function DecisionView({ decision }: { decision: NonNullable<Dispute['decision']> }) {
  const { t, locale } = useI18n();
  return (
    <div className="notice" role="status">
      <p>
        <strong>{t(`dispute.outcome.${decision.outcome}`, { percent: decision.worker_percent ?? 0 })}</strong>{' '}
        · {formatDateTime(decision.decided_at, locale)}
      </p>
      <p>
        {t('dispute.paid', {
          worker: formatCents(decision.worker_cents, locale),
          charged: formatCents(decision.charged_cents, locale),
        })}
        {decision.owed_cents > 0 &&
          ` ${t('dispute.owed', { owed: formatCents(decision.owed_cents, locale) })}`}
      </p>
      {decision.note && <p className="plain-text">{decision.note}</p>}
    </div>
  );
}

function DecisionForm({ d, onDecided }: { d: Dispute; onDecided: () => void }) {
  const { t } = useI18n();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [percent, setPercent] = useState('50');
  const [note, setNote] = useState('');
  const action = useAction();
  const id = d.dispute_id;
  const decide = action.onSubmit(async () => {
    if (!outcome) return;
    await unwrap(
      adminApi.POST('/v1/admin/disputes/{id}/decision', {
        params: { path: { id } },
        body: {
          outcome,
          ...(outcome === 'split' ? { worker_percent: Number(percent) } : {}),
          ...(note.trim() ? { note: note.trim() } : {}),
        },
      }),
    );
    onDecided();
  });
  return (
    <form onSubmit={decide} aria-label={t('dispute.decide')}>
      <fieldset>
        <legend>{t('dispute.decide')}</legend>
        {OUTCOMES.map((o) => (
          <label key={o} className="choice">
            <input
              type="radio"
              name={`outcome-${id}`}
              value={o}
              checked={outcome === o}
              onChange={() => setOutcome(o)}
              required
            />
            {t(`dispute.choose.${o}`)}
          </label>
        ))}
      </fieldset>
      {outcome === 'split' && (
        <>
          <label htmlFor={`pct-${id}`}>{t('dispute.percent')}</label>
          <input
            id={`pct-${id}`}
            type="number"
            min={1}
            max={99}
            step={1}
            required
            value={percent}
            onChange={(e) => setPercent(e.target.value)}
          />
        </>
      )}
      <TextBox id={`note-${id}`} label={t('dispute.note')} maxLength={2000} value={note} onChange={setNote} />
      <ActionError action={action} />
      <p>
        <button type="submit" disabled={action.busy || !outcome}>
          {t('dispute.submit_decision')}
        </button>
      </p>
    </form>
  );
}
