import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { unwrap } from '../../shared/api';
import { toApiError } from '../../shared/errors';
import { Checks, Field, Radios, TextBox } from '../../shared/fields';
import { useAction } from '../../shared/use-action';
import { type MessageKey, useWords } from '../messages';
import {
  checkAnswers,
  type FieldValue,
  type FormField,
  formFields,
  type FormValues,
  NATIVE_INPUTS,
  pendingPhotos,
  type Problem,
  resultData,
} from '../../shared/answer-form';
import { dropDraft, loadDraft, saveDraft } from '../answer-draft';
import { formatDistance } from '../format';
import { currentFix, type Fix } from '../geo';
import type { AssignmentDetail } from '../my-tasks';
import { api } from '../session';
import { uploadProof } from '../proof-upload';
import { CameraButton, ProofCamera } from './CameraButton';
import { SubmitWork } from './SubmitWork';

/** Where a schema without photo fields keeps the optional proof photo (no field name starts with `$`). */
const PROOF = '$proof';

/**
 * The task's answer_schema as a form (product-decisions §17): a number pad for numbers, radios or a list for a
 * choice, checkboxes for a multi-select, the phone's date and time pickers, a camera button per photo field. The
 * schema's rules are checked before sending and said in words next to each field; the API checks them again.
 * What is entered is kept in IndexedDB (answer-draft.ts) so a reload loses nothing, and a sending that fails for
 * want of a connection waits ("waiting to send") and goes out by itself when the connection returns.
 */
