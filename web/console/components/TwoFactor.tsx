import { useState } from 'react';
import type { Schemas } from '../../shared/api';
import { useI18n } from '../i18n';
import { QrCode } from './QrCode';

/**
 * The pieces of two-factor sign-in shared by the sign-in screen and the security page: a secret to add to an
 * authenticator app (its QR code and the key to type in), the 6-digit code field, and the recovery codes shown once.
 */
export function TotpSetup({ setup }: { setup: Schemas['TotpSetupResponse'] }) {
  const { t } = useI18n();
  return (
    <div className="totp-setup">
      <QrCode text={setup.otpauth_uri} label={t('totp.qr_label')} size={200} />
      <label htmlFor="totp-secret">{t('totp.secret_label')}</label>
      <input
        id="totp-secret"
        readOnly
        className="mono"
        value={setup.secret.replace(/(.{4})(?=.)/g, '$1 ')}
        onFocus={(e) => e.target.select()}
      />
    </div>
  );
}

/** The code an authenticator app shows: six digits, offered by the phone's keyboard and password managers. */
export function CodeInput(props: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const { t } = useI18n();
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className="mono code-input"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        aria-describedby={`${props.id}-hint`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value.replace(/\D/g, ''))}
      />
      <p id={`${props.id}-hint`} className="hint">
        {t('totp.code_hint')}
      </p>
    </>
  );
}

/** Recovery codes, shown this once: listed, copyable together, gone when the operator says they are saved. */
export function RecoveryCodes(props: { codes: string[]; onDone: () => void }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  return (
    <section className="card shown-once" aria-labelledby="recovery-title">
      <h2 id="recovery-title">{t('totp.recovery_title')}</h2>
      <p className="warn-text">{t('totp.recovery_lead')}</p>
      <ul className="recovery-codes mono" aria-label={t('totp.recovery_list')}>
        {props.codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <p className="row">
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void navigator.clipboard?.writeText(props.codes.join('\n')).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? t('totp.recovery_copied') : t('totp.recovery_copy')}
        </button>
        <button type="button" onClick={props.onDone}>
          {t('totp.recovery_done')}
        </button>
      </p>
    </section>
  );
}
