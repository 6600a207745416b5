import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap } from '../../shared/api';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { useAction } from '../../shared/use-action';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { AbandonTask } from '../components/AbandonTask';
import { ReportTask } from '../components/ReportTask';
import { liveEvents } from '../components/Frame';
import { RateAgent } from '../components/RateAgent';
import { StatusBadge } from '../../shared/StatusBadge';
import { SubmitForm } from '../components/SubmitForm';
import { UnableReport } from '../components/UnableReport';
import { MessageThread } from '../components/MessageThread';
import { DisputeSection } from '../components/DisputeSection';
import { formFields } from '../../shared/answer-form';
import { AnswerForm } from '../components/AnswerForm';
import { dropDraft } from '../answer-draft';
import { formatDistance, labelled } from '../format';
import { type AssignmentDetail, concerns, loadAssignment, type MyTask } from '../my-tasks';
import { api } from '../session';
import { Place } from './TaskPage';
import { Standing } from '../components/Standing';

/** The assignment statuses in which the worker is still doing the task (and may keep a draft of answers). */
const LIVE: ReadonlySet<string> = new Set(['accepted', 'in_progress']);

/**
 * One assignment: where and by when, then what can be done in its state: start, submit (from accepted or in
 * progress), report that it could not be done (beside submitting, asking first) and, at the end and asking first,
 * abandon; the verdict with the rejection's reason, and rating the agent
 * once the task is completed. Live events about it (an approval, a rejection, a cancellation) reload it.
 */
export function Assignment() {
  const { t, locale } = useWords();
  const { assignmentId = '' } = useParams();
  const item = useAsync(() => loadAssignment(assignmentId), [assignmentId]);
  const starting = useAction();
  /** The submission's answer (the photo's distance), kept while the reloaded assignment shows it submitted. */
  const [submitted, setSubmitted] = useState<string | null>(null);
  const reload = item.reload;
  const task = item.data;
  useEffect(() => {
    const onEvent = (e: Event) => {
      const { payload } = (e as CustomEvent<{ payload: unknown }>).detail;
      if (task && concerns(payload, task)) void reload();
    };
    liveEvents.addEventListener('event', onEvent);
    return () => liveEvents.removeEventListener('event', onEvent);
  }, [task, reload]);
  // A draft of answers is for a live assignment only: once it is abandoned, expired, cancelled or sent, its answers
  // (and their photos, kept as Blobs) are not left on the phone.
  const ended = task ? !LIVE.has(task.status) : false;
  useEffect(() => {
    if (ended) void dropDraft(assignmentId).catch(() => undefined);
  }, [ended, assignmentId]);
  const start = async () => {
    await unwrap(
      api.POST('/v1/worker/assignments/{assignment_id}/start', {
        params: { path: { assignment_id: assignmentId } },
      }),
    );
    await reload();
  };
  const onSubmitted = useCallback(
    (note: string) => {
      setSubmitted(note);
      void reload();
    },
    [reload],
  );
  return (
    <main className="screen">
      <Link to="/mine">← {t('task.back')}</Link>
      {item.error ? <ErrorNotice error={item.error} onRetry={() => void reload()} /> : null}
      {!task && item.loading && <Loading />}
      {task && (
        <article>
          <div className="topbar">
            <h1>{task.title}</h1>
            <StatusBadge status={task.status} />
          </div>
          <div className="meta">
            <span className="pay">{formatCents(task.payment_cents, locale)}</span>
            <span>{t('tasks.deadline', { time: formatDateTime(task.deadline_at, locale) })}</span>
          </div>
          <p className="muted">{t(`task.proof.${task.location_proof}`)}</p>
          {task.description && <p>{task.description}</p>}
          {task.location && <Place location={task.location} label={task.title} />}
          <ActionError action={starting} />
          {task.status === 'accepted' && (
            <div className="actions one">
              <ActionButton action={starting} onClick={start}>
                {t('work.start')}
              </ActionButton>
            </div>
          )}
          {LIVE.has(task.status) && (
            <>
              {task.answer_schema ? (
                <AnswerForm task={task} onSubmitted={onSubmitted} />
              ) : (
                <SubmitForm task={task} onSubmitted={onSubmitted} />
              )}
              <UnableReport assignmentId={task.assignment_id} onReported={onSubmitted} />
              <AbandonTask assignmentId={task.assignment_id} onAbandoned={reload} />
            </>
          )}
          {task.status === 'submitted' && (
            <p className="notice" role="status">
              {submitted ?? t('work.submitted_plain')}
            </p>
          )}
          {task.status === 'submitted' && <Held task={task} />}
          {task.submission && <Submission task={task} />}
          <Verdict task={task} />
          {task.status === 'rejected' && <DisputeSection task={task} version={item.data} onOpened={reload} />}
          {/* An offer never accepted has no thread (the API answers 409). */}
          {task.accepted_at && <MessageThread assignmentId={task.assignment_id} />}
          <ReportTask taskId={task.task_id} />
          {task.status === 'approved' && task.task_status === 'completed' && (
            <RateAgent taskId={task.task_id} />
          )}
        </article>
      )}
    </main>
  );
}

