import { workerRegisterSkillsValues as SKILLS } from '@legwork/sdk/types';
import type { Locale } from '../shared/locale';
import { direction } from './geo';
import { useWords } from './messages';

/**
 * How the worker app writes units and a label's colon in each language, in one place, so a screen never shows
 * "29 m" beside "100 米" or an ASCII colon in Chinese. Chinese: 米 and 公里, the full-width colon; English: m and
 * km, a colon and a space. The catalogues follow the same style in their own words (messages/). The two components
 * below are the task facts several screens show in these words (here rather than in components/: one chunk of the
 * build with the helpers, not one more file for a phone to fetch).
 */
const STYLE: Record<Locale, { m: string; km: string; colon: string }> = {
  'zh-CN': { m: '米', km: '公里', colon: '：' },
  en: { m: 'm', km: 'km', colon: ': ' },
};

/** Whole metres below 1 km, kilometres with one decimal below 10 km, whole kilometres above. */
export function formatDistance(meters: number, locale: Locale): string {
  const { m, km } = STYLE[locale];
  if (meters < 1000) return `${Math.round(meters)} ${m}`;
  const kms = meters / 1000;
  return `${kms < 10 ? Math.round(kms * 10) / 10 : Math.round(kms)} ${km}`;
}

/** A label before its value: "审核结果：" in Chinese, "Verdict: " in English. */
export function labelled(label: string, locale: Locale): string {
  return `${label}${STYLE[locale].colon}`;
}

type Point = { latitude: number; longitude: number };
type Skill = (typeof SKILLS)[number];
export const isSkill = (s: string): s is Skill => (SKILLS as readonly string[]).includes(s);

/**
 * How far a task is, in the units of the language, with the compass point from the worker when the phone's
 * position is known: "距离 400 米（东）", "400 m away (E)".
 */
export function DistanceText(props: {
  meters: number | null | undefined;
  from?: Point | null;
  to?: Point | null;
}) {
  const { t, locale } = useWords();
  if (props.meters == null) return <>{t('tasks.distance_unknown')}</>;
  const distance = formatDistance(props.meters, locale);
  if (!props.from || !props.to) return <>{t('tasks.distance', { distance })}</>;
  return <>{t('tasks.distance_dir', { distance, dir: t(`dir.${direction(props.from, props.to)}`) })}</>;
}

/** The skills a task needs as badges, after a label a screen reader always hears and a sighted person may not. */
export function SkillBadges(props: { skills: readonly string[]; labelShown: boolean }) {
  const { t, locale } = useWords();
  if (props.skills.length === 0) return null;
  return (
    <p className="meta" style={props.labelShown ? undefined : { marginBottom: 0 }}>
      <span className={props.labelShown ? undefined : 'visually-hidden'}>
        {labelled(t('tasks.skills'), locale)}
      </span>
      {props.skills.map((s) => (
        <span key={s} className="badge">
          {isSkill(s) ? t(`skill.${s}`) : s}
        </span>
      ))}
    </p>
  );
}
