import { createApiKeyRequestPermissionsValues as PERMISSIONS } from '@legwork/sdk/types';
import { Checks } from '../../shared/fields';

export type Permission = (typeof PERMISSIONS)[number];

/**
 * The API's permissions as checkboxes, each under its own name: what a key may do (API keys) and what an app may do
 * for the person (OAuth consent) are the same list, generated from openapi.json, so a new permission appears in both.
 */
export function PermissionChecks(props: {
  legend: string;
  legendId?: string;
  checked: readonly Permission[];
  onChange: (next: Permission[]) => void;
}) {
  return (
    <fieldset>
      <legend id={props.legendId}>{props.legend}</legend>
      <Checks
        options={PERMISSIONS}
        checked={props.checked}
        onChange={props.onChange}
        optionLabel={(p) => <span className="mono">{p}</span>}
      />
    </fieldset>
  );
}
