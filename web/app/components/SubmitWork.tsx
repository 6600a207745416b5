import { ErrorNotice } from '../../shared/ui';
import { useWords } from '../messages';

/**
 * The end of both ways to hand work in (the answer form of a task with an answer_schema, the plain result form of
 * one without): what went wrong with the last try, in words, then the one submit button, disabled while sending.
 */
export function SubmitWork(props: { error: unknown; busy: boolean }) {
  const { t } = useWords();
  return (
    <>
      {props.error ? <ErrorNotice error={props.error} /> : null}
      <div className="actions one">
        <button type="submit" disabled={props.busy}>
          {t('work.submit')}
        </button>
      </div>
    </>
  );
}
