import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { unwrap, type Schemas } from '../../shared/api';
import { useAction } from '../../shared/use-action';
import { LanguageSwitch } from '../../shared/i18n';
import { labelled } from '../format';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { availability } from '../availability';
import { LocationConsent } from '../components/LocationConsent';
import { NotificationSettings } from '../components/NotificationSettings';
import { type Skill, SkillChecks } from '../components/SkillChecks';
import { forgetOfferPush } from '../push';
import { Standing } from '../components/Standing';
import { api, session } from '../session';

/**
 * The worker's profile: what was decided about the account and the way to ask for a review (Standing), name and
 * skills (editable), reputation and what it is made of, how offers reach a closed app, the consent to precise
 * location, language, logout.
 */
export function Profile() {
  const { t } = useWords();
  const navigate = useNavigate();
  const profile = useAsync(() => unwrap(api.GET('/v1/worker/profile')), []);
  const p = profile.data;
  const logout = async () => {
    availability.signOut();
    await forgetOfferPush();
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
      <Standing />
      {p && <Reputation profile={p} />}
      {p && <EditProfile profile={p} onSaved={() => void profile.reload()} />}
      <NotificationSettings />
      <LocationConsent />
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
  const { t, locale } = useWords();
  const d = profile.reputation_details;
  return (
    <section className="card" aria-labelledby="rep-title">
      <h2 id="rep-title">
        {labelled(t('profile.reputation'), locale)}
        <span className="pay">{profile.reputation.toFixed(1)}</span> / 5
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
  const { t, locale } = useWords();
  const [name, setName] = useState(props.profile.display_name ?? '');
  const [skills, setSkills] = useState<Skill[]>(props.profile.skills);
  const [saved, setSaved] = useState(false);
  const { busy, error, onSubmit } = useAction();
  useEffect(() => setSaved(false), [name, skills]);
  const save = onSubmit(async () => {
    await unwrap(
      api.PATCH('/v1/worker/profile', {
        body: { ...(name.trim() ? { display_name: name.trim() } : {}), skills },
      }),
    );
    setSaved(true);
    props.onSaved();
  });
  return (
    <form className="card" onSubmit={save}>
      <p>
        {labelled(t('profile.phone'), locale)}
        {props.profile.phone_number}
      </p>
      <label htmlFor="profile-name">{t('profile.name')}</label>
      <input id="profile-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      <SkillChecks legend={t('profile.skills')} value={skills} onChange={setSkills} />
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
