import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { unwrap } from '../../shared/api';
import { LanguageSwitch } from '../../shared/i18n';
import { useWords } from '../messages';
import { ErrorNotice } from '../../shared/ui';
import { api, session } from '../session';
import { type Skill, SkillChecks } from '../components/SkillChecks';

type Mode = 'login' | 'signup' | 'reset';
type Purpose = 'register' | 'reset_password';

/**
 * Log in (phone and password), sign up (phone, SMS code, password, optional name and skills) and reset a forgotten
 * password (phone, SMS code, new password). In sandbox mode the API returns the SMS code it "sent", and the screen
 * shows it so a tester needs no phone.
 */
export function SignIn() {
  const { t } = useWords();
  const navigate = useNavigate();
  const location = useLocation();
  const [mode, setMode] = useState<Mode>('login');
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const done = () => {
    const from = (location.state as { from?: string } | null)?.from;
    void navigate(from && from !== '/login' ? from : '/tasks', { replace: true });
  };
  const choose = (next: Mode) => {
    setMode(next);
    setError(null);
    setNotice(null);
  };
  return (
    <main className="screen">
      <div className="topbar">
        <h1>{t('app.name')}</h1>
        <LanguageSwitch />
      </div>
      <p className="muted">{t('auth.tagline')}</p>
      <div className="tabs" role="tablist">
        {(['login', 'signup', 'reset'] as const).map((m) => (
          <button key={m} type="button" role="tab" aria-selected={mode === m} onClick={() => choose(m)}>
            {t(`auth.${m}`)}
          </button>
        ))}
      </div>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      {error ? <ErrorNotice error={error} /> : null}
      {mode === 'login' && <LoginForm onError={setError} onDone={done} />}
      {mode === 'signup' && <SignUpForm onError={setError} onDone={done} />}
      {mode === 'reset' && (
        <ResetForm
          onError={setError}
          onDone={() => {
            choose('login');
            setNotice(t('auth.reset_done'));
          }}
        />
      )}
    </main>
  );
}

interface FormProps {
  onError: (error: unknown) => void;
  onDone: () => void;
}

function useSubmit(onError: (error: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const submit = (work: () => Promise<void>) => async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    onError(null);
    try {
      await work();
    } catch (err) {
      onError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, submit };
}

function LoginForm({ onError, onDone }: FormProps) {
  const { t } = useWords();
  const [phone, setPhone] = useState('');
  const [password, setPassword] = useState('');
  const { busy, submit } = useSubmit(onError);
  const onSubmit = submit(async () => {
    session.signIn(await unwrap(api.POST('/v1/worker/login', { body: { phone_number: phone, password } })));
    onDone();
  });
  return (
    <form onSubmit={(e) => void onSubmit(e)} aria-label={t('auth.login')}>
      <PhoneField value={phone} onChange={setPhone} />
      <label htmlFor="login-password">{t('auth.password')}</label>
      <input
        id="login-password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <div className="actions one">
        <button type="submit" disabled={busy}>
          {t('auth.submit_login')}
        </button>
      </div>
    </form>
  );
}

function SignUpForm({ onError, onDone }: FormProps) {
  const { t } = useWords();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const [skills, setSkills] = useState<Skill[]>(['photography']);
  const { busy, submit } = useSubmit(onError);
  const onSubmit = submit(async () => {
    const answer = await unwrap(
      api.POST('/v1/worker/register', {
        body: {
          phone_number: phone,
          sms_code: code,
          password,
          ...(name.trim() ? { display_name: name.trim() } : {}),
          skills,
        },
      }),
    );
    session.signIn(answer);
    onDone();
  });
  return (
    <form onSubmit={(e) => void onSubmit(e)} aria-label={t('auth.signup')}>
      <PhoneField value={phone} onChange={setPhone} />
      <CodeField phone={phone} purpose="register" value={code} onChange={setCode} onError={onError} />
      <PasswordField
        id="signup-password"
        label={t('auth.password')}
        value={password}
        onChange={setPassword}
      />
      <label htmlFor="signup-name">{t('auth.display_name')}</label>
      <input
        id="signup-name"
        autoComplete="nickname"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <SkillChecks legend={t('auth.skills')} value={skills} onChange={setSkills} />
      <div className="actions one">
        <button type="submit" disabled={busy}>
          {t('auth.submit_signup')}
        </button>
      </div>
    </form>
  );
}

function ResetForm({ onError, onDone }: FormProps) {
  const { t } = useWords();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const { busy, submit } = useSubmit(onError);
  const onSubmit = submit(async () => {
    await unwrap(
      api.POST('/v1/worker/reset-password', {
        params: { query: { phone_number: phone, code, new_password: password } },
      }),
    );
    onDone();
  });
  return (
    <form onSubmit={(e) => void onSubmit(e)} aria-label={t('auth.reset')}>
      <PhoneField value={phone} onChange={setPhone} />
      <CodeField phone={phone} purpose="reset_password" value={code} onChange={setCode} onError={onError} />
      <PasswordField
        id="reset-password"
        label={t('auth.new_password')}
        value={password}
        onChange={setPassword}
      />
      <div className="actions one">
        <button type="submit" disabled={busy}>
          {t('auth.submit_reset')}
        </button>
      </div>
    </form>
  );
}

function PhoneField(props: { value: string; onChange: (v: string) => void }) {
  const { t } = useWords();
  return (
    <>
      <label htmlFor="phone">{t('auth.phone')}</label>
      <input
        id="phone"
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        pattern="1[3-9][0-9]{9}"
        maxLength={11}
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value.trim())}
      />
    </>
  );
}

function PasswordField(props: { id: string; label: string; value: string; onChange: (v: string) => void }) {
  const { t } = useWords();
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="password"
        autoComplete="new-password"
        minLength={8}
        maxLength={128}
        required
        aria-describedby={`${props.id}-hint`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <small id={`${props.id}-hint`} className="muted">
        {t('auth.password_hint')}
      </small>
    </>
  );
}

/** The code field with its send button, the resend countdown, and the sandbox code when the API returns one. */
function CodeField(props: {
  phone: string;
  purpose: Purpose;
  value: string;
  onChange: (v: string) => void;
  onError: (error: unknown) => void;
}) {
  const { t } = useWords();
  const [wait, setWait] = useState(0);
  const [sent, setSent] = useState<{ sandbox_code?: string } | null>(null);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);
  const send = async () => {
    props.onError(null);
    try {
      const answer = await unwrap(
        api.POST('/v1/worker/send-sms', {
          params: { query: { phone_number: props.phone, purpose: props.purpose } },
        }),
      );
      setSent(answer);
      setWait(Math.ceil(answer.resend_after_seconds));
    } catch (err) {
      props.onError(err);
    }
  };
  return (
    <>
      <label htmlFor={`code-${props.purpose}`}>{t('auth.code')}</label>
      <div className="row" style={{ flexWrap: 'nowrap' }}>
        <input
          id={`code-${props.purpose}`}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={props.value}
          onChange={(e) => props.onChange(e.target.value.trim())}
        />
        <button
          type="button"
          className="secondary"
          style={{ whiteSpace: 'nowrap' }}
          disabled={wait > 0 || !/^1[3-9]\d{9}$/.test(props.phone)}
          onClick={() => void send()}
        >
          {wait > 0 ? t('auth.resend_in', { seconds: wait }) : t('auth.send_code')}
        </button>
      </div>
      {sent && (
        <p className="notice" role="status">
          {sent.sandbox_code ? t('auth.sandbox_code', { code: sent.sandbox_code }) : t('auth.code_sent')}
        </p>
      )}
    </>
  );
}
