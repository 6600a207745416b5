import { Field } from '../../shared/fields';
import { useI18n } from '../i18n';

type Coordinates = { latitude: string; longitude: string };
const AXES = [
  ['latitude', 'lat'],
  ['longitude', 'lng'],
] as const;

/** Latitude and longitude side by side, as typed (the API checks the range); ids `<prefix>-lat` and `<prefix>-lng`. */
export function CoordinateFields(
  props: Coordinates & { idPrefix: string; onChange: (change: Partial<Coordinates>) => void },
) {
  const { t } = useI18n();
  return (
    <div className="grid2">
      {AXES.map(([axis, suffix]) => (
        <Field
          key={axis}
          id={`${props.idPrefix}-${suffix}`}
          label={t(`create.${axis}`)}
          required
          inputMode="decimal"
          value={props[axis]}
          onChange={(value) => props.onChange({ [axis]: value })}
        />
      ))}
    </div>
  );
}
