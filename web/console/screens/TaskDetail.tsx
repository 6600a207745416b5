import { Link, useParams } from 'react-router';
import { unwrap, type Schemas } from '../../shared/api';
import { ApiError } from '../../shared/errors';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { formatCents } from '../../shared/money';
import { Empty, ErrorNotice, Loading, ReloadButton } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useLiveEvents } from '../hooks';
import { agentApi } from '../session';
import { CancelTask } from '../components/CancelTask';
import { SubmissionCard } from '../components/SubmissionCard';
import { AnswersTable } from '../components/AnswersTable';
import { TaskMessages } from '../components/TaskMessages';
import { TaskDisputes } from '../components/TaskDisputes';
import { isSkill } from '../task-draft';
import { StatusBadge } from '../../shared/StatusBadge';

type Task = Schemas['TaskStatusResponse'];
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
      {/* Only a rejection can be disputed: no read for a task without one. */}
      {task.assignments.some((a) => a.status === 'rejected') && <TaskDisputes taskId={taskId} />}
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
      {task.answer_schema && <AnswersTable schema={task.answer_schema} submissions={submissions} />}
      <section aria-labelledby="subs-h">
        <h2 id="subs-h">{t('detail.submissions')}</h2>
        {submissions.length === 0 && <Empty>{t('detail.no_submissions')}</Empty>}
        {submissions.map((s) => (
          <SubmissionCard key={s.assignment_id} submission={s} onDone={() => void state.reload()} />
        ))}
      </section>
      {/* A thread opens when a worker accepts (until then the API names the offer's worker by a pseudonym). */}
      {task.assignments.some((a) => !a.worker_id.startsWith('anon_')) && <TaskMessages taskId={taskId} />}
    </>
  );
}
