import { useState } from 'react';
import { useParams } from 'react-router';
import { taskFeedbackRequestReason_codeValues as REASONS } from '@legwork/sdk/types';
import { ActionError } from '../../shared/action-ui';
import { unwrap, type Schemas } from '../../shared/api';
import { Radios } from '../../shared/fields';
import { formatDateTime } from '../../shared/i18n';
import { StatusBadge } from '../../shared/StatusBadge';
import { useAction } from '../../shared/use-action';
import { useI18n } from '../i18n';
import { agentApi } from '../session';
import { RiskBadge, SignalList } from './ProofSignals';

type Submission = Schemas['SubmissionView'];
type Verification = Schemas['PhotoVerification'];

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
      <dt>{t('verify.risk')}</dt>
      <dd>
        <RiskBadge risk={v.risk} />
      </dd>
      {v.signals.length > 0 && (
        <>
          <dt>{t('verify.signals')}</dt>
          <dd>
            <SignalList signals={v.signals} />
          </dd>
        </>
      )}
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

export function SubmissionCard({ submission: s, onDone }: { submission: Submission; onDone: () => void }) {
  const { t, locale } = useI18n();
  return (
    <article className="card submission" aria-labelledby={`sub-${s.assignment_id}`} data-testid="submission">
      <div className="row spread">
        <h3 id={`sub-${s.assignment_id}`}>
          {t('detail.worker', { id: s.worker_id.slice(0, 8) })} <StatusBadge status={s.status} />{' '}
          <RiskBadge risk={s.risk} />
        </h3>
        <span className="muted">{formatDateTime(s.submitted_at, locale)}</span>
      </div>
      {s.unable_reason && (
        <p>
          <strong>{t('detail.unable', { reason: t(`unable.reason.${s.unable_reason}`) })}</strong>
        </p>
      )}
      {s.reason_code && <p>{t('detail.rejected_for', { reason: t(`reason.${s.reason_code}`) })}</p>}
      {s.review_required && s.review_deadline_at && (
        <div
          className="hold"
          role="note"
          aria-labelledby={`hold-${s.assignment_id}`}
          data-testid="hold-banner"
        >
          <strong id={`hold-${s.assignment_id}`}>{t('hold.title')}</strong>
          <p>{t('hold.banner', { at: formatDateTime(s.review_deadline_at, locale) })}</p>
        </div>
      )}
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
