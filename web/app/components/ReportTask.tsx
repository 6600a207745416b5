import { useState } from 'react';
import { TextBox } from '../../shared/fields';
import { unwrap } from '../../shared/api';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { useAction } from '../../shared/use-action';
import { useModalDialog } from '../../shared/use-modal-dialog';
import { useWords } from '../messages';
import { api } from '../session';

const REASONS = ['illegal', 'unsafe', 'misleading'] as const;
type Reason = (typeof REASONS)[number];

/**
 * Reporting a task to the operators (product-decisions §19, "Also"): a quiet button at the end of the assignment's
 * page opens the app's modal dialog (a native <dialog>, as for abandoning) with the reason in words and a note; the
 * report is sent only from there, and "cancel" has the focus. After sending, the dialog's place says it was sent.
 */
export function ReportTask(props: { taskId: string }) {
  const { t } = useWords();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState<Reason>('unsafe');
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const reporting = useAction();
  const dialog = useModalDialog(asking);
  const send = async () => {
    await unwrap(
      api.POST('/v1/worker/tasks/{task_id}/report', {
        params: { path: { task_id: props.taskId } },
        body: { reason, note: note.trim() },
      }),
    );
    setAsking(false);
    setSent(true);
  };
  return (
    <section className="abandon" aria-labelledby="report-task">
      <h2 id="report-task">{t('report.heading')}</h2>
      {sent ? (
        <p className="notice" role="status">
          {t('report.sent')}
        </p>
      ) : (
        <button
          type="button"
          className="quiet-danger"
          onClick={() => {
            reporting.setError(null);
            setAsking(true);
          }}
        >
          {t('report.open')}
        </button>
      )}
      <dialog
        ref={dialog}
        role="alertdialog"
        aria-labelledby="report-title"
        aria-describedby="report-what"
        onClose={() => setAsking(false)}
      >
        <h2 id="report-title">{t('report.title')}</h2>
        <p id="report-what">{t('report.explain')}</p>
        <fieldset>
          <legend>{t('report.reason')}</legend>
          {REASONS.map((r) => (
            <label key={r}>
              <input
                type="radio"
                name="report-reason"
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
              />{' '}
              {t(`report.reason.${r}`)}
            </label>
          ))}
        </fieldset>
        <TextBox
          id="report-note"
          label={t('report.note')}
          maxLength={2000}
          required
          value={note}
          onChange={setNote}
        />
        <ActionError action={reporting} />
        <div className="actions">
          <button type="button" className="secondary" autoFocus onClick={() => setAsking(false)}>
            {t('report.cancel')}
          </button>
          <ActionButton action={reporting} className="danger" disabled={note.trim() === ''} onClick={send}>
            {t('report.send')}
          </ActionButton>
        </div>
      </dialog>
    </section>
  );
}
