import { useEffect, useState } from 'react';
import { createPaymentRequestPayment_methodValues as METHODS } from '@legwork/sdk/types';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { formatCents, yuanToCents } from '../../shared/money';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { QrCode } from '../components/QrCode';
import { useAgent } from '../components/Shell';
import { useLiveEvents } from '../hooks';
import { agentApi } from '../session';
import { Pager, useOffsetPages } from '../../shared/pager';
import { useAction } from '../../shared/use-action';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { DataTable } from '../components/DataTable';
import { Field, Radios } from '../../shared/fields';
import { saveFile } from '../save-file';

type Order = Schemas['PaymentOrderResponse'] | Schemas['PaymentStatusResponse'];
const PAGE = 20;
const POLL_MS = 2000;

export function Money() {
  const { t } = useI18n();
  // Bumped when a top-up ends, so the transactions list shows it.
  const [settled, setSettled] = useState(0);
  return (
    <>
      <h1>{t('nav.money')}</h1>
      <TopUp onSettled={() => setSettled((n) => n + 1)} />
      <Transactions settled={settled} />
    </>
  );
}

/**
 * A top-up through Alipay (the cashier page, opened in a new tab) or WeChat Pay (its QR code's content, to scan in
 * WeChat). The order is followed until it ends: by the live payment.* events, and by polling its status, since the
 * provider's notification may come before the socket reconnects. In sandbox mode the provider sandbox pays the
 * order itself after 5 seconds.
 */
function TopUp({ onSettled }: { onSettled: () => void }) {
  const { t, locale } = useI18n();
  const { sandbox, reloadProfile } = useAgent();
  const [method, setMethod] = useState<(typeof METHODS)[number]>('alipay');
  const [amount, setAmount] = useState('100.00');
  const [order, setOrder] = useState<Order | null>(null);
  const action = useAction();
  const refresh = async (current: Order) => {
    const next = await unwrap(
      agentApi.GET('/v1/payment/query/{order_id}', {
        params: { path: { order_id: current.order_id }, query: { payment_method: current.payment_method } },
      }),
    );
    setOrder(next);
    if (next.status !== 'pending' && next.status !== 'processing') {
      onSettled();
      await reloadProfile();
    }
  };
  const open = order && (order.status === 'pending' || order.status === 'processing');
  useEffect(() => {
    if (!order || !open) return;
    const timer = setInterval(() => void refresh(order).catch(action.setError), POLL_MS);
    return () => clearInterval(timer);
  }, [order?.order_id, open]);
  useLiveEvents(
    (e) => e.name.startsWith('payment.') && e.payload?.data?.order_id === order?.order_id,
    () => order && void refresh(order).catch(action.setError),
  );
  const submit = action.onSubmit(async () => {
    const cents = yuanToCents(amount);
    setOrder(
      await unwrap(
        agentApi.POST('/v1/agent/payments/recharge', {
          body: { payment_method: method, amount_cents: Number.isNaN(cents) ? -1 : cents },
        }),
      ),
    );
  });
  return (
    <section className="card" aria-labelledby="topup-h">
      <h2 id="topup-h">{t('money.top_up')}</h2>
      {sandbox && <p className="hint">{t('money.sandbox_hint')}</p>}
      <form onSubmit={submit} className="inline-form" aria-labelledby="topup-h">
        <Radios
          legend={t('money.method')}
          name="method"
          value={method}
          options={METHODS}
          optionLabel={(m) => t(`money.method_${m}`)}
          onChange={setMethod}
        />
        <div>
          <label htmlFor="topup-amount">{t('money.amount_yuan')}</label>
          <input
            id="topup-amount"
            inputMode="decimal"
            required
            value={amount}
            aria-describedby="topup-amount-hint"
            onChange={(e) => setAmount(e.target.value)}
          />
          <p id="topup-amount-hint" className="hint">
            {t('money.amount_hint')}
          </p>
        </div>
        <div>
          <button type="submit" disabled={action.busy || Boolean(open)}>
            {t('money.create_order')}
          </button>
        </div>
      </form>
      <ActionError action={action} />
      {order && (
        <div className="order" aria-live="polite" data-testid="order">
          <p>
            {t('money.order', { id: order.order_id })} · {formatCents(order.amount_cents, locale)} ·{' '}
            <span className={`badge ${order.status === 'completed' ? 'ok' : open ? 'warn' : 'bad'}`}>
              {t(`order.${order.status}`)}
            </span>
          </p>
          {open && order.payment_url && (
            <p>
              <a className="button" href={order.payment_url} target="_blank" rel="noopener noreferrer">
                {t('money.open_cashier')}
              </a>
            </p>
          )}
          {open && order.qr_code_url && (
            <div>
              <p>{t('money.scan')}</p>
              <QrCode text={order.qr_code_url} label={t('money.qr_label')} />
              <input readOnly aria-label={t('money.qr_content')} className="mono" value={order.qr_code_url} />
            </div>
          )}
          {open && (
            <p className="muted">
              {t('money.expires', { at: formatDateTime(order.expires_at, locale) })} <Spinner />
            </p>
          )}
          {order.status === 'completed' && <p className="notice">{t('money.credited')}</p>}
        </div>
      )}
    </section>
  );
}

