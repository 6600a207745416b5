import { useState } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { Field } from '../../shared/fields';
import { formatDateTime } from '../../shared/i18n';
import { formatCents, yuanToCents } from '../../shared/money';
import { ActionError } from '../../shared/action-ui';
import { useAction } from '../../shared/use-action';
import { useI18n } from '../i18n';
import { agentApi } from '../session';

type Key = Schemas['ApiKeyResponse'];

const yuan = (cents: number | null) => (cents === null ? '' : String(cents / 100));

/**
 * The key's spend caps (China time day and month; empty: no cap), the ceiling of one task the person may approve over
 * the cap, and what each capped period has counted (docs/spend-caps.md). Saved whole: an emptied field removes its cap.
 */
export function SpendCaps(props: { apiKey: Key; onChanged: () => void }) {
  const { t, locale } = useI18n();
  const k = props.apiKey;
  const [daily, setDaily] = useState(yuan(k.spend_caps.daily_cents));
  const [monthly, setMonthly] = useState(yuan(k.spend_caps.monthly_cents));
  const [ceiling, setCeiling] = useState(yuan(k.approval_ceiling_cents));
  const [invalid, setInvalid] = useState(false);
  const action = useAction();
  const save = action.onSubmit(async () => {
    const caps: Schemas['SpendCapsRequest'] = {};
    const amounts = [daily, monthly, ceiling].map((v) => (v.trim() === '' ? null : yuanToCents(v)));
    if (amounts.some((a) => a !== null && Number.isNaN(a))) return setInvalid(true);
    setInvalid(false);
    if (amounts[0] !== null) caps.daily_cents = amounts[0];
    if (amounts[1] !== null) caps.monthly_cents = amounts[1];
    await unwrap(
      agentApi.PATCH('/v1/agent/api-keys/{key_id}', {
        params: { path: { key_id: k.id } },
        body: { spend_caps: caps, approval_ceiling_cents: amounts[2] ?? 0 },
      }),
    );
    props.onChanged();
  });
  return (
    <form onSubmit={save} aria-labelledby={`caps-${k.id}`}>
      <fieldset>
        <legend id={`caps-${k.id}`}>{t('caps.title')}</legend>
        <p className="hint">{t('caps.lead')}</p>
        <div className="row">
          <Field
            id={`daily-${k.id}`}
            label={t('caps.daily')}
            value={daily}
            onChange={setDaily}
            inputMode="decimal"
          />
          <Field
            id={`monthly-${k.id}`}
            label={t('caps.monthly')}
            value={monthly}
            onChange={setMonthly}
            inputMode="decimal"
          />
          <Field
            id={`ceiling-${k.id}`}
            label={t('caps.ceiling')}
            value={ceiling}
            onChange={setCeiling}
            inputMode="decimal"
            hint={t('caps.ceiling_hint')}
          />
        </div>
        {invalid && <p role="alert">{t('caps.invalid')}</p>}
        <ActionError action={action} />
        <ul>
          {k.spend.map((p) => (
            <li key={p.period}>
              {t(p.period === 'daily' ? 'caps.counted_daily' : 'caps.counted_monthly', {
                counted: formatCents(p.counted_cents, locale),
                cap: formatCents(p.cap_cents, locale),
                resets: formatDateTime(p.resets_at, locale),
              })}
            </li>
          ))}
        </ul>
        <button type="submit" className="secondary" disabled={action.busy}>
          {t('caps.save')}
        </button>
      </fieldset>
    </form>
  );
}
