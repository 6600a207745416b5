import { useState } from 'react';
import { TextBox } from '../../shared/fields';
import { Link } from 'react-router';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { ErrorNotice } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { useWords } from '../messages';
import { api } from '../session';

type Standing = Schemas['WorkerReviewsResponse'];
type Request = Schemas['WorkerReviewResponse'];
type Subject = Request['subject'];

/**
 * What was decided about the worker (product-decisions §18): a suspension or withdrawal pause, a submission confirmed
 * as fraud, each in plain words with a way to ask a person to look again (POST /v1/worker/reviews), and what became
 * of each request. Nothing when there is nothing to tell. `assignmentId` narrows it to one submission's confirmed
 * fraud, inside the assignment's verdict card (which says in words what was decided): only the requests and the way
 * to ask. Without it, the whole account, each in a card of its own (the profile).
 */
export function Standing({ assignmentId }: { assignmentId?: string }) {
  const state = useAsync(() => unwrap(api.GET('/v1/worker/reviews')), []);
  if (state.error) return <ErrorNotice error={state.error} onRetry={() => void state.reload()} />;
  const s = state.data;
  if (!s) return null;
  const reload = () => void state.reload();
  const holds = s.fraud_holds.filter((h) => !assignmentId || h.review_id === assignmentId);
  return (
    <>
      {!assignmentId &&
        s.suspensions.map((x) => (
          <Subject
            key={x.suspension_id}
            subject="suspension"
            subjectId={x.suspension_id}
            standing={s}
            onAsked={reload}
            title={x.suspended ? 'standing.suspended' : 'standing.paused'}
            at={x.created_at}
            extra={x.suspended && x.withdrawals_paused ? 'standing.suspended_and_paused' : null}
          />
        ))}
      {holds.map((h) => (
        <Subject
          key={h.review_id}
          subject="fraud_hold"
          subjectId={h.review_id}
          standing={s}
          onAsked={reload}
          title={h.reversed_at ? 'standing.fraud_reversed' : 'standing.fraud'}
          at={h.decided_at}
          link={assignmentId ? undefined : `/mine/${h.review_id}`}
          extra={null}
          inline={!!assignmentId}
        />
      ))}
    </>
  );
}

function Subject(props: {
  subject: Subject;
  subjectId: string;
  standing: Standing;
  onAsked: () => void;
  title: 'standing.suspended' | 'standing.paused' | 'standing.fraud' | 'standing.fraud_reversed';
  at: string;
  extra: 'standing.suspended_and_paused' | null;
  link?: string;
  /** Inside a card that already says what was decided: the requests and the way to ask only. */
  inline?: boolean;
}) {
  const { t, locale } = useWords();
  const requests = props.standing.requests.filter((r) => r.subject_id === props.subjectId);
  const open = requests.find((r) => r.status === 'open');
  const h = `standing-${props.subjectId}`;
  const asking = (
    <>
      {requests
        .filter((r) => r.status === 'decided')
        .map((r) => (
          <p key={r.review_id} className="notice">
            {t(r.outcome === 'reversed' ? 'standing.answer_reversed' : 'standing.answer_upheld', {
              at: formatDateTime(r.decided_at, locale),
            })}
            {r.note && (
              <>
                <br />
                {t('standing.answer_note', { note: r.note })}
              </>
            )}
          </p>
        ))}
      {open ? (
        <p className="notice" role="status" data-testid="review-open">
          {t('standing.request_open', { at: formatDateTime(open.created_at, locale) })}
        </p>
      ) : (
        props.title !== 'standing.fraud_reversed' && (
          <AskAgain subject={props.subject} subjectId={props.subjectId} onAsked={props.onAsked} />
        )
      )}
    </>
  );
  if (props.inline) return <div data-testid="standing">{asking}</div>;
  return (
    <section className="card standing" aria-labelledby={h} data-testid="standing">
      <h2 id={h}>{t(props.title)}</h2>
      <p>{t(`${props.title}_why`)}</p>
      {props.extra && <p>{t(props.extra)}</p>}
      <p className="muted">
        {formatDateTime(props.at, locale)}
        {props.link && (
          <>
            {' · '}
            <Link to={props.link}>{t('standing.see_task')}</Link>
          </>
        )}
      </p>
      {asking}
    </section>
  );
}

/** The request for a person to look again: a statement, sent once per subject while it is open. */
function AskAgain(props: { subject: Subject; subjectId: string; onAsked: () => void }) {
  const { t } = useWords();
  const [statement, setStatement] = useState('');
  const [asking, setAsking] = useState(false);
  const { busy, error, onSubmit } = useAction();
  const id = `ask-${props.subjectId}`;
  const send = onSubmit(async () => {
    await unwrap(
      api.POST('/v1/worker/reviews', {
        body: { subject: props.subject, subject_id: props.subjectId, statement: statement.trim() },
      }),
    );
    props.onAsked();
  });
  if (!asking) {
    return (
      <div className="actions one">
        <button type="button" className="secondary" onClick={() => setAsking(true)}>
          {t('standing.ask')}
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={send} aria-label={t('standing.ask')}>
      <TextBox
        id={id}
        label={t('standing.statement')}
        required
        autoFocus
        maxLength={2000}
        rows={4}
        value={statement}
        onChange={setStatement}
        hint={t('standing.statement_hint')}
      />
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions">
        <button type="submit" disabled={busy || !statement.trim()}>
          {t('standing.send')}
        </button>
        <button type="button" className="secondary" onClick={() => setAsking(false)}>
          {t('standing.cancel')}
        </button>
      </div>
    </form>
  );
}