function Spinner() {
  return <span className="spinner" aria-hidden="true" />;
}

/** The money movements, filtered by UTC day, paged, and exported as CSV or XLSX (the API writes the files). */
function Transactions({ settled }: { settled: number }) {
  const { t, locale } = useI18n();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const pages = useOffsetPages(PAGE);
  const { skip } = pages;
  const query = {
    skip,
    limit: pages.limit,
    ...(from ? { start_date: from } : {}),
    ...(to ? { end_date: to } : {}),
  };
  const list = useAsync(
    () => unwrap(agentApi.GET('/v1/agent/transactions', { params: { query } })),
    [skip, from, to, settled],
  );
  useLiveEvents(
    (e) => e.name.startsWith('payment.') || e.name.startsWith('refund.'),
    () => void list.reload(),
  );
  const exporting = useAction();
  const download = (format: 'csv' | 'excel') => async () => {
    const today = new Date().toISOString().slice(0, 10);
    const start = from || new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
    const blob = await unwrap(
      agentApi.GET('/v1/agent/stats/export', {
        params: { query: { start_date: start, end_date: to || today, format } },
        parseAs: 'blob',
      }),
    );
    saveFile(blob, `legwork-transactions-${start}-${to || today}.${format === 'csv' ? 'csv' : 'xlsx'}`);
  };
  return (
    <section className="card" aria-labelledby="tx-h">
      <h2 id="tx-h">{t('money.transactions')}</h2>
      <form className="inline-form" aria-label={t('money.filters')} onSubmit={(e) => e.preventDefault()}>
        <Field
          id="tx-from"
          label={t('money.from')}
          type="date"
          value={from}
          onChange={(v) => {
            setFrom(v);
            pages.reset();
          }}
        />
        <Field
          id="tx-to"
          label={t('money.to')}
          type="date"
          value={to}
          onChange={(v) => {
            setTo(v);
            pages.reset();
          }}
        />
        <div className="row">
          <ActionButton action={exporting} className="secondary" onClick={download('csv')}>
            {t('money.export_csv')}
          </ActionButton>
          <ActionButton action={exporting} className="secondary" onClick={download('excel')}>
            {t('money.export_xlsx')}
          </ActionButton>
        </div>
      </form>
      <ActionError action={exporting} />
      <ListState state={list} count={(d) => d.data.length} empty={t('money.no_transactions')} />
      {list.data && list.data.data.length > 0 && (
        <>
          <DataTable
            columns={[
              t('col.when'),
              t('col.type'),
              t('col.description'),
              t('col.status'),
              { label: t('col.amount'), num: true },
            ]}
          >
            {list.data.data.map((tx) => (
              <tr key={tx.transaction_id}>
                <td>{formatDateTime(tx.created_at, locale)}</td>
                <td>{t(`tx.${tx.type}`)}</td>
                <td>{tx.description}</td>
                <td>{t(`order.${tx.status}`)}</td>
                <td className={`num ${tx.direction === 'credit' ? 'credit' : 'debit'}`}>
                  {tx.direction === 'credit' ? '+' : '−'}
                  {formatCents(Math.abs(tx.amount), locale)}
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager {...pages.pager(list.data.data.length, list.data)} />
        </>
      )}
    </section>
  );
}
