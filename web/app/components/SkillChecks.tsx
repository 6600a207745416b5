import { workerRegisterSkillsValues as SKILLS } from '@legwork/sdk/types';
import { useWords } from '../messages';

export type Skill = (typeof SKILLS)[number];

/** The worker's skills as checkboxes under one legend (sign-up and the profile). */
export function SkillChecks(props: { legend: string; value: Skill[]; onChange: (skills: Skill[]) => void }) {
  const { t } = useWords();
  const { value, onChange } = props;
  return (
    <fieldset className="checks" style={{ border: 0, padding: 0 }}>
      <legend>
        <strong>{props.legend}</strong>
      </legend>
      {SKILLS.map((s) => (
        <label key={s}>
          <input
            type="checkbox"
            checked={value.includes(s)}
            onChange={(e) => onChange(e.target.checked ? [...value, s] : value.filter((x) => x !== s))}
          />
          {t(`skill.${s}`)}
        </label>
      ))}
    </fieldset>
  );
}
