import { useState } from 'react';
import { TextBox } from '../../shared/fields';
import { unwrap } from '../../shared/api';
import { useAction } from '../../shared/use-action';
import { useWords } from '../messages';
import { formatDistance } from '../format';
import { currentFix, type Fix } from '../geo';
import type { MyTask } from '../my-tasks';
import { api } from '../session';
import { ProofCamera } from './CameraButton';
import { SubmitWork } from './SubmitWork';

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
  const [photo, setPhoto] = useState<File | null>(null);
  const [fix, setFix] = useState<Fix | null>(null);
  const [fixMissing, setFixMissing] = useState(false);
  const [result, setResult] = useState('');
  const [notes, setNotes] = useState('');
  const { busy, error, onSubmit } = useAction();

  const choosePhoto = async (file: File | null) => {
    setPhoto(file);
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
      <ProofCamera photo={photo} onChoose={(file) => void choosePhoto(file)} />
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
      <TextBox id="notes" label={t('work.notes')} maxLength={2000} value={notes} onChange={setNotes} />
      <SubmitWork error={error} busy={busy} />
    </form>
  );
}
