import { useSyncExternalStore } from 'react';
import { formatDateTime, useI18n } from '../../shared/i18n';
import { ErrorNotice } from '../../shared/ui';
import { availability } from '../availability';

/** The online switch: a real checkbox with role=switch, so screen readers say "on"/"off". */
export function AvailabilitySwitch() {
  const { t, locale } = useI18n();
  const state = useSyncExternalStore(availability.subscribe, availability.snapshot);
  return (
    <section className="card" aria-live="polite">
      <label className="switch" htmlFor="availability">
        <span>
          {t('avail.label')}
          <br />
          <small className="muted">
            {state.busy ? t('avail.locating') : state.online ? t('avail.on') : t('avail.off')}
          </small>
        </span>
        <input
          id="availability"
          type="checkbox"
          role="switch"
          checked={state.online}
          disabled={state.busy}
          onChange={(e) => void availability.setOnline(e.target.checked)}
        />
      </label>
      {state.online && state.reportedAt && (
        <small className="muted">
          {t('avail.position', { time: formatDateTime(state.reportedAt, locale) })}
        </small>
      )}
      {state.error ? <ErrorNotice error={state.error} /> : null}
    </section>
  );
}