export function AnswerForm(props: { task: AssignmentDetail; onSubmitted: (note: string) => void }) {
  const { t, locale } = useWords();
  const { task, onSubmitted } = props;
  const assignmentId = task.assignment_id;
  const fields = useMemo(() => formFields(task.answer_schema), [task.answer_schema]);
  // A photo task whose schema asks for no photo still needs its proof photo: the usual camera button, as photo_urls.
  const proofField = !fields.some((f) => f.kind === 'photo');
  const [values, setValues] = useState<FormValues>({});
  const [photoUrls, setPhotoUrls] = useState<Record<string, string>>({});
  const [notes, setNotes] = useState('');
  const [fix, setFix] = useState<Fix | null>(null);
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [restored, setRestored] = useState(false);
  const loaded = useRef(false);
  const sending = useRef(false);
  const { busy, error, setError, run } = useAction();

  // The draft of an earlier visit, if any (IndexedDB may be unavailable, e.g. in a private window: then no draft).
  useEffect(() => {
    let live = true;
    loadDraft(assignmentId)
      .then((draft) => {
        if (!live || !draft) return;
        setValues(draft.values);
        setPhotoUrls(draft.photoUrls);
        setNotes(draft.notes);
        setFix(draft.fix);
        setWaiting(draft.waiting);
        setRestored(true);
      })
      .catch(() => undefined)
      .finally(() => {
        loaded.current = true;
      });
    return () => {
      live = false;
    };
  }, [assignmentId]);

  // Every change is kept at once: a phone may close the tab at any moment.
  useEffect(() => {
    if (!loaded.current) return;
    void saveDraft({ assignmentId, values, photoUrls, notes, fix, waiting }).catch(() => undefined);
  }, [assignmentId, values, photoUrls, notes, fix, waiting]);

  const set = (name: string, value: FieldValue) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (problems) setProblems(checkAnswers(fields, { ...values, [name]: value }));
  };

  const choosePhoto = async (name: string, file: File | null) => {
    set(name, file);
    setPhotoUrls(({ [name]: _old, ...rest }) => rest);
    if (!file) return;
    try {
      setFix(await currentFix());
    } catch {
      // The photo's own GPS may be enough; the API decides and says so.
    }
  };

  /** Uploads the photos not yet uploaded, then sends result_data; a lost connection leaves it waiting. */
  const send = useCallback(
    async (current: {
      values: FormValues;
      photoUrls: Record<string, string>;
      notes: string;
      fix: Fix | null;
    }) => {
      if (sending.current) return;
      sending.current = true;
      try {
        const urls = { ...current.photoUrls };
        const proof = current.values[PROOF];
        const photos = pendingPhotos(fields, current.values);
        if (proofField && proof instanceof Blob) photos.push([PROOF, proof]);
        for (const [name, blob] of photos) {
          if (urls[name]) continue;
          const url = await uploadProof(blob, `${name}.jpg`);
          urls[name] = url;
          setPhotoUrls((u) => ({ ...u, [name]: url }));
        }
        await unwrap(
          api.POST('/v1/worker/assignments/{assignment_id}/submit', {
            params: { path: { assignment_id: assignmentId } },
            body: {
              result_data: resultData(fields, current.values, urls, -new Date().getTimezoneOffset()),
              ...(current.notes.trim() ? { worker_notes: current.notes.trim() } : {}),
              ...(current.fix ? { device_location: current.fix } : {}),
              ...(proofField && urls[PROOF] ? { photo_urls: [urls[PROOF]] } : {}),
            },
          }),
        );
        loaded.current = false; // nothing more to keep
        await dropDraft(assignmentId).catch(() => undefined);
        setWaiting(false);
        onSubmitted(t('work.submitted_plain'));
      } catch (err) {
        if (toApiError(err).code === 'network_error') setWaiting(true);
        else {
          setWaiting(false);
          throw err;
        }
      } finally {
        sending.current = false;
      }
    },
    [fields, assignmentId, onSubmitted, t],
  );

  // A waiting draft goes out when the connection returns (and at once if it is back already).
  useEffect(() => {
    if (!waiting) return;
    const retry = () => void run(() => send({ values, photoUrls, notes, fix }));
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [waiting, run, send, values, photoUrls, notes, fix]);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const found = checkAnswers(fields, values);
    setProblems(found);
    if (found.length > 0) {
      setError(null);
      document.getElementById(`answer-${found[0].field}`)?.focus();
      return;
    }
    void run(() => send({ values, photoUrls, notes, fix }));
  };

  const problemOf = (name: string) => problems?.find((p) => p.field === name);

  return (
    <form className="card" onSubmit={submit} aria-labelledby="submit-title" noValidate>
      <h2 id="submit-title">{t('answer.title')}</h2>
      {restored && !waiting && <p className="muted">{t('answer.draft_restored')}</p>}
      {fields.map((f) => (
        <AnswerField
          key={f.name}
          field={f}
          value={values[f.name] ?? null}
          problem={problemOf(f.name)}
          onChange={(v) => set(f.name, v)}
          onPhoto={(file) => void choosePhoto(f.name, file)}
        />
      ))}
      {proofField && (
        <ProofCamera
          photo={values[PROOF] instanceof Blob ? values[PROOF] : null}
          onChoose={(file) => void choosePhoto(PROOF, file)}
        />
      )}
      {fix && <p className="muted">{t('work.fix', { accuracy: formatDistance(fix.accuracy_m, locale) })}</p>}
      <TextBox id="notes" label={t('work.notes')} maxLength={2000} value={notes} onChange={setNotes} />
      {problems && problems.length > 0 && (
        <p className="error" role="alert">
          {t('answer.fix_problems', { count: problems.length })}
        </p>
      )}
      {waiting && (
        <p className="notice" role="status">
          {t('answer.waiting')}
        </p>
      )}
      <SubmitWork error={error} busy={busy} />
    </form>
  );
}

function problemWords(p: Problem, t: ReturnType<typeof useWords>['t']): string {
  const key = `answer.problem.${p.rule}` as MessageKey;
  return 'limit' in p ? t(key, { limit: p.limit }) : t(key);
}

