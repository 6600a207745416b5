import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { unwrap, type Schemas } from '../../shared/api';
import { LanguageSwitch } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { Field } from '../../shared/fields';
import { OperatorSecondStep } from '../components/OperatorSecondStep';
import { ShownOnce } from '../components/Secret';
import { RecoveryCodes } from '../components/TwoFactor';
import { adminApi, adminSession, agentApi, agentSession } from '../session';
import { useAction } from '../../shared/use-action';
import { ActionError } from '../../shared/action-ui';

type Mode = 'login' | 'register' | 'operator';

/**
 * Sign in as an agent (email and password), register a new agent account, or sign in as an operator (the password,
 * then a second factor when the account has or needs one). A new account's first API key and secret, and an
 * operator's first recovery codes, are shown here once, before the pages.
 */
export function Login() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const state = useLocation().state as { from?: string; operator?: boolean } | null;
  const [mode, setMode] = useState<Mode>(state?.operator ? 'operator' : 'login');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [organization, setOrganization] = useState('');
  const [created, setCreated] = useState<Schemas['AgentAuthResponse'] | null>(null);
  const [challenge, setChallenge] = useState<Schemas['AdminSignInChallengeResponse'] | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const action = useAction();
  const go = (fallback: string) => {
    const from = state?.from;
    const ops = fallback.startsWith('/ops');
    const back = from && from !== '/login' && from.startsWith('/ops') === ops ? from : fallback;
    void navigate(back, { replace: true });
  };
  const submit = action.onSubmit(async () => {
    if (mode === 'operator') {
      const answer = await unwrap(adminApi.POST('/v1/admin/login', { body: { email, password } }));
      if (answer.status === 'signed_in') operatorSignedIn(answer);
      else setChallenge(answer);
    } else if (mode === 'login') {
      agentSession.signIn(await unwrap(agentApi.POST('/v1/agent/login', { body: { email, password } })));
      go('/');
    } else {
      const answer = await unwrap(
        agentApi.POST('/v1/agent/register', {
          body: {
            email,
            password,
            ...(organization.trim() ? { organization_name: organization.trim() } : {}),
          },
        }),
      );
      agentSession.signIn(answer);
      setCreated(answer);
    }
  });
  function operatorSignedIn(answer: Schemas['AdminSignedInResponse']) {
    adminSession.signIn(answer);
    if (answer.recovery_codes) setRecoveryCodes(answer.recovery_codes);
    else go('/ops');
  }
  if (recoveryCodes) {
    return (
      <main className="narrow">
        <h1>{t('console.title')}</h1>
        <RecoveryCodes codes={recoveryCodes} onDone={() => go('/ops')} />
      </main>
    );
  }
  if (challenge) {
    return (
      <main className="narrow">
        <TitleBar />
        <OperatorSecondStep
          challenge={challenge}
          onSignedIn={operatorSignedIn}
          onRestart={() => {
            setChallenge(null);
            setPassword('');
          }}
        />
      </main>
    );
  }
  if (created) {
    return (
      <main className="narrow">
        <h1>{t('auth.welcome', { name: created.organization_name || created.email })}</h1>
        <ShownOnce
          items={[
            [t('keys.api_key'), created.api_key ?? ''],
            [t('keys.api_secret'), created.api_secret ?? ''],
          ]}
          onDone={() => go('/')}
        />
      </main>
    );
  }
  const tabs: Mode[] = ['login', 'register', 'operator'];
  return (
    <main className="narrow">
      <TitleBar />
      <p className="muted">{t('console.lead')}</p>
      <div className="tabs" role="tablist" aria-label={t('auth.choose')}>
        {tabs.map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            aria-selected={mode === m}
            className={mode === m ? '' : 'secondary'}
            onClick={() => {
              setMode(m);
              action.setError(null);
            }}
          >
            {t(`auth.tab_${m}`)}
          </button>
        ))}
      </div>
      <form className="card" onSubmit={submit} aria-label={t(`auth.tab_${mode}`)}>
        {mode === 'operator' && adminSession.endedWith === 'session_expired' && (
          <p className="notice" role="status">
            {t('auth.session_expired')}
          </p>
        )}
        <ActionError action={action} />
        <Field
          id="email"
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={setEmail}
        />
        <Field
          id="password"
          label={t('auth.password')}
          type="password"
          autoComplete={mode === 'register' ? 'new-password' : 'current-password'}
          required
          minLength={mode === 'register' ? 8 : undefined}
          hint={mode === 'register' ? t('auth.password_hint') : undefined}
          value={password}
          onChange={setPassword}
        />
        {mode === 'register' && (
          <Field
            id="organization"
            label={t('auth.organization')}
            autoComplete="organization"
            value={organization}
            onChange={setOrganization}
          />
        )}
        <p>
          <button type="submit" disabled={action.busy}>
            {t(`auth.submit_${mode}`)}
          </button>
        </p>
      </form>
    </main>
  );
}

/** The sign-in screens' heading, with the language switch beside it. */
function TitleBar() {
  const { t } = useI18n();
  return (
    <div className="row spread">
      <h1>{t('console.title')}</h1>
      <LanguageSwitch />
    </div>
  );
}
