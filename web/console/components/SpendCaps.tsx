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
  const [amounts, setAmounts] = useState<CapAmounts>({
    daily: yuan(k.spend_caps.daily_cents),
    monthly: yuan(k.spend_caps.monthly_cents),
    ceiling: yuan(k.approval_ceiling_cents),
  });
  const [invalid, setInvalid] = useState(false);
  const action = useAction();
  const save = action.onSubmit(async () => {
    const caps: Schemas['SpendCapsRequest'] = {};
    const cents = (v: string) => (v.trim() === '' ? null : yuanToCents(v));
    const [daily, monthly, ceiling] = [cents(amounts.daily), cents(amounts.monthly), cents(amounts.ceiling)];
    if ([daily, monthly, ceiling].some((a) => a !== null && Number.isNaN(a))) return setInvalid(true);
    setInvalid(false);
    if (daily !== null) caps.daily_cents = daily;
    if (monthly !== null) caps.monthly_cents = monthly;
    await unwrap(
      agentApi.PATCH('/v1/agent/api-keys/{key_id}', {
        params: { path: { key_id: k.id } },
        body: { spend_caps: caps, approval_ceiling_cents: ceiling ?? 0 },
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
          <CapFields
            idOf={(f) => `${f}-${k.id}`}
            value={amounts}
            onChange={setAmounts}
            ceilingHint={t('caps.ceiling_hint')}
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

/** What a person types for spend control, in yuan; '' leaves it unset. */
export interface CapAmounts {
  daily: string;
  monthly: string;
  ceiling: string;
}

const CAP_FIELDS = ['daily', 'monthly', 'ceiling'] as const;

/**
 * The three yuan amounts of spend control, the same words on a key's settings and on an OAuth consent: the China-time
 * day's cap, the month's, and the ceiling of one task the person may approve over them. The ceiling's hint differs
 * (approved in the console, or by a link), so the caller gives it.
 */
export function CapFields(props: {
  idOf: (field: keyof CapAmounts) => string;
  value: CapAmounts;
  onChange: (next: CapAmounts) => void;
  ceilingHint: string;
}) {
  const { t } = useI18n();
  return (
    <>
      {CAP_FIELDS.map((f) => (
        <Field
          key={f}
          id={props.idOf(f)}
          label={t(`caps.${f}`)}
          value={props.value[f]}
          onChange={(v) => props.onChange({ ...props.value, [f]: v })}
          inputMode="decimal"
          hint={f === 'ceiling' ? props.ceilingHint : undefined}
        />
      ))}
    </>
  );
}