/** One question: its input by kind, its hint (the rules in words) and, after a try, what is wrong with it. */
function AnswerField(props: {
  field: FormField;
  value: FieldValue;
  problem: Problem | undefined;
  onChange: (v: FieldValue) => void;
  onPhoto: (file: File | null) => void;
}) {
  const { t } = useWords();
  const { field: f, value, problem } = props;
  const id = `answer-${f.name}`;
  const label = f.required ? t('answer.required', { title: f.title }) : f.title;
  const hintParts = [f.description, ruleHint(f, t)].filter(Boolean);
  const hint = hintParts.length ? hintParts.join(' ') : undefined;
  const text = typeof value === 'string' ? value : '';
  const wrong = problem ? (
    <p id={`${id}-problem`} className="error" role="alert">
      {problemWords(problem, t)}
    </p>
  ) : null;
  const invalid = problem ? { 'aria-invalid': true, 'aria-errormessage': `${id}-problem` } : {};

  switch (f.kind) {
    case 'boolean':
    case 'choice': {
      const options = f.kind === 'boolean' ? ['yes', 'no'] : (f.options ?? []);
      const words = (v: string) => (f.kind === 'boolean' ? t(v === 'yes' ? 'answer.yes' : 'answer.no') : v);
      return (
        <div className="answer" id={id} tabIndex={-1} {...invalid}>
          {options.length <= 6 ? (
            <Radios
              legend={label}
              name={id}
              value={text}
              options={options}
              optionLabel={words}
              onChange={props.onChange}
            />
          ) : (
            <>
              <label htmlFor={`${id}-select`}>{label}</label>
              <select
                id={`${id}-select`}
                value={text}
                onChange={(e) => props.onChange(e.target.value || null)}
              >
                <option value="">{t('answer.choose')}</option>
                {options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            </>
          )}
          {hint && <p className="hint">{hint}</p>}
          {wrong}
        </div>
      );
    }
    case 'multi_select':
      return (
        <fieldset className="answer" id={id} tabIndex={-1} {...invalid}>
          <legend>{label}</legend>
          <Checks
            options={f.options ?? []}
            checked={Array.isArray(value) ? value : []}
            onChange={props.onChange}
            optionLabel={(v) => v}
          />
          {hint && <p className="hint">{hint}</p>}
          {wrong}
        </fieldset>
      );
    case 'photo':
      return (
        <div className="answer" id={id} tabIndex={-1} {...invalid}>
          <p className="label">{label}</p>
          <CameraButton
            id={`${id}-file`}
            photo={value instanceof Blob ? value : null}
            onChoose={props.onPhoto}
            takeLabel={t('answer.take_photo', { title: f.title })}
            retakeLabel={t('answer.retake_photo', { title: f.title })}
            previewLabel={t('answer.photo_preview', { title: f.title })}
          />
          {hint && <p className="hint">{hint}</p>}
          {wrong}
        </div>
      );
    default: {
      const input = NATIVE_INPUTS[f.kind];
      return (
        <div className="answer">
          <Field
            id={id}
            label={label}
            value={text}
            onChange={(v) => props.onChange(v)}
            hint={hint}
            {...input}
            {...(f.minimum !== undefined ? { min: f.minimum } : {})}
            {...(f.maximum !== undefined ? { max: f.maximum } : {})}
            {...invalid}
          />
          {wrong}
        </div>
      );
    }
  }
}

function ruleHint(f: FormField, t: ReturnType<typeof useWords>['t']): string | undefined {
  if (f.kind === 'number' || f.kind === 'integer') {
    if (f.minimum !== undefined && f.maximum !== undefined)
      return t('answer.range', { min: f.minimum, max: f.maximum });
    if (f.minimum !== undefined) return t('answer.at_least', { min: f.minimum });
    if (f.maximum !== undefined) return t('answer.at_most', { max: f.maximum });
    return t('answer.number_hint');
  }
  if (f.kind === 'multi_select' && f.maxItems !== undefined)
    return t('answer.up_to_items', { limit: f.maxItems });
  if (f.kind === 'text' && f.maxLength !== undefined && f.maxLength < 2000)
    return t('answer.up_to_chars', { limit: f.maxLength });
  return undefined;
}
