import { useState } from 'react';
import { unwrap } from '../../shared/api';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { useAction } from '../../shared/use-action';
import { useModalDialog } from '../../shared/use-modal-dialog';
import { useWords } from '../messages';
import { api } from '../session';

/**
 * Giving a task up, away from the buttons that do the work: a quiet button at the end of the assignment's page
 * that asks first, in the app's own modal dialog (a native <dialog>: focus moves into it, Escape or "keep the task"
 * closes it, and focus returns to the button). Abandoning lowers the worker's reputation, so the safe answer has the
 * focus.
 */
export function AbandonTask(props: { assignmentId: string; onAbandoned: () => Promise<void> }) {
  const { t } = useWords();
  const [asking, setAsking] = useState(false);
  const abandoning = useAction();
  const dialog = useModalDialog(asking);
  const abandon = async () => {
    await unwrap(
      api.POST('/v1/worker/assignments/{assignment_id}/abandon', {
        params: { path: { assignment_id: props.assignmentId } },
      }),
    );
    setAsking(false);
    await props.onAbandoned();
  };
  return (
    <section className="abandon" aria-labelledby="cant-do">
      <h2 id="cant-do">{t('work.cant_do')}</h2>
      <button
        type="button"
        className="quiet-danger"
        onClick={() => {
          abandoning.setError(null); // a failure of the last attempt is not this one's
          setAsking(true);
        }}
      >
        {t('work.abandon')}
      </button>
      <dialog
        ref={dialog}
        role="alertdialog"
        aria-labelledby="abandon-title"
        aria-describedby="abandon-what"
        onClose={() => setAsking(false)}
      >
        <h2 id="abandon-title">{t('work.abandon_title')}</h2>
        <p id="abandon-what">{t('work.abandon_confirm')}</p>
        <ActionError action={abandoning} />
        <div className="actions">
          <button type="button" className="secondary" autoFocus onClick={() => setAsking(false)}>
            {t('work.abandon_no')}
          </button>
          <ActionButton action={abandoning} className="danger" onClick={abandon}>
            {t('work.abandon_yes')}
          </ActionButton>
        </div>
      </dialog>
    </section>
  );
}
