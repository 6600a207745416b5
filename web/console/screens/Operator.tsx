import { useState } from 'react';
import {
  pathsV1AdminWithdrawalsGetParametersQueryStatusValues as WITHDRAWAL_STATUSES,
  updateAgentRequestAccount_statusValues as ACCOUNT_STATUSES,
  updateAgentRequestTierValues as TIERS,
} from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { formatCents, yuanToCents } from '../../shared/money';
import { ListState, ReloadButton } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { adminApi } from '../session';
import { useAction } from '../../shared/use-action';
import { Pager, useOffsetPages } from '../../shared/pager';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { DataTable } from '../components/DataTable';
import { FilterField } from '../../shared/fields';

type Agent = Schemas['AdminAgentResponse'];
const PAGE = 20;
type WStatus = (typeof WITHDRAWAL_STATUSES)[number];

/** Withdrawals waiting for review first (large amounts and first withdrawals, product-decisions §7). */
export function OpsWithdrawals() {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState<WStatus | ''>('pending_review');
  const pages = useOffsetPages(PAGE);
  const { skip, limit } = pages;
  const list = useAsync(
    () =>
      unwrap(
        adminApi.GET('/v1/admin/withdrawals', {
          params: { query: { skip, limit, ...(status ? { status } : {}) } },
        }),
      ),
    [status, skip],
  );
  return (
    <>
      <h1>{t('nav.ops_withdrawals')}</h1>
      <div className="inline-form">
        <FilterField
          id="w-status"
          label={t('col.status')}
          value={status}
          options={WITHDRAWAL_STATUSES}
          optionLabel={(s) => t(`withdrawal.${s}`)}
          blank={t('tasks.all')}
          onChange={(v) => {
            setStatus(v);
            pages.reset();
          }}
        />
      </div>
      <ListState state={list} count={(d) => d.items.length} empty={t('ops.no_withdrawals')} />
      {list.data && list.data.items.length > 0 && (
        <DataTable
          columns={[
            t('col.when'),
            t('ops.worker'),
            t('ops.alipay'),
            { label: t('col.amount'), num: true },
            t('ops.review_reason'),
            t('col.status'),
            t('col.actions'),
          ]}
        >
          {list.data.items.map((w) => (
            <WithdrawalRow key={w.withdrawal_id} w={w} locale={locale} onChanged={() => void list.reload()} />
          ))}
        </DataTable>
      )}
      {list.data && <Pager {...pages.pager(list.data.items.length, list.data)} />}
    </>
  );
}

function WithdrawalRow(props: {
  w: Schemas['AdminWithdrawalResponse'];
  locale: Parameters<typeof formatCents>[1];
  onChanged: () => void;
}) {
  const { t } = useI18n();
  const { w, locale } = props;
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const action = useAction();
  const path = { params: { path: { id: w.withdrawal_id } } };
  const approve = async () => {
    await unwrap(adminApi.POST('/v1/admin/withdrawals/{id}/approve', path));
    props.onChanged();
  };
  const reject = action.onSubmit(async () => {
    await unwrap(adminApi.POST('/v1/admin/withdrawals/{id}/reject', { ...path, body: { reason } }));
    props.onChanged();
  });
  return (
    <tr data-testid="withdrawal">
      <td>{formatDateTime(w.created_at, locale)}</td>
      <td className="mono">{w.worker_id.slice(0, 8)}</td>
      <td>
        {w.real_name} · <span className="mono">{w.alipay_account}</span>
      </td>
      <td className="num">{formatCents(w.amount_cents, locale)}</td>
      <td>{w.review_reason ? t(`review_reason.${w.review_reason}`) : '—'}</td>
      <td>
        {t(`withdrawal.${w.status}`)}
        {w.rejection_reason ? ` · ${w.rejection_reason}` : ''}
        {w.failure_reason ? ` · ${w.failure_reason}` : ''}
      </td>
      <td>
        <ActionError action={action} />
        {w.status === 'pending_review' && !rejecting && (
          <span className="row">
            <ActionButton action={action} onClick={approve}>
              {t('ops.approve')}
            </ActionButton>
            <button type="button" className="secondary" onClick={() => setRejecting(true)}>
              {t('ops.reject')}
            </button>
          </span>
        )}
        {rejecting && (
          <form onSubmit={reject} aria-label={t('ops.reject')}>
            <label htmlFor={`rr-${w.withdrawal_id}`}>{t('ops.reject_reason')}</label>
            <input
              id={`rr-${w.withdrawal_id}`}
              required
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
            <span className="row">
              <button type="submit" className="danger" disabled={action.busy}>
                {t('ops.reject')}
              </button>
              <button type="button" className="secondary" onClick={() => setRejecting(false)}>
                {t('common.cancel')}
              </button>
            </span>
          </form>
        )}
      </td>
    </tr>
  );
}

