import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { ListState, ReloadButton } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { adminApi } from '../session';
import { DataTable } from '../components/DataTable';

/** The payment providers' health, as the API checks it. */
export function OpsHealth() {
  const { t, locale } = useI18n();
  const state = useAsync(() => unwrap(adminApi.GET('/v1/admin/payments/health')), []);
  const providers = Object.entries(
    (state.data?.providers ?? {}) as Record<string, Schemas['ProviderHealthView']>,
  );
  return (
    <>
      <div className="row spread">
        <h1>{t('nav.ops_health')}</h1>
        <ReloadButton state={state}>{t('common.refresh')}</ReloadButton>
      </div>
      <ListState state={state} />
      {state.data && (
        <>
          <p>
            <span className={`badge ${state.data.status === 'ok' ? 'ok' : 'bad'}`}>
              {t(`health.${state.data.status}`)}
            </span>{' '}
            {t('health.summary', { n: state.data.available_count, total: state.data.total_providers })} ·{' '}
            {formatDateTime(state.data.checked_at, locale)}
          </p>
          <DataTable
            columns={[
              t('health.provider'),
              t('col.status'),
              { label: t('health.latency'), num: true },
              t('health.error'),
            ]}
          >
            {providers.map(([name, p]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>
                  <span className={`badge ${p.status === 'available' ? 'ok' : 'bad'}`}>
                    {t(`health.${p.status}`)}
                  </span>
                </td>
                <td className="num">{p.latency_ms ?? '—'} ms</td>
                <td>{p.error ?? ''}</td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </>
  );
}

export function OpsLedger() {
  const { t, locale } = useI18n();
  const state = useAsync(() => unwrap(adminApi.GET('/v1/admin/ledger/check')), []);
  return (
    <>
      <div className="row spread">
        <h1>{t('nav.ops_ledger')}</h1>
        <ReloadButton state={state}>{t('ledger.run')}</ReloadButton>
      </div>
      <p className="muted">{t('ledger.lead')}</p>
      <ListState state={state} />
      {state.data && (
        <section className="card" aria-live="polite" data-testid="ledger">
          <p>
            <span className={`badge ${state.data.ok ? 'ok' : 'bad'}`}>
              {t(state.data.ok ? 'ledger.ok' : 'ledger.bad')}
            </span>{' '}
            {t('ledger.summary', {
              accounts: state.data.accounts,
              journals: state.data.journals,
              at: formatDateTime(state.data.checked_at, locale),
            })}
          </p>
          {state.data.violations.length > 0 && (
            <ul>
              {state.data.violations.map((v, i) => (
                <li key={i}>
                  <strong>{v.invariant}</strong>: <span className="mono">{v.detail}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}
