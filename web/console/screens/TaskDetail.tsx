import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { taskFeedbackRequestReason_codeValues as REASONS } from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { ApiError } from '../../shared/errors';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { formatCents } from '../../shared/money';
import { Empty, ErrorNotice, Loading, ReloadButton } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useLiveEvents } from '../hooks';
import { agentApi } from '../session';
import { Radios } from '../../shared/fields';
import { isSkill } from '../task-draft';
import { useAction } from '../../shared/use-action';
import { StatusBadge } from '../../shared/StatusBadge';
import { ActionButton, ActionError } from '../../shared/action-ui';

type Task = Schemas['TaskStatusResponse'];
type Submission = Schemas['SubmissionView'];
type Verification = Schemas['PhotoVerification'];
interface TimelineItem {
  at: string;
  what: string;
  detail?: string;
}
interface ListedEvent {
  event: string;
  event_id: string;
  task_id?: string | null;
  timestamp: string;
  data?: { status?: string; previous_status?: string; refund_cents?: number };
}

/** Events read for a timeline (pages of 100, newest first): a task has a few dozen at most. */
const EVENT_PAGES = 5;

/** The task's events (GET /v1/agent/events?task_id=), plus the per-assignment times of the task itself. */
async function timeline(task: Task): Promise<TimelineItem[]> {
  const items: TimelineItem[] = [{ at: task.created_at, what: 'timeline.created' }];
  let cursor: string | undefined;
  for (let page = 0; page < EVENT_PAGES; page++) {
    const list = await unwrap(
      agentApi.GET('/v1/agent/events', {
        params: {
          query: { task_id: task.task_id, limit: 100, ...(cursor ? { starting_after: cursor } : {}) },
        },
      }),
    );
    for (const e of list.data as unknown as ListedEvent[]) {
      items.push({
        at: e.timestamp,
        what: `event.${e.event}`,
        detail:
          e.data?.previous_status && e.data.status
            ? `${e.data.previous_status} → ${e.data.status}`
            : undefined,
      });
    }
    if (!list.has_more || !list.next_cursor) break;
    cursor = list.next_cursor;
  }
  for (const a of task.assignments) {
    // Until a worker accepts, the API names them by a pseudonym of this task (`anon_` + 16 hex), not their id.
    const named = !a.worker_id.startsWith('anon_');
    const worker = a.worker_id.slice(0, named ? 8 : 13);
    const assigned = named ? 'timeline.assigned' : 'timeline.offered';
    if (a.assigned_at) items.push({ at: a.assigned_at, what: assigned, detail: worker });
    if (a.submitted_at) items.push({ at: a.submitted_at, what: 'timeline.submitted', detail: worker });
    if (a.reviewed_at) items.push({ at: a.reviewed_at, what: `timeline.${a.status}`, detail: worker });
  }
  return items.sort((x, y) => x.at.localeCompare(y.at));
}

async function loadResult(taskId: string) {
  try {
    return await unwrap(
      agentApi.GET('/v1/tasks/{task_id}/result', { params: { path: { task_id: taskId } } }),
    );
  } catch (err) {
    // Before any submission the API answers 404 result_not_available: no submissions yet, not a failure.
    if (err instanceof ApiError && err.code === 'result_not_available') return null;
    throw err;
  }
}

