import { useState } from 'react';
import { unwrap } from '../../shared/api';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { enableOfferPush, pushState, type PushState } from '../push';
import { api } from '../session';

type SmsSetting = 'offer_sms' | 'money_sms';

/** The two SMS switches: offers, and news of pay (each with the rules of when a text is sent). */
const SMS_SWITCHES = [
  { setting: 'offer_sms', id: 'offer-sms', label: 'notify.sms', rules: 'notify.sms_rules' },
  { setting: 'money_sms', id: 'money-sms', label: 'notify.money_sms', rules: 'notify.money_sms_rules' },
] as const satisfies readonly { setting: SmsSetting; id: string; label: string; rules: string }[];

/**
 * How offers and news of their pay reach the worker when the app is closed (GET/PUT
 * /v1/worker/notification-settings): offer SMS and money SMS on or off, and notifications on this phone.
 */
export function NotificationSettings() {
  const { t, locale } = useWords();
  const settings = useAsync(() => unwrap(api.GET('/v1/worker/notification-settings')), []);
  const [push, setPush] = useState<PushState>(pushState);
  /** A switch follows the tap at once; a refusal puts it back. */
  const [pending, setPending] = useState<Partial<Record<SmsSetting, boolean>>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      await settings.reload();
    } catch (err) {
      setPending({});
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const turn = (setting: SmsSetting, on: boolean) => {
    setPending((p) => ({ ...p, [setting]: on }));
    void run(() => unwrap(api.PUT('/v1/worker/notification-settings', { body: { [setting]: on } })));
  };
  const s = settings.data;
  return (
    <section className="card" aria-labelledby="notify-title">
      <h2 id="notify-title">{t('notify.title')}</h2>
      {settings.error ? <ErrorNotice error={settings.error} onRetry={() => void settings.reload()} /> : null}
      {!s && settings.loading && <Loading />}
      {s &&
        SMS_SWITCHES.map((w) => (
          <label key={w.id} className="switch" htmlFor={w.id}>
            <span>
              {t(w.label)}
              <br />
              <small className="muted">{t(w.rules)}</small>
            </span>
            <input
              id={w.id}
              type="checkbox"
              role="switch"
              checked={pending[w.setting] ?? s[w.setting]}
              disabled={busy}
              onChange={(e) => turn(w.setting, e.target.checked)}
            />
          </label>
        ))}
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