/**
 * A submission whose photos were high risk is held for a person (product-decisions §18): the worker reads why, each
 * signal in words, and that no machine rejects it, until the agent or an operator has decided or cleared it.
 */
function Held({ task }: { task: AssignmentDetail }) {
  const { t } = useWords();
  if (!task.submission?.review_required) return null;
  const photos = task.submission.photos;
  const codes = [...new Set(photos.flatMap((p) => p.verification?.signals.map((s) => s.code) ?? []))];
  return (
    <section className="card held" aria-labelledby="held" data-testid="held">
      <h2 id="held">{t('held.title')}</h2>
      <p>{t('held.why')}</p>
      <ul>
        {codes.map((c) => (
          <li key={c}>{t(`signal.${c}`)}</li>
        ))}
      </ul>
    </section>
  );
}

/** What the worker sent: notes and the photos with their distance to the task. */
function Submission({ task }: { task: AssignmentDetail }) {
  const { t, locale } = useWords();
  const sent = task.submission;
  if (!sent) return null;
  return (
    <section className="card" aria-labelledby="submission">
      <h2 id="submission">{t('work.your_submission')}</h2>
      <p className="muted">{formatDateTime(task.submitted_at, locale)}</p>
      {sent.unable_reason && (
        <p>{t('unable.your_report', { reason: t(`unable.reason.${sent.unable_reason}`) })}</p>
      )}
      {task.answer_schema && !sent.unable_reason && <SentAnswers task={task} />}
      {sent.worker_notes && <p>{t('work.your_notes', { text: sent.worker_notes })}</p>}
      {sent.photos.map((photo) => (
        <p key={photo.url}>
          <a href={photo.url} target="_blank" rel="noreferrer">
            {t('work.sent_photo')}
          </a>
          {photo.distance_meters != null &&
            ` · ${t('work.photo_distance', { distance: formatDistance(photo.distance_meters, locale) })}`}
        </p>
      ))}
    </section>
  );
}

/** The typed answers as sent, each under its question (photos are listed below with their distance). */
function SentAnswers({ task }: { task: AssignmentDetail }) {
  const { t } = useWords();
  const data = task.submission?.result_data ?? {};
  const rows = formFields(task.answer_schema).filter((f) => f.kind !== 'photo' && data[f.name] != null);
  return (
    <dl className="answers">
      {rows.map((f) => {
        const v = data[f.name];
        const shown =
          typeof v === 'boolean'
            ? t(v ? 'answer.yes' : 'answer.no')
            : Array.isArray(v)
              ? v.join(', ')
              : typeof v === 'string' || typeof v === 'number'
                ? String(v)
                : JSON.stringify(v);
        return (
          <div key={f.name}>
            <dt>{f.title}</dt>
            <dd>{shown}</dd>
          </div>
        );
      })}
    </dl>
  );
}

/**
 * The verdict: the agent's (its reason, its words, its rating), or an operator's confirmed fraud (product-decisions
 * §18), which says that a person, not the agent, found the photos not genuine, and offers the request for a person to
 * look again; the platform's explanation stored as the rejection's text is not shown as the agent's words.
 */
function Verdict({ task }: { task: MyTask | AssignmentDetail }) {
  const { t, locale } = useWords();
  const review = task.review;
  if (!review) return null;
  const fraud = review.proof_review;
  return (
    <section className="card" aria-labelledby="verdict" data-testid="verdict">
      <h2 id="verdict">
        {labelled(t('work.verdict'), locale)}
        <StatusBadge status={review.decision} />
      </h2>
      {'submission' in task && task.submission?.unable_reason && review.decision === 'approved' && (
        <p>{t('unable.accepted')}</p>
      )}
      {fraud ? (
        <>
          <p>{t('work.fraud_verdict')}</p>
          <p>{t(review.decision === 'rejected' ? 'work.fraud_rejected' : 'work.fraud_paid')}</p>
          {fraud.reversed_at && <p>{t('work.fraud_reversed')}</p>}
        </>
      ) : (
        <>
          {review.reason_code && <p>{t('work.rejection', { reason: t(`reason.${review.reason_code}`) })}</p>}
          {review.feedback_text && <p>{t('work.feedback', { text: review.feedback_text })}</p>}
        </>
      )}
      {review.rating != null && <p>{t('work.rating_received', { rating: review.rating })}</p>}
      <p className="muted">{formatDateTime(task.reviewed_at, locale)}</p>
      {fraud && <Standing assignmentId={task.assignment_id} />}
    </section>
  );
}