export function TaskDetail() {
  const { t, has, locale } = useI18n();
  const taskId = useParams().taskId!;
  const state = useAsync(async () => {
    const task = await unwrap(agentApi.GET('/v1/tasks/{task_id}', { params: { path: { task_id: taskId } } }));
    // The result answers 404 until something is submitted: ask only when an assignment has been.
    const submittedOnce = task.assignments.some((a) => a.submitted_at);
    const [result, events] = await Promise.all([
      submittedOnce ? loadResult(taskId) : Promise.resolve(null),
      timeline(task),
    ]);
    return { task, result, events };
  }, [taskId]);
  useLiveEvents(
    (e) => e.payload?.task_id === taskId,
    () => void state.reload(),
  );
  if (state.error && !state.data)
    return <ErrorNotice error={state.error} onRetry={() => void state.reload()} />;
  if (!state.data) return <Loading />;
  const { task, result, events } = state.data;
  const money = (c: number) => formatCents(c, locale);
  const submissions = result?.submissions ?? [];
  return (
    <>
      <p>
        <Link to="/tasks">← {t('nav.tasks')}</Link>
      </p>
      <div className="row spread">
        <h1>
          {task.title} <StatusBadge status={task.status} />
        </h1>
        <ReloadButton state={state}>{t('common.refresh')}</ReloadButton>
      </div>
      {state.error ? <ErrorNotice error={state.error} onRetry={() => void state.reload()} /> : null}
      <div className="two-col">
        <section className="card" aria-labelledby="facts-h">
          <h2 id="facts-h">{t('detail.facts')}</h2>
          <p>{task.description}</p>
          <dl className="pairs">
            <dt>{t('col.type')}</dt>
            <dd>{t(`type.${task.task_type}`)}</dd>
            <dt>{t('detail.place')}</dt>
            <dd>
              {task.location.address ? `${task.location.address} · ` : ''}
              <span className="mono">
                {task.location.latitude}, {task.location.longitude}
              </span>
            </dd>
            <dt>{t('col.budget')}</dt>
            <dd>
              {money(task.budget_cents)} × {task.max_workers} = {money(task.cost_breakdown.total_cents)} (
              {t('detail.fee', { fee: money(task.cost_breakdown.platform_fee_cents) })})
            </dd>
            <dt>{t('detail.progress')}</dt>
            <dd>
              {t('detail.progress_value', {
                assigned: task.progress.assigned_workers,
                completed: task.progress.completed_workers,
                max: task.progress.max_workers,
              })}
            </dd>
            <dt>{t('col.deadline')}</dt>
            <dd>{formatDateTime(task.deadline_at, locale)}</dd>
            <dt>{t('create.skills')}</dt>
            <dd>
              {(task.requirements.skills ?? []).map((s) => (isSkill(s) ? t(`skill.${s}`) : s)).join(', ') ||
                '—'}
            </dd>
            <dt>{t('create.proof')}</dt>
            <dd>{t(`proof.${task.requirements.location_proof ?? 'photo_gps'}`)}</dd>
          </dl>
          <CancelTask task={task} onDone={() => void state.reload()} />
        </section>
        <section className="card" aria-labelledby="timeline-h">
          <h2 id="timeline-h">{t('detail.timeline')}</h2>
          <ol className="timeline">
            {events.map((e, i) => (
              <li key={`${e.at}-${i}`}>
                <time dateTime={e.at}>{formatDateTime(e.at, locale)}</time>{' '}
                <span>{has(e.what) ? t(e.what) : e.what.replace(/^event\./, '')}</span>
                {e.detail && <span className="muted"> · {e.detail}</span>}
              </li>
            ))}
          </ol>
        </section>
      </div>
      <section aria-labelledby="subs-h">
        <h2 id="subs-h">{t('detail.submissions')}</h2>
        {submissions.length === 0 && <Empty>{t('detail.no_submissions')}</Empty>}
        {submissions.map((s) => (
          <SubmissionCard key={s.assignment_id} submission={s} onDone={() => void state.reload()} />
        ))}
      </section>
    </>
  );
}

function VerificationList({ v }: { v: Verification }) {
  const { t, locale } = useI18n();
  const near = v.distance_meters <= 100;
  return (
    <dl className="pairs verification">
      <dt>{t('verify.distance')}</dt>
      <dd>
        <span className={`badge ${near ? 'ok' : 'bad'}`}>{t('verify.metres', { m: v.distance_meters })}</span>
      </dd>
      <dt>{t('verify.source')}</dt>
      <dd>
        {t(`verify.source_${v.location_source}`)}
        {v.accuracy_m != null ? ` (± ${Math.round(v.accuracy_m)} m)` : ''}
      </dd>
      <dt>{t('verify.taken_at')}</dt>
      <dd>
        {v.taken_at && `${formatDateTime(v.taken_at, locale)} `}
        <CaptureBadge during={v.taken_during_assignment} />
      </dd>
      <dt>{t('verify.reuse')}</dt>
      <dd>
        {v.reused ? (
          <span className="badge bad">
            {t('verify.reused', {
              n: v.earlier_submissions,
              at: formatDateTime(v.first_submitted_at, locale),
            })}
          </span>
        ) : (
          <span className="badge ok">{t('verify.fresh')}</span>
        )}
      </dd>
    </dl>
  );
}

