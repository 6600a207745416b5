import { useState } from 'react';
import {
  updateAgentRequestAccount_statusValues as ACCOUNT_STATUSES,
  updateAgentRequestTierValues as TIERS,
} from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { Field, SelectField } from '../../shared/fields';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { formatCents, yuanToCents } from '../../shared/money';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { adminApi } from '../session';
import { useAction } from '../../shared/use-action';
import { Pager, useOffsetPages } from '../../shared/pager';
import { ActionError } from '../../shared/action-ui';

type Agent = Schemas['AdminAgentResponse'];
const PAGE = 20;

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
            <SelectField
              id={`tier-${id}`}
              label={t('ops.tier')}
              value={tier}
              options={TIERS}
              optionLabel={(x) => t(`tier.${x}`)}
              onChange={setTier}
            />
            <Field
              id={`fee-${id}`}
              label={t('ops.fee_bps')}
              type="number"
              min={0}
              max={10000}
              placeholder={t('ops.fee_default')}
              value={fee}
              onChange={setFee}
            />
            <SelectField
              id={`status-${id}`}
              label={t('ops.account_status')}
              value={status}
              options={ACCOUNT_STATUSES}
              optionLabel={(x) => t(`account.${x}`)}
              onChange={setStatus}
            />
          </div>
          <p>
            <button type="submit" className="secondary" disabled={action.busy}>
              {t('ops.save')}
            </button>
          </p>
        </form>
        <form onSubmit={addCredit} aria-label={t('ops.credit')}>
          <div className="grid2">
            <Field
              id={`credit-${id}`}
              label={t('ops.credit_amount')}
              inputMode="decimal"
              required
              value={credit}
              onChange={setCredit}
            />
            <Field
              id={`creason-${id}`}
              label={t('ops.credit_reason')}
              required
              value={reason}
              onChange={setReason}
            />
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
