import { useEffect, useRef, useState } from 'react';
import { unwrap } from '../../shared/api';
import { useAction } from '../../shared/use-action';
import { useWords } from '../messages';
import { ErrorNotice } from '../../shared/ui';
import { formatDistance } from '../format';
import { currentFix, type Fix } from '../geo';
import type { MyTask } from '../my-tasks';
import { api } from '../session';

/**
 * Submitting a result: a photo from the camera (a button that opens the file input, whose `capture=environment`
 * opens the rear camera on a phone; the chosen photo is shown before it is sent), the
 * phone's own fix read the moment the photo is chosen (product-decisions §11: browsers often strip EXIF GPS, and a
 * task with `photo_or_device_gps` accepts the fix instead), the result and notes. The API checks the place; a
 * refusal (too far, no GPS, a stale or imprecise fix) is shown in words with its code and changes nothing, so the
 * worker can take the photo again.
 */
export function SubmitForm(props: { task: MyTask; onSubmitted: (note: string) => void }) {
  const { t, locale } = useWords();
  const camera = useRef<HTMLInputElement>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [fix, setFix] = useState<Fix | null>(null);
  const [fixMissing, setFixMissing] = useState(false);
  const [result, setResult] = useState('');
  const [notes, setNotes] = useState('');
  const { busy, error, onSubmit } = useAction();
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const choosePhoto = async (file: File | null) => {
    setPhoto(file);
    setPreview(file ? URL.createObjectURL(file) : null);
    setFix(null);
    setFixMissing(false);
    if (!file) return;
    try {
      setFix(await currentFix());
    } catch {
      // Said in words below; the photo's own GPS may still be enough (the API decides).
      setFixMissing(true);
    }
  };

  const submit = onSubmit(async () => {
    const resultData = result.trim() ? { result: result.trim() } : {};
    const params = { path: { assignment_id: props.task.assignment_id } };
    const answer = photo
      ? await unwrap(
          api.POST('/v1/worker/assignments/{assignment_id}/submit-with-photo', {
            params,
            body: {
              photo: '',
              result_data: JSON.stringify(resultData),
              ...(notes.trim() ? { worker_notes: notes.trim() } : {}),
              ...(fix ? { device_location: JSON.stringify(fix) } : {}),
            },
            // multipart/form-data: the file itself in place of the typed placeholder.
            bodySerializer: (body) => {
              const form = new FormData();
              for (const [key, value] of Object.entries(body)) if (key !== 'photo') form.append(key, value);
              form.append('photo', photo, photo.name || 'photo.jpg');
              return form;
            },
          }),
        )
      : await unwrap(
          api.POST('/v1/worker/assignments/{assignment_id}/submit', {
            params,
            body: { result_data: resultData, ...(notes.trim() ? { worker_notes: notes.trim() } : {}) },
          }),
        );
    props.onSubmitted(
      answer.photo
        ? t('work.submitted', { distance: formatDistance(answer.photo.distance_meters, locale) })
        : t('work.submitted_plain'),
    );
  });

  return (
    <form className="card" onSubmit={submit} aria-labelledby="submit-title">
      <h2 id="submit-title">{t('work.submit_title')}</h2>
      <input
        ref={camera}
        id="photo"
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={(e) => void choosePhoto(e.target.files?.[0] ?? null)}
      />
      <button
        type="button"
        className="camera"
        aria-describedby="photo-hint"
        onClick={() => camera.current?.click()}
      >
        <CameraIcon />
        {photo ? t('work.retake_photo') : t('work.take_photo')}
      </button>
      <small id="photo-hint" className="muted">
        {t('work.photo_hint')}
      </small>
      {preview && <img className="photo-preview" src={preview} alt={t('work.photo_preview')} />}
      {fix && <p className="muted">{t('work.fix', { accuracy: formatDistance(fix.accuracy_m, locale) })}</p>}
      {fixMissing && <p className="muted">{t('work.fix_missing')}</p>}
      <label htmlFor="result">{t('work.result')}</label>
      <input
        id="result"
        aria-describedby="result-hint"
        value={result}
        onChange={(e) => setResult(e.target.value)}
      />
      <small id="result-hint" className="muted">
        {t('work.result_hint')}
      </small>
      <label htmlFor="notes">{t('work.notes')}</label>
      <textarea id="notes" maxLength={2000} value={notes} onChange={(e) => setNotes(e.target.value)} />
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions one">
        <button type="submit" disabled={busy}>
          {t('work.submit')}
        </button>
      </div>
    </form>
  );
}

/** A camera outline (drawn, not an emoji: a phone without an emoji font would show a box). */
function CameraIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M4 7h3l2-2.5h6L17 7h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="12.5" r="3.6" fill="none" stroke="currentColor" strokeWidth="1.8" />
    </svg>
  );
}
