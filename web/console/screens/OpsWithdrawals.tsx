import { useState } from 'react';
import { pathsV1AdminWithdrawalsGetParametersQueryStatusValues as WITHDRAWAL_STATUSES } from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { formatCents } from '../../shared/money';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { adminApi } from '../session';
import { useAction } from '../../shared/use-action';
import { Pager, useOffsetPages } from '../../shared/pager';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { DataTable } from '../components/DataTable';
import { FilterField } from '../../shared/fields';

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
