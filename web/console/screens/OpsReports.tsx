import { useState } from 'react';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { unwrap } from '../../shared/api';
import { SelectField } from '../../shared/fields';
import { useAction } from '../../shared/use-action';
import { useI18n } from '../i18n';
import { lastCompleteQuarter, recentQuarters } from '../quarters';
import { saveFile } from '../save-file';
import { adminApi } from '../session';

/** How many quarters the picker offers: the current one and the two years before it. */
const QUARTERS = 9;

/**
 * The operators' reports (product-decisions §19): the quarterly worker-income file, per worker from the ledger, with
 * quarters drawn in China time as the API draws them. The file is fetched with the operator's session and saved
 * (saveFile); a refusal is shown in words.
 */
export function OpsReports() {
  const { t } = useI18n();
  const [now] = useState(() => new Date());
  const quarters = recentQuarters(now, QUARTERS);
  const [quarter, setQuarter] = useState(() => lastCompleteQuarter(now));
  const [saved, setSaved] = useState<string | null>(null);
  const action = useAction();
  const download = async () => {
    setSaved(null);
    const blob = await unwrap(
      adminApi.GET('/v1/admin/reports/worker-income', {
        params: { query: { quarter } },
        parseAs: 'blob',
      }),
    );
    const file = `worker-income-${quarter}.csv`;
    saveFile(blob, file);
    setSaved(file);
  };
  return (
    <>
      <h1>{t('nav.ops_reports')}</h1>
      <section className="card" aria-labelledby="income-h">
        <h2 id="income-h">{t('income.title')}</h2>
        <p className="muted">{t('income.lead')}</p>
        <div className="inline-form">
          <SelectField
            id="income-quarter"
            label={t('income.quarter')}
            value={quarter}
            options={quarters}
            optionLabel={(q) => (q === quarters[0] ? t('income.current', { quarter: q }) : q)}
            onChange={(q) => {
              setQuarter(q);
              setSaved(null);
              action.setError(null);
            }}
          />
          <div className="row">
            <ActionButton action={action} onClick={download}>
              {t('income.download')}
            </ActionButton>
          </div>
        </div>
        <ActionError action={action} />
        {saved && (
          <p className="notice" role="status">
            {t('income.saved', { file: saved })}
          </p>
        )}
      </section>
    </>
  );
}