/**
 * Whether the photo was taken while the worker held the assignment. No capture time (a photo without EXIF time and no
 * device fix) is its own case, not "outside": the API answers null then, and nothing says the photo is old.
 */
function CaptureBadge({ during }: { during: boolean | null }) {
  const { t } = useI18n();
  if (during === null) return <span className="badge">{t('verify.no_time')}</span>;
  return (
    <span className={`badge ${during ? 'ok' : 'warn'}`}>
      {t(during ? 'verify.during' : 'verify.not_during')}
    </span>
  );
}

function SubmissionCard({ submission: s, onDone }: { submission: Submission; onDone: () => void }) {
  const { t, locale } = useI18n();
  return (
    <article className="card submission" aria-labelledby={`sub-${s.assignment_id}`} data-testid="submission">
      <div className="row spread">
        <h3 id={`sub-${s.assignment_id}`}>
          {t('detail.worker', { id: s.worker_id.slice(0, 8) })} <StatusBadge status={s.status} />
        </h3>
        <span className="muted">{formatDateTime(s.submitted_at, locale)}</span>
      </div>
      {s.reason_code && <p>{t('detail.rejected_for', { reason: t(`reason.${s.reason_code}`) })}</p>}
      <div className="photos">
        {s.photos.map((p) => {
          const v = p.verification;
          return (
            <figure key={p.url} className="photo">
              <a href={p.url} target="_blank" rel="noopener noreferrer">
                <img src={p.url} alt={t('detail.photo_alt', { at: formatDateTime(p.taken_at, locale) })} />
              </a>
              <figcaption>{v ? <VerificationList v={v} /> : t('verify.none')}</figcaption>
            </figure>
          );
        })}
      </div>
      {Object.keys(s.data ?? {}).length > 0 && (
        <section className="answer" aria-labelledby={`answer-${s.assignment_id}`}>
          <h4 id={`answer-${s.assignment_id}`}>{t('detail.data')}</h4>
          <pre className="mono">{JSON.stringify(s.data, null, 2)}</pre>
        </section>
      )}
      {s.worker_notes && (
        <p>
          <strong>{t('detail.notes')}</strong> {s.worker_notes}
        </p>
      )}
      {s.status === 'submitted' && <Review assignmentId={s.assignment_id} onDone={onDone} />}
    </article>
  );
}

const VERDICTS = ['approve', 'reject'] as const;

/** Approve (rating and quality required) or reject (a reason required, rating optional) one submission. */
function Review(props: { assignmentId: string; onDone: () => void }) {
  const { t } = useI18n();
  const taskId = useParams().taskId!;
  const [verdict, setVerdict] = useState<(typeof VERDICTS)[number]>('approve');
  const [rating, setRating] = useState('5');
  const [quality, setQuality] = useState('5');
  const [reason, setReason] = useState<(typeof REASONS)[number]>('poor_quality');
  const [text, setText] = useState('');
  const action = useAction();
  const id = props.assignmentId;
  const submit = action.onSubmit(async () => {
    const accept = verdict === 'approve';
    await unwrap(
      agentApi.POST('/v1/tasks/{task_id}/feedback', {
        params: { path: { task_id: taskId } },
        body: {
          assignment_id: id,
          accept_result: accept,
          ...(accept || rating ? { rating: Number(rating) } : {}),
          ...(accept ? { quality_score: Number(quality) } : { reason_code: reason }),
          ...(text.trim() ? { feedback_text: text.trim() } : {}),
        },
      }),
    );
    props.onDone();
  });
  return (
    <form className="review" onSubmit={submit} aria-label={t('review.title')}>
      <Radios
        legend={t('review.title')}
        name={`v-${id}`}
        value={verdict}
        options={VERDICTS}
        optionLabel={(v) => t(`review.${v}`)}
        onChange={setVerdict}
      />
      <div className="grid3">
        <div>
          <label htmlFor={`rating-${id}`}>
            {t(verdict === 'approve' ? 'review.rating' : 'review.rating_optional')}
          </label>
          <select id={`rating-${id}`} value={rating} onChange={(e) => setRating(e.target.value)}>
            {verdict === 'reject' && <option value="">—</option>}
            {[5, 4, 3, 2, 1].map((n) => (
              <option key={n} value={n}>
                {'★'.repeat(n)} {n}
              </option>
            ))}
          </select>
        </div>
        {verdict === 'approve' ? (
          <div>
            <label htmlFor={`quality-${id}`}>{t('review.quality')}</label>
            <input
              id={`quality-${id}`}
              type="number"
              min={0}
              max={5}
              step={0.1}
              required
              value={quality}
              onChange={(e) => setQuality(e.target.value)}
            />
          </div>
        ) : (
          <div>
            <label htmlFor={`reason-${id}`}>{t('review.reason')}</label>
            <select
              id={`reason-${id}`}
              value={reason}
              onChange={(e) => setReason(e.target.value as typeof reason)}
            >
              {REASONS.map((r) => (
                <option key={r} value={r}>
                  {t(`reason.${r}`)}
                </option>
              ))}
            </select>
          </div>
        )}
        <div>
          <label htmlFor={`text-${id}`}>{t('review.text')}</label>
          <input id={`text-${id}`} maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
      </div>
      <ActionError action={action} />
      <p>
        <button type="submit" className={verdict === 'reject' ? 'danger' : ''} disabled={action.busy}>
          {t(verdict === 'approve' ? 'review.submit_approve' : 'review.submit_reject')}
        </button>
      </p>
    </form>
  );
}

