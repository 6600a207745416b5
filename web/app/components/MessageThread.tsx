import { useCallback, useEffect, useState } from 'react';
import { TextBox } from '../../shared/fields';
import { MessageList } from '../../shared/message-list';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { useWords } from '../messages';
import { loadThread, sendMessage, unread } from '../threads';
import { liveEvents } from './Frame';

/** The body's limit on the server (product-decisions §19). */
const MAX_BODY = 2000;

/**
 * The messages between the worker and the agent about one assignment: oldest first, who wrote each and when, and a
 * box to write (a question about a vague brief). Bodies are shown as plain text, never as markup. Opening the thread
 * reads it (the server marks it read), so the unread badges are read again; a `message.created` about this
 * assignment reloads it.
 */
export function MessageThread({ assignmentId }: { assignmentId: string }) {
  const { t, locale } = useWords();
  const thread = useAsync(async () => {
    const messages = await loadThread(assignmentId);
    void unread.load().catch(() => undefined); // the badge catches up at the next event otherwise
    return messages;
  }, [assignmentId]);
  const [body, setBody] = useState('');
  const sending = useAction();
  const reload = thread.reload;
  useEffect(() => {
    const onEvent = (e: Event) => {
      const { name, payload } = (e as CustomEvent<{ name: string; payload: unknown }>).detail;
      const data = (payload as { data?: { assignment_id?: string } } | null)?.data;
      if (name === 'message.created' && data?.assignment_id === assignmentId) void reload();
    };
    liveEvents.addEventListener('event', onEvent);
    return () => liveEvents.removeEventListener('event', onEvent);
  }, [assignmentId, reload]);
  const send = useCallback(async () => {
    await sendMessage(assignmentId, body.trim());
    setBody('');
    await reload();
  }, [assignmentId, body, reload]);
  const messages = thread.data ?? [];
  return (
    <section className="card thread" aria-labelledby="thread-title">
      <h2 id="thread-title">{t('msg.title')}</h2>
      {thread.error ? <ErrorNotice error={thread.error} onRetry={() => void reload()} /> : null}
      {!thread.data && thread.loading && <Loading />}
      {thread.data && messages.length === 0 && <p className="muted">{t('msg.empty')}</p>}
      {messages.length > 0 && (
        <MessageList
          messages={messages}
          mine="worker"
          from={(m) => t(`msg.from.${m.from}`)}
          locale={locale}
          label={t('msg.title')}
        />
      )}
      <form onSubmit={sending.onSubmit(send)}>
        <TextBox
          id="message-body"
          label={t('msg.write')}
          maxLength={MAX_BODY}
          value={body}
          onChange={setBody}
          hint={t('msg.hint')}
        />
        {sending.error ? <ErrorNotice error={sending.error} /> : null}
        <div className="actions one">
          <button type="submit" className="secondary" disabled={sending.busy || !body.trim()}>
            {t('msg.send')}
          </button>
        </div>
      </form>
    </section>
  );
}
