import { Field } from '../../shared/fields';
import { useI18n } from '../i18n';

/** Latitude and longitude side by side, as typed (the API checks the range); ids `<prefix>-lat` and `<prefix>-lng`. */
export function CoordinateFields(props: {
  idPrefix: string;
  latitude: string;
  longitude: string;
  onChange: (change: { latitude: string } | { longitude: string }) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="grid2">
      <Field
        id={`${props.idPrefix}-lat`}
        label={t('create.latitude')}
        required
        inputMode="decimal"
        value={props.latitude}
        onChange={(latitude) => props.onChange({ latitude })}
      />
      <Field
        id={`${props.idPrefix}-lng`}
        label={t('create.longitude')}
        required
        inputMode="decimal"
        value={props.longitude}
        onChange={(longitude) => props.onChange({ longitude })}
      />
    </div>
  );
}
