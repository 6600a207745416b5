import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ActionError, ConfirmButtons } from '../../shared/action-ui';
import { unwrap, type Schemas } from '../../shared/api';
import { toApiError } from '../../shared/errors';
import { Radios, SelectField, TextBox } from '../../shared/fields';
import { formatDateTime } from '../../shared/i18n';
import { formatCents } from '../../shared/money';
import { StatusBadge } from '../../shared/StatusBadge';
import { ErrorNotice, ListState, Loading, ReloadButton } from '../../shared/ui';
import { useAction, type Action } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { DataTable } from '../components/DataTable';
import { useI18n } from '../i18n';
import { adminApi } from '../session';

type Report = Schemas['AdminTaskReportView'];
type Outcome = Schemas['TaskReportDecisionResponse'];
const STATUSES = ['open', 'decided'] as const;
const OUTCOMES = ['cancel_task', 'dismiss'] as const;
/** The task statuses a cancellation can still end (the API's LIVE_TASK_STATUSES); an ended task is only dismissed. */
const LIVE = ['pending', 'assigned', 'in_progress', 'submitted'];

/** The worker's words shortened for the table (the page of the report shows them whole). */
function clip(text: string): string {
  const chars = Array.from(text);
  return chars.length > 120 ? `${chars.slice(0, 120).join('')}…` : text;
}

const listOf = (status: (typeof STATUSES)[number]) =>
  unwrap(adminApi.GET('/v1/admin/task-reports', { params: { query: { status } } }));

/**
 * The operators' queue of workers' reports of tasks (product-decisions §19, "Also"): illegal, unsafe or misleading,
 * oldest first, or what was decided, newest first. The API answers up to 200 a list, unpaged, so there is no pager.
 */
