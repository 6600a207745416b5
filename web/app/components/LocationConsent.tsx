import { useState } from 'react';
import { unwrap } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { ErrorNotice } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { availability } from '../availability';
import { useWords } from '../messages';
import { api } from '../session';

/**
 * On the profile: whether the worker consented to the use of their precise location, and withdrawing it
 * (product-decisions §19), which takes them off call at once; the switch then reads the server's state again.
 */
export function LocationConsent() {
  const { t, locale } = useWords();
  const consents = useAsync(() => unwrap(api.GET('/v1/worker/consents')), []);
  const c = consents.data?.consents.find((x) => x.kind === 'precise_location');
  const [withdrawn, setWithdrawn] = useState(false);
  const { busy, error, run } = useAction();
  const withdraw = () =>
    run(async () => {
      await unwrap(
        api.DELETE('/v1/worker/consents/{kind}', { params: { path: { kind: 'precise_location' } } }),
      );
      setWithdrawn(true);
      await availability.load();
      await consents.reload();
    });
  return (
    <section className="card" aria-labelledby="consent-profile-title">
      <h2 id="consent-profile-title">{t('consent.profile_title')}</h2>
      {consents.error ? <ErrorNotice error={consents.error} onRetry={() => void consents.reload()} /> : null}
      {c && (
        <p>
          {c.given && c.given_at
            ? t('consent.profile_given', {
                version: c.given_version ?? c.version,
                time: formatDateTime(c.given_at, locale),
              })
            : t('consent.profile_none')}
        </p>
      )}
      {withdrawn && (
        <p className="notice" role="status">
          {t('consent.withdrawn')}
        </p>
      )}
      {error ? <ErrorNotice error={error} /> : null}
      {c?.given && (
        <div className="actions one">
          <button type="button" className="secondary" disabled={busy} onClick={() => void withdraw()}>
            {t('consent.withdraw')}
          </button>
        </div>
      )}
    </section>
  );
}
