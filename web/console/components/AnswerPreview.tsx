import { formFields, NATIVE_INPUTS } from '../../shared/answer-form';
import type { Schemas } from '../../shared/api';
import { useI18n } from '../i18n';

/**
 * The worker's form for an answer_schema as the worker app draws it (web/app/components/AnswerForm.tsx): the same
 * fields read by the same module (shared/answer-form.ts), each with the native input the phone shows. A preview:
 * it can be tried, and sends nothing.
 */
export function AnswerPreview(props: { schema: Schemas['AnswerSchema'] | undefined }) {
  const { t } = useI18n();
  const fields = formFields(props.schema ?? null);
  return (
    <section className="card phone-preview" aria-labelledby="preview-h">
      <h2 id="preview-h">{t('schema.preview')}</h2>
      {fields.length === 0 && <p className="muted">{t('schema.preview_empty')}</p>}
      {fields.map((f) => {
        const id = `pv-${f.name}`;
        const label = `${f.title || f.name}${f.required ? ` ${t('schema.required_mark')}` : ''}`;
        switch (f.kind) {
          case 'boolean':
          case 'choice':
          case 'multi_select': {
            const options = f.kind === 'boolean' ? [t('schema.yes'), t('schema.no')] : (f.options ?? []);
            return (
              <fieldset key={f.name}>
                <legend>{label}</legend>
                {options.map((o) => (
                  <label key={o} className="choice">
                    <input type={f.kind === 'multi_select' ? 'checkbox' : 'radio'} name={id} value={o} />
                    {o}
                  </label>
                ))}
              </fieldset>
            );
          }
          case 'photo':
            return (
              <div key={f.name}>
                <p className="label">{label}</p>
                <button type="button" className="secondary" disabled>
                  {t('schema.take_photo')}
                </button>
              </div>
            );
          default: {
            const input = NATIVE_INPUTS[f.kind] ?? { type: 'text' };
            return (
              <div key={f.name}>
                <label htmlFor={id}>{label}</label>
                <input id={id} {...input} min={f.minimum} max={f.maximum} />
              </div>
            );
          }
        }
      })}
    </section>
  );
}
