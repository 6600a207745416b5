import type { Schemas } from './api';
import { formatDateTime } from './i18n';
import type { Locale } from './locale';

type Message = Schemas['MessageView'];

/**
 * A thread's messages between a worker and an agent, oldest first: who wrote each and when, and the words as plain
 * text (a person's words are data, never markup). The reader's own side (`mine`) stands at the end of the line.
 */
export function MessageList(props: {
  messages: readonly Message[];
  mine: Message['from'];
  from: (message: Message) => string;
  locale: Locale;
  label: string;
}) {
  return (
    <ol className="messages" aria-label={props.label}>
      {props.messages.map((m) => (
        <li key={m.message_id} className={m.from === props.mine ? 'mine' : 'theirs'}>
          <span className="muted">
            {props.from(m)} · {formatDateTime(m.created_at, props.locale)}
          </span>
          <p className="body">{m.body}</p>
        </li>
      ))}
    </ol>
  );
}
