import { useEffect, useRef } from 'react';
import { unwrap } from '../../shared/api';
import { ErrorNotice, Loading } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { availability } from '../availability';
import { useWords } from '../messages';
import { api } from '../session';

/**
 * The consent screen (PIPL; product-decisions §19): going on call answered consent_required, so the app shows what
 * the worker is asked to agree to, the server's own text in the app's language (the text consented to is the text of
 * that version), and goes on call once they agree. Declining leaves them off call. Focus moves to the heading so a
 * screen reader reads the question at once.
 */
export function ConsentPrompt() {
  const { t, locale } = useWords();
  const consents = useAsync(() => unwrap(api.GET('/v1/worker/consents')), []);
  const asked = consents.data?.consents.find((c) => c.kind === 'precise_location');
  const heading = useRef<HTMLHeadingElement>(null);
  const { busy, error, onSubmit } = useAction();
  useEffect(() => heading.current?.focus(), [asked?.version]);
  const agree = onSubmit(async () => {
    if (!asked) return;
    await unwrap(
      api.POST('/v1/worker/consents', { body: { kind: 'precise_location', version: asked.version } }),
    );
    await availability.setOnline(true);
  });
  const lang = locale === 'en' ? 'en' : 'zh';
  return (
    <form className="card consent" aria-labelledby="consent-title" onSubmit={agree}>
      <h2 id="consent-title" ref={heading} tabIndex={-1}>
        {asked ? asked.title[lang] : t('consent.title')}
      </h2>
      <p className="muted">{t('consent.why')}</p>
      {consents.error ? <ErrorNotice error={consents.error} onRetry={() => void consents.reload()} /> : null}
      {!asked && consents.loading && <Loading />}
      {asked && <p lang={lang === 'zh' ? 'zh-CN' : 'en'}>{asked.text[lang]}</p>}
      {asked && <p className="muted">{t('consent.version', { version: asked.version })}</p>}
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions">
        <button type="button" className="secondary" onClick={() => availability.dismissConsent()}>
          {t('consent.decline')}
        </button>
        <button type="submit" disabled={busy || !asked}>
          {t('consent.agree')}
        </button>
      </div>
    </form>
  );
}
