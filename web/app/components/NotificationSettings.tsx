import { useState } from 'react';
import { unwrap } from '../../shared/api';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { enableOfferPush, pushState, type PushState } from '../push';
import { api } from '../session';

/**
 * How offers and news of their pay reach the worker when the app is closed (GET/PUT
 * /v1/worker/notification-settings): offer SMS and money SMS on or off, and notifications on this phone.
 */
export function NotificationSettings() {
  const { t, locale } = useWords();
  const settings = useAsync(() => unwrap(api.GET('/v1/worker/notification-settings')), []);
  const [push, setPush] = useState<PushState>(pushState);
  /** The switch follows the tap at once; a refusal puts it back. */
  const [offerSms, setOfferSms] = useState<boolean | null>(null);
  const [moneySms, setMoneySms] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await settings.reload();
    } catch (err) {
      setOfferSms(null);
      setMoneySms(null);
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const s = settings.data;
  return (
    <section className="card" aria-labelledby="notify-title">
      <h2 id="notify-title">{t('notify.title')}</h2>
      {settings.error ? <ErrorNotice error={settings.error} onRetry={() => void settings.reload()} /> : null}
      {!s && settings.loading && <Loading />}
      {s && (
        <label className="switch" htmlFor="offer-sms">
          <span>
            {t('notify.sms')}
            <br />
            <small className="muted">{t('notify.sms_rules')}</small>
          </span>
          <input
            id="offer-sms"
            type="checkbox"
            role="switch"
            checked={offerSms ?? s.offer_sms}
            disabled={busy}
            onChange={(e) => {
              const on = e.target.checked;
              setOfferSms(on);
              void run(() =>
                unwrap(api.PUT('/v1/worker/notification-settings', { body: { offer_sms: on } })),
              );
            }}
          />
        </label>
      )}
      {s && (
        <label className="switch" htmlFor="money-sms">
          <span>
            {t('notify.money_sms')}
            <br />
            <small className="muted">{t('notify.money_sms_rules')}</small>
          </span>
          <input
            id="money-sms"
            type="checkbox"
            role="switch"
            checked={moneySms ?? s.money_sms}
            disabled={busy}
            onChange={(e) => {
              const on = e.target.checked;
              setMoneySms(on);
              void run(() =>
                unwrap(api.PUT('/v1/worker/notification-settings', { body: { money_sms: on } })),
              );
            }}
          />
        </label>
      )}
      <p className="muted">{t(`notify.push_${push}`)}</p>
      {push === 'ask' && (
        <div className="actions one">
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => void run(async () => setPush(await enableOfferPush(locale)))}
          >
            {t('push.enable')}
          </button>
        </div>
      )}
      {error ? <ErrorNotice error={error} /> : null}
    </section>
  );
}