export function OpsTaskReports() {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('open');
  const list = useAsync(() => listOf(status), [status]);
  return (
    <>
      <div className="row spread">
        <h1>{t('nav.ops_task_reports')}</h1>
        <ReloadButton state={list}>{t('common.refresh')}</ReloadButton>
      </div>
      <p className="muted">{t('tr.lead')}</p>
      <div className="inline-form">
        <SelectField
          id="tr-status"
          label={t('col.status')}
          value={status}
          options={STATUSES}
          optionLabel={(s) => t(`tr.status_${s}`)}
          onChange={setStatus}
        />
      </div>
      <ListState state={list} count={(d) => d.reports.length} empty={t('tr.none')} />
      {list.data && list.data.reports.length > 0 && (
        <DataTable
          columns={[
            t('tr.reported'),
            t('tr.task'),
            t('tr.reason'),
            t('tr.note'),
            { label: t('tr.reports_on_task'), num: true },
            t('tr.task_status'),
            ...(status === 'decided' ? [t('tr.decision')] : []),
          ]}
        >
          {list.data.reports.map((r) => (
            <tr key={r.report_id} data-testid="task-report">
              <td>{formatDateTime(r.created_at, locale)}</td>
              <td>
                <Link to={`/ops/task-reports/${r.report_id}`}>{r.task_title}</Link>
              </td>
              <td>{t(`tr.reason_${r.reason}`)}</td>
              <td className="plain-text">{clip(r.note)}</td>
              <td className="num">{r.reports_on_task}</td>
              <td>
                <StatusBadge status={r.task_status} />
              </td>
              {status === 'decided' && <td>{r.outcome ? t(`tr.outcome_${r.outcome}`) : '—'}</td>}
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

/** One report, open or decided, however old. */
const findReport = (id: string): Promise<Report> =>
  unwrap(adminApi.GET('/v1/admin/task-reports/{id}', { params: { path: { id } } }));

export function OpsTaskReport() {
  const { t, locale } = useI18n();
  const id = useParams().reportId!;
  const state = useAsync(() => findReport(id), [id]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const back = (
    <p>
      <Link to="/ops/task-reports">← {t('nav.ops_task_reports')}</Link>
    </p>
  );
  if (state.error && !state.data)
    return (
      <>
        {back}
        <ErrorNotice error={state.error} onRetry={() => void state.reload()} />
      </>
    );
  if (!state.data) return <Loading />;
  const r = state.data;
  return (
    <>
      {back}
      <h1>
        {r.task_title} <StatusBadge status={r.task_status} />
      </h1>
      <section className="card" aria-labelledby="tr-report-h">
        <h2 id="tr-report-h">{t('tr.report')}</h2>
        <dl className="pairs">
          <dt>{t('tr.reason')}</dt>
          <dd>{t(`tr.reason_${r.reason}`)}</dd>
          <dt>{t('tr.note')}</dt>
          <dd>
            <blockquote className="plain-text">{r.note}</blockquote>
          </dd>
          <dt>{t('tr.reported')}</dt>
          <dd>{formatDateTime(r.created_at, locale)}</dd>
          <dt>{t('tr.reporter')}</dt>
          <dd>
            <span className="mono">{r.reporter}</span> <span className="muted">{t('tr.reporter_hint')}</span>
          </dd>
          <dt>{t('tr.reports_on_task')}</dt>
          <dd>{r.reports_on_task}</dd>
          <dt>{t('tr.task')}</dt>
          <dd className="mono">{r.task_id}</dd>
          <dt>{t('tr.agent')}</dt>
          <dd>
            <span className="mono">{r.agent_id}</span> · {t(`account.${r.agent_status}` as 'account.active')}
          </dd>
        </dl>
      </section>
      {outcome && <OutcomeNotice outcome={outcome} />}
      {r.status === 'decided' ? (
        <section className="card" aria-labelledby="tr-decided-h" data-testid="task-report-decision">
          <h2 id="tr-decided-h">{t('tr.decision')}</h2>
          <p>
            {r.outcome && t(`tr.outcome_${r.outcome}`)}
            {r.suspend_agent && ` · ${t('tr.agent_suspended')}`}
            {r.decided_at && ` · ${formatDateTime(r.decided_at, locale)}`}
          </p>
          {r.decision_note && <p className="plain-text">{r.decision_note}</p>}
        </section>
      ) : (
        <Decision
          report={r}
          onDone={(o) => {
            setOutcome(o);
            void state.reload();
          }}
        />
      )}
    </>
  );
}

/** What the decision did, from its answer: the refund, how many reports it closed, the suspension. */
function OutcomeNotice({ outcome }: { outcome: Outcome }) {
  const { t, locale } = useI18n();
  return (
    <div className="notice" role="status" data-testid="task-report-outcome">
      <p>
        {outcome.outcome === 'cancel_task'
          ? t('tr.done_cancel', { refund: formatCents(outcome.refund_cents, locale) })
          : t('tr.done_dismiss')}
      </p>
      <p>
        {t('tr.done_closed', { n: outcome.decided_report_ids.length })}
        {outcome.agent_suspended && ` ${t('tr.done_suspended')}`}
      </p>
    </div>
  );
}

/**
 * The two 409s of a decision in this page's words: another operator decided first, or the task ended (cancel is no
 * longer possible; dismiss instead). Any other failure as every page shows it.
 */
function DecisionError({ action }: { action: Action }) {
  const { t } = useI18n();
  if (!action.error) return null;
  const error = toApiError(action.error);
  if (error.code !== 'invalid_state') return <ActionError action={action} />;
  const status = typeof error.extra.current_status === 'string' ? error.extra.current_status : '';
  return (
    <div className="error" role="alert">
      <p className="error-words">
        {status === 'decided'
          ? t('tr.error_decided')
          : t('tr.task_ended', { status: t(`status.${status}` as 'status.cancelled') })}
      </p>
    </div>
  );
}

/**
 * Cancel the task with a full refund, or dismiss; either may also suspend the agent; a note for the audit log. Both
 * ask again first: the decision is final and closes every open report of the task.
 */
function Decision({ report, onDone }: { report: Report; onDone: (o: Outcome) => void }) {
  const { t } = useI18n();
  const live = LIVE.includes(report.task_status);
  const [outcome, setOutcome] = useState<(typeof OUTCOMES)[number]>(live ? 'cancel_task' : 'dismiss');
  const [suspend, setSuspend] = useState(false);
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const send = async () => {
    const answer = await unwrap(
      adminApi.POST('/v1/admin/task-reports/{id}/decision', {
        params: { path: { id: report.report_id } },
        body: { outcome, note: note.trim(), ...(suspend ? { suspend_agent: true } : {}) },
      }),
    );
    setConfirming(false);
    onDone(answer);
  };
  // The form only opens the confirmation; the request goes on "Yes".
  const submit = (e: FormEvent) => {
    e.preventDefault();
    action.setError(null);
    setConfirming(true);
  };
  const canSuspend = report.agent_status === 'active';
  const cancel = outcome === 'cancel_task';
  return (
    <section className="card" aria-labelledby="tr-decide-h">
      <h2 id="tr-decide-h">{t('tr.decide')}</h2>
      {!live && (
        <p className="notice">
          {t('tr.task_ended', { status: t(`status.${report.task_status}` as 'status.cancelled') })}
        </p>
      )}
      <form onSubmit={submit} aria-labelledby="tr-decide-h">
        <Radios
          legend={t('tr.outcome')}
          name="tr-outcome"
          value={outcome}
          options={live ? OUTCOMES : (['dismiss'] as const)}
          optionLabel={(o) => t(`tr.choose_${o}`)}
          onChange={(o) => {
            setOutcome(o);
            setConfirming(false);
          }}
        />
        {canSuspend && (
          <label className="choice">
            <input
              type="checkbox"
              checked={suspend}
              onChange={(e) => {
                setSuspend(e.target.checked);
                setConfirming(false);
              }}
            />
            {t('tr.suspend')}
          </label>
        )}
        <TextBox
          id="tr-note"
          label={t('tr.decision_note')}
          required
          maxLength={2000}
          rows={3}
          value={note}
          onChange={setNote}
        />
        <DecisionError action={action} />
        {!confirming && (
          <p>
            <button type="submit" className={cancel ? 'danger' : ''} disabled={action.busy || !note.trim()}>
              {t(cancel ? 'tr.submit_cancel' : 'tr.submit_dismiss')}
            </button>
          </p>
        )}
      </form>
      {confirming && (
        <div role="alertdialog" aria-labelledby="tr-confirm-h" className="confirm">
          <p id="tr-confirm-h">
            {t(cancel ? 'tr.confirm_cancel' : 'tr.confirm_dismiss', {
              title: report.task_title,
              n: report.reports_on_task,
            })}
            {suspend && ` ${t('tr.confirm_suspend')}`}
          </p>
          <div className="row">
            <ConfirmButtons
              action={action}
              onConfirm={send}
              confirm={t(cancel ? 'tr.confirm_yes_cancel' : 'tr.confirm_yes_dismiss')}
              onCancel={() => setConfirming(false)}
              cancel={t('common.cancel')}
            />
          </div>
        </div>
      )}
    </section>
  );
}
