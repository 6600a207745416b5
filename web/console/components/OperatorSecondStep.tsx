import { useState } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { useI18n } from '../i18n';
import { Field } from '../../shared/fields';
import { adminApi } from '../session';
import { CodeInput, TotpSetup } from './TwoFactor';
import { useAction } from '../../shared/use-action';
import { ActionError } from '../../shared/action-ui';

type Challenge = Schemas['AdminSignInChallengeResponse'];
type SignedIn = Schemas['AdminSignedInResponse'];

/**
 * The operator's second sign-in step, after a right password: a code from the authenticator app (or a recovery
 * code); or, for an account that must set up two-factor first, the new secret to scan and its first code.
 */
export function OperatorSecondStep(props: {
  challenge: Challenge;
  onSignedIn: (answer: SignedIn) => void;
  onRestart: () => void;
}) {
  const { t } = useI18n();
  const { challenge } = props;
  const enrol = challenge.status === 'totp_enrolment_required';
  const [recoveryMode, setRecoveryMode] = useState(false);
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState('');
  const action = useAction();
  const submit = action.onSubmit(async () => {
    const token = challenge.challenge_token;
    const body = recoveryMode
      ? { challenge_token: token, recovery_code: recovery }
      : { challenge_token: token, code };
    props.onSignedIn(await unwrap(adminApi.POST('/v1/admin/login/totp', { body })));
  });
  const title = t(enrol ? 'totp.setup_title' : 'totp.title_code');
  return (
    <form className="card" onSubmit={submit} aria-label={title}>
      <h2>{title}</h2>
      {enrol && challenge.totp_setup && (
        <>
          <p>{t('totp.required_lead')}</p>
          <p className="muted">{t('totp.setup_lead')}</p>
          <TotpSetup setup={challenge.totp_setup} />
        </>
      )}
      <ActionError action={action} />
      {recoveryMode ? (
        <Field
          id="recovery-code"
          label={t('totp.recovery_label')}
          className="mono"
          autoComplete="off"
          required
          value={recovery}
          onChange={setRecovery}
        />
      ) : (
        <CodeInput
          id="totp-code"
          label={t(enrol ? 'totp.first_code' : 'totp.code_label')}
          value={code}
          onChange={setCode}
        />
      )}
      <p className="row">
        <button type="submit" disabled={action.busy}>
          {t('totp.verify')}
        </button>
        {!enrol && (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setRecoveryMode(!recoveryMode);
              action.setError(null);
            }}
          >
            {t(recoveryMode ? 'totp.use_code' : 'totp.use_recovery')}
          </button>
        )}
        <button type="button" className="secondary" onClick={props.onRestart}>
          {t('totp.back')}
        </button>
      </p>
    </form>
  );
}
