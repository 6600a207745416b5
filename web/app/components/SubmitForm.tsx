import { useEffect, useState, type FormEvent } from 'react';
import { unwrap } from '../../shared/api';
import { toApiError } from '../../shared/errors';
import { useI18n } from '../../shared/i18n';
import { ErrorNotice } from '../../shared/ui';
import { currentFix, type Fix } from '../geo';
import type { MyTask } from '../my-tasks';
import { api } from '../session';

/**
 * Submitting a result: a photo from the camera (`capture=environment` opens the rear camera on a phone), the
 * phone's own fix read the moment the photo is chosen (product-decisions §11: browsers often strip EXIF GPS, and a
 * task with `photo_or_device_gps` accepts the fix instead), the result and notes. The API checks the place; a
 * refusal (too far, no GPS, a stale or imprecise fix) is shown in words with its code and changes nothing, so the
 * worker can take the photo again.
 */
export function SubmitForm(props: { task: MyTask; onSubmitted: (note: string) => void }) {
  const { t } = useI18n();
  const [photo, setPhoto] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [fix, setFix] = useState<Fix | null>(null);
  const [fixError, setFixError] = useState<string | null>(null);
  const [result, setResult] = useState('');
  const [notes, setNotes] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const choosePhoto = async (file: File | null) => {
    setPhoto(file);
    setPreview(file ? URL.createObjectURL(file) : null);
    setFix(null);
    setFixError(null);
    if (!file) return;
    try {
      setFix(await currentFix());
    } catch (err) {
      setFixError(toApiError(err).message);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const resultData = result.trim() ? { result: result.trim() } : {};
    const params = { path: { assignment_id: props.task.assignment_id } };
    try {
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
          ? t('work.submitted', { distance: answer.photo.distance_meters })
          : t('work.submitted_plain'),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="submit-title">
      <h2 id="submit-title">{t('work.submit_title')}</h2>
      <label htmlFor="photo">{t('work.photo')}</label>
      <input
        id="photo"
        type="file"
        accept="image/*"
        capture="environment"
        aria-describedby="photo-hint"
        onChange={(e) => void choosePhoto(e.target.files?.[0] ?? null)}
      />
      <small id="photo-hint" className="muted">
        {t('work.photo_hint')}
      </small>
      {preview && <img className="photo-preview" src={preview} alt={t('work.photo')} />}
      {fix && <p className="muted">{t('work.fix', { accuracy: Math.round(fix.accuracy_m) })}</p>}
      {fixError && <p className="muted">{t('work.fix_missing', { reason: fixError })}</p>}
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
