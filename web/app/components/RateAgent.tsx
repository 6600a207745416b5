import { useState } from 'react';
import { TextBox } from '../../shared/fields';
import { unwrap } from '../../shared/api';
import { useAction } from '../../shared/use-action';
import { useWords } from '../messages';
import { ErrorNotice } from '../../shared/ui';
import { api } from '../session';

/** Rating the agent of a completed task (two-sided reputation: agents' averages show on available tasks). */
export function RateAgent({ taskId }: { taskId: string }) {
  const { t } = useWords();
  const [rating, setRating] = useState(5);
  const [comment, setComment] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, onSubmit } = useAction();
  const submit = onSubmit(async () => {
    await unwrap(
      api.POST('/v1/worker/tasks/{task_id}/rate', {
        params: { path: { task_id: taskId } },
        body: { rating, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      }),
    );
    setDone(true);
  });
  if (done) {
    return (
      <p className="notice" role="status">
        {t('rate.done')}
      </p>
    );
  }
  return (
    <form className="card" onSubmit={submit} aria-labelledby="rate-title">
      <h2 id="rate-title">{t('rate.title')}</h2>
      <label htmlFor="rate-stars">{t('rate.stars')}</label>
      <select id="rate-stars" value={rating} onChange={(e) => setRating(Number(e.target.value))}>
        {[5, 4, 3, 2, 1, 0].map((n) => (
          <option key={n} value={n}>
            {'★'.repeat(n) + '☆'.repeat(5 - n)} {n}
          </option>
        ))}
      </select>
      <TextBox
        id="rate-comment"
        label={t('rate.comment')}
        maxLength={500}
        value={comment}
        onChange={setComment}
      />
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions one">
        <button type="submit" disabled={busy}>
          {t('rate.submit')}
        </button>
      </div>
    </form>
  );
}
