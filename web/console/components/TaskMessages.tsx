import { useState } from 'react';
import { TextBox } from '../../shared/fields';
import { unwrap } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { MessageList } from '../../shared/message-list';
import { Empty, ErrorNotice, Loading } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { useLiveEvents } from '../hooks';
import { useI18n } from '../i18n';
import { agentApi } from '../session';

/** The body's limit on the server (product-decisions §19). */
const MAX_BODY = 2000;

/**
 * The task's message threads (GET /v1/tasks/{id}/messages), one per assignment whose worker accepted, each with what
 * is unread; a `message.created` of this task reloads them. Opening a thread reads it (which marks it read) and offers
 * the box to write to that worker.
 */
export function TaskMessages({ taskId }: { taskId: string }) {
  const { t, locale } = useI18n();
  const threads = useAsync(
    () => unwrap(agentApi.GET('/v1/tasks/{task_id}/messages', { params: { path: { task_id: taskId } } })),
    [taskId],
  );
  const [open, setOpen] = useState<string | null>(null);
  useLiveEvents(
    (e) => e.name === 'message.created' && e.payload?.task_id === taskId,
    () => void threads.reload(),
  );
  const list = threads.data?.threads ?? [];
  return (
    <section aria-labelledby="msgs-h">
      <h2 id="msgs-h">{t('msg.title')}</h2>
      {threads.error ? <ErrorNotice error={threads.error} onRetry={() => void threads.reload()} /> : null}
      {!threads.data && threads.loading && <Loading />}
      {threads.data && list.length === 0 && <Empty>{t('msg.none')}</Empty>}
      {list.map((th) => (
        <article key={th.assignment_id} className="card thread" aria-labelledby={`th-${th.assignment_id}`}>
          <div className="row spread">
            <h3 id={`th-${th.assignment_id}`}>
              {t('detail.worker', { id: th.worker_id.slice(0, 8) })}{' '}
              {th.unread_count > 0 && (
                <span className="badge warn">{t('msg.unread', { n: th.unread_count })}</span>
              )}
            </h3>
            <button
              type="button"
              className="secondary"
              aria-expanded={open === th.assignment_id}
              aria-controls={`thread-${th.assignment_id}`}
              onClick={() => setOpen(open === th.assignment_id ? null : th.assignment_id)}
            >
              {open === th.assignment_id ? t('msg.close') : t('msg.open', { n: th.message_count })}
            </button>
          </div>
          {th.last_message && open !== th.assignment_id && (
            <p className="muted plain-text">
              {t(`msg.from.${th.last_message.from}`)} · {formatDateTime(th.last_message.created_at, locale)}:{' '}
              {th.last_message.body}
            </p>
          )}
          {open === th.assignment_id && (
            <Thread taskId={taskId} assignmentId={th.assignment_id} onRead={() => void threads.reload()} />
          )}
        </article>
      ))}
    </section>
  );
}

/** One thread's messages, oldest first, shown as plain text (a worker's words are data), and the box to answer. */
function Thread(props: { taskId: string; assignmentId: string; onRead: () => void }) {
  const { t, locale } = useI18n();
  const { taskId, assignmentId, onRead } = props;
  const thread = useAsync(async () => {
    const answer = await unwrap(
      agentApi.GET('/v1/tasks/{task_id}/messages', {
        params: { path: { task_id: taskId }, query: { assignment_id: assignmentId } },
      }),
    );
    onRead(); // reading marked them read: the unread badge is read again
    return answer.messages ?? [];
  }, [taskId, assignmentId]);
  useLiveEvents(
    (e) => e.name === 'message.created' && e.payload?.data?.assignment_id === assignmentId,
    () => void thread.reload(),
  );
  const [body, setBody] = useState('');
  const sending = useAction();
  const send = sending.onSubmit(async () => {
    await unwrap(
      agentApi.POST('/v1/tasks/{task_id}/messages', {
        params: { path: { task_id: taskId } },
        body: { assignment_id: assignmentId, body: body.trim() },
      }),
    );
    setBody('');
    await thread.reload();
  });
  const messages = thread.data ?? [];
  const boxId = `reply-${assignmentId}`;
  return (
    <div id={`thread-${assignmentId}`}>
      {thread.error ? <ErrorNotice error={thread.error} onRetry={() => void thread.reload()} /> : null}
      {!thread.data && thread.loading && <Loading />}
      {thread.data && messages.length === 0 && <p className="muted">{t('msg.empty')}</p>}
      <MessageList
        messages={messages}
        mine="agent"
        from={(m) => t(`msg.from.${m.from}`)}
        locale={locale}
        label={t('msg.title')}
      />
      <form onSubmit={send}>
        <TextBox
          id={boxId}
          label={t('msg.write')}
          maxLength={MAX_BODY}
          value={body}
          onChange={setBody}
          hint={t('msg.hint')}
        />
        {sending.error ? <ErrorNotice error={sending.error} /> : null}
        <div className="row">
          <button type="submit" disabled={sending.busy || !body.trim()}>
            {t('msg.send')}
          </button>
        </div>
      </form>
    </div>
  );
}
