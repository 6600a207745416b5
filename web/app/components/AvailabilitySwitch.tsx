import { useSyncExternalStore } from 'react';
import { formatDateTime } from '../../shared/i18n';
import { type MessageKey, useWords } from '../messages';
import { ErrorNotice } from '../../shared/ui';
import { availability, type AvailabilityState } from '../availability';
import { ConsentPrompt } from './ConsentPrompt';

/**
 * The on-call switch: a real checkbox with role=switch, so screen readers say "on"/"off". It shows the server's
 * state (read on load), so a worker who signs in again sees that they are still on call. When going on call needs
 * the worker's consent to precise location, the consent screen opens below it.
 */
export function AvailabilitySwitch() {
  const { t, locale } = useWords();
  const state = useSyncExternalStore(availability.subscribe, availability.snapshot);
  return (
    <>
      <section className="card" aria-live="polite">
        <label className="switch" htmlFor="availability">
          <span>
            {t('avail.label')}
            <br />
            <small className="muted">{t(statusKey(state))}</small>
          </span>
          <input
            id="availability"
            type="checkbox"
            role="switch"
            checked={state.online}
            disabled={state.busy || !state.loaded}
            onChange={(e) => void availability.setOnline(e.target.checked)}
          />
        </label>
        {state.online && (
          <small className="muted">
            {state.onCallUntil && t('avail.until', { time: formatDateTime(state.onCallUntil, locale) })}
            {state.onCallUntil && state.reportedAt && <br />}
            {state.reportedAt && t('avail.position', { time: formatDateTime(state.reportedAt, locale) })}
          </small>
        )}
        {state.error ? (
          <ErrorNotice
            error={state.error}
            onRetry={state.loaded ? undefined : () => void availability.load()}
          />
        ) : null}
      </section>
      {state.consentNeeded && <ConsentPrompt />}
    </>
  );
}

function statusKey(s: AvailabilityState): MessageKey {
  if (s.busy) return 'avail.locating';
  if (!s.loaded) return 'avail.loading';
  if (!s.online) return 'avail.off';
  return s.positionFresh ? 'avail.on' : 'avail.stale';
}