/** Agents: tier, fee rate, account status, and a manual credit (a bank transfer received). */
export function OpsAgents() {
  const { t } = useI18n();
  const pages = useOffsetPages(PAGE);
  const { skip, limit } = pages;
  const list = useAsync(
    () => unwrap(adminApi.GET('/v1/admin/agents', { params: { query: { skip, limit } } })),
    [skip],
  );
  return (
    <>
      <h1>{t('nav.ops_agents')}</h1>
      <ListState state={list} count={(d) => d.items.length} empty={t('ops.no_agents')} />
      {list.data?.items.map((a) => (
        <AgentCard key={a.agent_id} agent={a} onChanged={() => void list.reload()} />
      ))}
      {list.data && <Pager {...pages.pager(list.data.items.length, list.data)} />}
    </>
  );
}

function AgentCard({ agent: a, onChanged }: { agent: Agent; onChanged: () => void }) {
  const { t, locale } = useI18n();
  const [tier, setTier] = useState(a.tier);
  const [fee, setFee] = useState(a.fee_bps == null ? '' : String(a.fee_bps));
  const [status, setStatus] = useState(a.account_status);
  const [credit, setCredit] = useState('');
  const [reason, setReason] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const action = useAction();
  const id = a.agent_id;
  const save = action.onSubmit(async () => {
    await unwrap(
      adminApi.PATCH('/v1/admin/agents/{id}', {
        params: { path: { id } },
        body: {
          tier,
          account_status: status,
          fee_bps: fee.trim() === '' ? null : Number(fee),
        },
      }),
    );
    setNotice(t('ops.saved'));
    onChanged();
  });
  const addCredit = action.onSubmit(async () => {
    const cents = yuanToCents(credit);
    const answer = await unwrap(
      adminApi.POST('/v1/admin/agents/{id}/credit', {
        params: { path: { id } },
        body: { amount_cents: Number.isNaN(cents) ? -1 : cents, reason },
      }),
    );
    setCredit('');
    setReason('');
    setNotice(t('ops.credited', { balance: formatCents(answer.balance_cents, locale) }));
  });
  return (
    <section className="card" aria-labelledby={`agent-${id}`}>
      <div className="row spread">
        <h2 id={`agent-${id}`}>
          {a.organization_name || a.company_name || a.email} <span className="muted">{a.email}</span>
        </h2>
        <span className="muted">
          <span className="mono">{a.api_key_prefix}</span> · {formatDateTime(a.created_at, locale)}
        </span>
      </div>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ActionError action={action} />
      <div className="two-col">
        <form onSubmit={save} aria-label={t('ops.settings')}>
          <div className="grid3">
            <div>
              <label htmlFor={`tier-${id}`}>{t('ops.tier')}</label>
              <select id={`tier-${id}`} value={tier} onChange={(e) => setTier(e.target.value as typeof tier)}>
                {TIERS.map((x) => (
                  <option key={x} value={x}>
                    {t(`tier.${x}`)}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`fee-${id}`}>{t('ops.fee_bps')}</label>
              <input
                id={`fee-${id}`}
                type="number"
                min={0}
                max={10000}
                placeholder={t('ops.fee_default')}
                value={fee}
                onChange={(e) => setFee(e.target.value)}
              />
            </div>
            <div>
              <label htmlFor={`status-${id}`}>{t('ops.account_status')}</label>
              <select
                id={`status-${id}`}
                value={status}
                onChange={(e) => setStatus(e.target.value as typeof status)}
              >
                {ACCOUNT_STATUSES.map((x) => (
                  <option key={x} value={x}>
                    {t(`account.${x}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p>
            <button type="submit" className="secondary" disabled={action.busy}>
              {t('ops.save')}
            </button>
          </p>
        </form>
        <form onSubmit={addCredit} aria-label={t('ops.credit')}>
          <div className="grid2">
            <div>
              <label htmlFor={`credit-${id}`}>{t('ops.credit_amount')}</label>
              <input
                id={`credit-${id}`}
                inputMode="decimal"
                required
                value={credit}
                onChange={(e) => setCredit(e.target.value)}
              />
            </div>
            <div>
              <label htmlFor={`creason-${id}`}>{t('ops.credit_reason')}</label>
              <input
                id={`creason-${id}`}
                required
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            </div>
          </div>
          <p>
            <button type="submit" className="secondary" disabled={action.busy}>
              {t('ops.credit')}
            </button>
          </p>
        </form>
      </div>
    </section>
  );
}

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
