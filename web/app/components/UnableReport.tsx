import { unableReportRequestReasonValues as REASONS } from '@legwork/sdk/types';
import { TextBox } from '../../shared/fields';
import { useState } from 'react';
import { unwrap } from '../../shared/api';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { formatCents } from '../../shared/i18n';
import { useAction } from '../../shared/use-action';
import { useModalDialog } from '../../shared/use-modal-dialog';
import { currentFix, type Fix } from '../geo';
import { useWords } from '../messages';
import { api } from '../session';
import { uploadProof } from '../proof-upload';
import { CameraButton } from './CameraButton';

type Reason = (typeof REASONS)[number];

/**
 * "Could not do it" (product-decisions §19): a secondary button beside submitting that opens the app's own modal
 * dialog with the reason in words, a note and an optional photo of what the worker found (the closed shop). Sending
 * asks once more, because the report ends the work on this assignment: the agent then reviews it like a result and,
 * accepted, it pays a share of the pay. The outcome (what it pays if accepted) is handed back to the page.
 */
export function UnableReport(props: { assignmentId: string; onReported: (outcome: string) => void }) {
  const { t, locale } = useWords();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState<Reason | null>(null);
  const [note, setNote] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [fix, setFix] = useState<Fix | null>(null);
  const [incomplete, setIncomplete] = useState(false);
  const sending = useAction();
  const dialog = useModalDialog(open);

  const choosePhoto = async (file: File | null) => {
    setPhoto(file);
    setFix(null);
    if (!file) return;
    try {
      setFix(await currentFix());
    } catch {
      // The photo's own GPS may be enough; the API checks it like a proof photo and says so in words.
    }
  };

  const send = async () => {
    if (!reason) return;
    const urls: string[] = [];
    if (photo) {
      urls.push(await uploadProof(photo, 'unable.jpg'));
    }
    const answer = await unwrap(
      api.POST('/v1/worker/assignments/{assignment_id}/unable', {
        params: { path: { assignment_id: props.assignmentId } },
        body: {
          reason,
          note: note.trim(),
          ...(urls.length ? { photo_urls: urls } : {}),
          ...(urls.length && fix ? { device_location: fix } : {}),
        },
      }),
    );
    setOpen(false);
    props.onReported(t('unable.sent', { amount: formatCents(answer.payment_cents, locale) }));
  };

  const ready = reason !== null && note.trim().length > 0;
  return (
    <section className="unable" aria-labelledby="unable-heading">
      <h2 id="unable-heading">{t('unable.heading')}</h2>
      <p className="muted">{t('unable.intro')}</p>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          sending.setError(null); // a failure of the last attempt is not this one's
          setConfirming(false);
          setIncomplete(false);
          setOpen(true);
        }}
      >
        {t('unable.open')}
      </button>
      <dialog ref={dialog} aria-labelledby="unable-title" onClose={() => setOpen(false)}>
        <h2 id="unable-title">{t('unable.title')}</h2>
        {!confirming ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!ready) return setIncomplete(true);
              setConfirming(true);
            }}
          >
            <fieldset className="answer">
              <legend>{t('unable.reason')}</legend>
              {REASONS.map((r) => (
                <label key={r} className="choice">
                  <input
                    type="radio"
                    name="unable-reason"
                    value={r}
                    checked={reason === r}
                    onChange={() => setReason(r)}
                  />
                  {t(`unable.reason.${r}`)}
                </label>
              ))}
            </fieldset>
            <TextBox
              id="unable-note"
              label={t('unable.note')}
              maxLength={2000}
              aria-required="true"
              value={note}
              onChange={setNote}
              hint={t('unable.note_hint')}
            />
            <CameraButton
              id="unable-photo"
              photo={photo}
              onChoose={(file) => void choosePhoto(file)}
              takeLabel={t('unable.photo')}
              hint={t('unable.photo_hint')}
            />
            {incomplete && !ready && (
              <p className="error" role="alert">
                {t('unable.incomplete')}
              </p>
            )}
            <div className="actions">
              <button type="button" className="secondary" onClick={() => setOpen(false)}>
                {t('unable.back')}
              </button>
              <button type="submit">{t('unable.next')}</button>
            </div>
          </form>
        ) : (
          <>
            <p id="unable-confirm">
              {t('unable.confirm', { reason: t(`unable.reason.${reason ?? 'other'}`) })}
            </p>
            <ActionError action={sending} />
            <div className="actions">
              <button type="button" className="secondary" autoFocus onClick={() => setConfirming(false)}>
                {t('unable.back')}
              </button>
              <ActionButton action={sending} onClick={send}>
                {t('unable.send')}
              </ActionButton>
            </div>
          </>
        )}
      </dialog>
    </section>
  );
}
