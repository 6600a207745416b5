import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { workerRegisterSkillsValues as SKILLS } from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { LanguageSwitch, useI18n } from '../../shared/i18n';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { availability } from '../availability';
import { api, session } from '../session';

type Skill = (typeof SKILLS)[number];

/** The worker's profile: name and skills (editable), reputation and what it is made of, language, logout. */
export function Profile() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const profile = useAsync(() => unwrap(api.GET('/v1/worker/profile')), []);
  const p = profile.data;
  const logout = async () => {
    availability.signOut();
    await session.logOut();
    await navigate('/login', { replace: true });
  };
  return (
    <main className="screen">
      <div className="topbar">
        <h1>{t('profile.title')}</h1>
        <LanguageSwitch />
      </div>
      {profile.error ? <ErrorNotice error={profile.error} onRetry={() => void profile.reload()} /> : null}
      {!p && profile.loading && <Loading />}
      {p && <Reputation profile={p} />}
      {p && <EditProfile profile={p} onSaved={() => void profile.reload()} />}
      <p className="muted">{t('profile.install')}</p>
      <div className="actions one">
        <button type="button" className="secondary" onClick={() => void logout()}>
          {t('auth.logout')}
        </button>
      </div>
    </main>
  );
}

function Reputation({ profile }: { profile: Schemas['WorkerResponse'] }) {
  const { t } = useI18n();
  const d = profile.reputation_details;
  return (
    <section className="card" aria-labelledby="rep-title">
      <h2 id="rep-title">
        {t('profile.reputation')}: <span className="pay">{profile.reputation.toFixed(1)}</span> / 5
      </h2>
      <p className="muted">{t('profile.rep_explained')}</p>
      <ul>
        <li>{t('profile.rep_finished', { n: d.finished_tasks, approved: d.approved_tasks })}</li>
        <li>
          {d.rating_average != null
            ? t('profile.rep_rating', { rating: d.rating_average.toFixed(1), count: d.rating_count })
            : t('profile.rep_no_rating')}
        </li>
        {d.median_response_minutes != null && (
          <li>{t('profile.rep_response', { minutes: Math.round(d.median_response_minutes) })}</li>
        )}
        <li>{t('profile.rep_limit', { n: d.live_assignment_limit })}</li>
      </ul>
    </section>
  );
}

function EditProfile(props: { profile: Schemas['WorkerResponse']; onSaved: () => void }) {
  const { t } = useI18n();
  const [name, setName] = useState(props.profile.display_name ?? '');
  const [skills, setSkills] = useState<Skill[]>(props.profile.skills);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => setSaved(false), [name, skills]);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await unwrap(
        api.PATCH('/v1/worker/profile', {
          body: { ...(name.trim() ? { display_name: name.trim() } : {}), skills },
        }),
      );
      setSaved(true);
      props.onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="card"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p>
        {t('profile.phone')}: {props.profile.phone_number}
      </p>
      <label htmlFor="profile-name">{t('profile.name')}</label>
      <input id="profile-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      <fieldset className="checks" style={{ border: 0, padding: 0 }}>
        <legend>
          <strong>{t('profile.skills')}</strong>
        </legend>
        {SKILLS.map((s) => (
          <label key={s}>
            <input
              type="checkbox"
              checked={skills.includes(s)}
              onChange={(e) => setSkills(e.target.checked ? [...skills, s] : skills.filter((x) => x !== s))}
            />
            {t(`skill.${s}`)}
          </label>
        ))}
      </fieldset>
      {error ? <ErrorNotice error={error} /> : null}
      {saved && (
        <p className="notice" role="status">
          {t('profile.saved')}
        </p>
      )}
      <div className="actions one">
        <button type="submit" disabled={busy}>
          {t('profile.save')}
        </button>
      </div>
    </form>
  );
}
