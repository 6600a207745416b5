import { useState } from 'react';
import { useI18n } from '../i18n';

/**
 * A credential the API shows once (an API key and its secret, a webhook signing secret): in a read-only field to
 * copy, with the warning that it will not be shown again. It lives in this component's props only: never stored.
 */
export function ShownOnce(props: { items: [string, string][]; onDone: () => void }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <section className="card shown-once" aria-labelledby="shown-once-title">
      <h2 id="shown-once-title">{t('secret.title')}</h2>
      <p className="warn-text">{t('secret.once')}</p>
      {props.items.map(([label, value], i) => (
        <div key={label}>
          <label htmlFor={`secret-${i}`}>{label}</label>
          <div className="row nowrap">
            <input
              id={`secret-${i}`}
              readOnly
              value={value}
              className="mono"
              onFocus={(e) => e.target.select()}
            />
            <button
              type="button"
              className="secondary"
              onClick={() =>
                void navigator.clipboard?.writeText(value).then(
                  () => setCopied(label),
                  () => setCopied(null),
                )
              }
            >
              {copied === label ? t('secret.copied') : t('secret.copy')}
            </button>
          </div>
        </div>
      ))}
      <p>
        <button type="button" onClick={props.onDone}>
          {t('secret.done')}
        </button>
      </p>
    </section>
  );
}