/**
 * Cancel, with the refund shown before confirming. The per-slot numbers come from the API's own refund policy (a
 * quote of this task's body: the policy depends on the budget only): an open slot refunds in full, a slot a worker
 * has accepted refunds the cancel_assigned share and pays the worker the rest. The answer's real figures replace the
 * preview afterwards.
 */
function CancelTask({ task, onDone }: { task: Task; onDone: () => void }) {
  const { t, locale } = useI18n();
  const money = (c: number) => formatCents(c, locale);
  const [preview, setPreview] = useState<{ refund: number; workers: number } | null>(null);
  const [done, setDone] = useState<Schemas['CancelTaskResponse'] | null>(null);
  const action = useAction();
  const cancellable =
    (task.status === 'pending' || task.status === 'assigned') &&
    !task.assignments.some((a) => a.status === 'submitted');
  if (done) {
    return (
      <p className="notice" role="status">
        {t('cancel.done', {
          refund: money(done.refund_cents),
          workers: money(done.worker_compensation_cents),
        })}
      </p>
    );
  }
  if (!cancellable) return null;
  const showPreview = async () => {
    const quote = await unwrap(
      agentApi.POST('/v1/tasks/quote', {
        body: {
          title: task.title,
          description: task.description,
          task_type: task.task_type,
          location: {
            latitude: task.location.latitude,
            longitude: task.location.longitude,
            max_distance_meters: task.location.max_distance_meters,
          },
          budget_cents: task.budget_cents,
          max_workers: task.max_workers,
          deadline_at: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
    );
    const holding = task.assignments.filter((a) => a.status === 'accepted').length;
    const settled = task.assignments.filter((a) => a.status === 'approved' || a.status === 'rejected').length;
    const open = task.max_workers - holding - settled;
    const split = quote.refund_policy.cancel_assigned;
    setPreview({
      refund: open * task.budget_cents + holding * split.refund_cents_per_slot,
      workers: holding * split.worker_cents_per_slot,
    });
  };
  const confirm = async () => {
    setDone(
      await unwrap(
        agentApi.POST('/v1/tasks/{task_id}/cancel', { params: { path: { task_id: task.task_id } } }),
      ),
    );
    onDone();
  };
  return (
    <div className="cancel">
      <ActionError action={action} />
      {!preview ? (
        <ActionButton action={action} className="secondary" onClick={showPreview}>
          {t('cancel.button')}
        </ActionButton>
      ) : (
        <div role="alertdialog" aria-labelledby="cancel-h" className="confirm">
          <p id="cancel-h">
            {t('cancel.preview', { refund: money(preview.refund), workers: money(preview.workers) })}
          </p>
          <div className="row">
            <ActionButton action={action} className="danger" onClick={confirm}>
              {t('cancel.confirm')}
            </ActionButton>
            <button type="button" className="secondary" onClick={() => setPreview(null)}>
              {t('cancel.keep')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
