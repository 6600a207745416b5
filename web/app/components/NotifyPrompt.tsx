import { useEffect, useState, useSyncExternalStore } from 'react';
import { useWords } from '../messages';
import { ErrorNotice } from '../../shared/ui';
import { availability } from '../availability';
import {
  dismissPrompt,
  enableOfferPush,
  promptDismissed,
  pushState,
  type PushState,
  refreshOfferPush,
} from '../push';

/**
 * Below the on-call switch: once the worker is on call, and only then, explains what notifications are for and asks
 * (the browser's permission dialog opens from the worker's tap, never by itself). When permission was granted
 * before, it quietly keeps the API's copy of the subscription current. Says what happens where push cannot work:
 * offers still come by SMS.
 */
export function NotifyPrompt() {
  const { t, locale } = useWords();
  const online = useSyncExternalStore(availability.subscribe, availability.snapshot).online;
  const [state, setState] = useState<PushState>(pushState);
  const [hidden, setHidden] = useState(promptDismissed);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (online) void refreshOfferPush(locale).then(setState, () => undefined);
  }, [online, locale]);
  const enable = async () => {
    setBusy(true);
    setError(null);
    try {
      setState(await enableOfferPush(locale));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (!online) return null;
  if (state === 'failed' || state === 'denied') {
    return (
      <p className="notice" role="status">
        {t(state === 'failed' ? 'push.failed' : 'push.denied')}
      </p>
    );
  }
  if (state !== 'ask' || hidden) return null;
  return (
    <section className="card" aria-labelledby="push-ask-title">
      <h2 id="push-ask-title">{t('push.ask_title')}</h2>
      <p>{t('push.ask_why')}</p>
      <p className="muted">{t('push.ask_sms')}</p>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions">
        <button
          type="button"
          className="secondary"
          onClick={() => {
            dismissPrompt();
            setHidden(true);
          }}
        >
          {t('push.not_now')}
        </button>
        <button type="button" disabled={busy} onClick={() => void enable()}>
          {t('push.enable')}
        </button>
      </div>
    </section>
  );
}
