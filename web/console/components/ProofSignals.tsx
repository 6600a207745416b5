import type { Schemas } from '../../shared/api';
import { useI18n, type MessageKey } from '../i18n';

type Signal = Schemas['ProofSignalView'];
type Risk = Schemas['PhotoVerification']['risk'];

const RISK_TONE: Record<Risk, string> = { low: 'ok', medium: 'warn', high: 'bad' };

/** A photo's (or a submission's) risk as a badge, in words: the colour alone says nothing to a screen reader. */
export function RiskBadge({ risk }: { risk: Risk }) {
  const { t } = useI18n();
  return (
    <span className={`badge ${RISK_TONE[risk]}`} data-testid="risk">
      {t(`risk.${risk}`)}
    </span>
  );
}

/** The words for a signal: reused_photo says whose photo it matched when the API tells (own or another worker's). */
function signalKey(s: Signal): MessageKey {
  if (s.code === 'reused_photo' && s.scope) return `signal.reused_photo_${s.scope}`;
  return `signal.${s.code}`;
}

/**
 * Each signal in words (product-decisions §18), with the API's own detail under it for whoever wants the figures. The
 * code stays in a data attribute for tests and support, never as the text a person reads.
 */
export function SignalList({ signals }: { signals: Signal[] }) {
  const { t } = useI18n();
  if (signals.length === 0) return null;
  return (
    <ul className="signals">
      {signals.map((s, i) => (
        <li key={`${s.code}-${i}`} data-signal={s.code}>
          {t(signalKey(s))}
          <br />
          <span className="muted">{t('signal.detail', { detail: s.detail })}</span>
        </li>
      ))}
    </ul>
  );
}
