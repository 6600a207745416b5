import { useEffect, useState } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { yuanToCents } from '../../shared/money';
import { useAction } from '../../shared/use-action';
import { formatCents, formatDateTime } from '../../shared/i18n';
import { useWords } from '../messages';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { StatusBadge } from '../../shared/StatusBadge';
import { api } from '../session';

type Withdrawal = Schemas['WorkerWithdrawalItem'];
type WithdrawalPage = Schemas['WorkerWithdrawalPage'];

const loadWithdrawals = (starting_after?: string): Promise<WithdrawalPage> =>
  unwrap(api.GET('/v1/worker/withdrawals', { params: { query: { limit: 20, starting_after } } }));

/** Earnings and balance, and withdrawal to Alipay with its review state. */
export function Earnings() {
  const { t, locale } = useWords();
  const earnings = useAsync(() => unwrap(api.GET('/v1/worker/earnings')), []);
  const history = useAsync(() => loadWithdrawals(), []);
  const e = earnings.data;
  const money = (cents: number) => formatCents(cents, locale);
  return (
    <main className="screen">
      <h1>{t('earn.title')}</h1>
      {earnings.error ? <ErrorNotice error={earnings.error} onRetry={() => void earnings.reload()} /> : null}
      {!e && earnings.loading && <Loading />}
      {e && (
        <section className="card" aria-label={t('earn.title')}>
          <p className="muted" style={{ margin: 0 }}>
            {t('earn.balance')}
          </p>
          <p className="pay" style={{ fontSize: '2rem', margin: '0 0 0.4em' }} data-testid="balance">
            {money(e.balance_cents)}
          </p>
          <dl className="facts">
            <dt>{t('earn.withdrawing')}</dt>
            <dd>{money(e.withdrawing_cents)}</dd>
            <dt>{t('earn.pending_review')}</dt>
            <dd>{money(e.pending_review_cents)}</dd>
            <dt>{t('earn.month')}</dt>
            <dd>{money(e.this_month_cents)}</dd>
            <dt>{t('earn.total')}</dt>
            <dd>{money(e.total_earned_cents)}</dd>
            <dt>{t('earn.withdrawn')}</dt>
            <dd>{money(e.withdrawn_cents)}</dd>
          </dl>
          <p className="muted">{t('earn.completed', { n: e.completed_tasks })}</p>
        </section>
      )}
      {e && (
        <WithdrawForm
          balanceCents={e.balance_cents}
          onDone={() => {
            void earnings.reload();
            void history.reload();
          }}
        />
      )}
      <section aria-labelledby="withdrawals-title">
        <h2 id="withdrawals-title">{t('earn.history')}</h2>
        {history.error ? <ErrorNotice error={history.error} onRetry={() => void history.reload()} /> : null}
        {!history.data && history.loading && <Loading />}
        {history.data && <WithdrawalHistory first={history.data} />}
      </section>
    </main>
  );
}

/** The worker's withdrawals, newest first, with their review state; more pages on request (cursor paging). */
function WithdrawalHistory({ first }: { first: WithdrawalPage }) {
  const { t, locale } = useWords();
  const [items, setItems] = useState<Withdrawal[]>(first.data);
  const [cursor, setCursor] = useState(first.next_cursor);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // A reload (after a request, or pull to refresh) starts the list again from its newest page.
  useEffect(() => {
    setItems(first.data);
    setCursor(first.next_cursor);
  }, [first]);
  const more = async () => {
    if (!cursor) return;
    setBusy(true);
    setError(null);
    try {
      const page = await loadWithdrawals(cursor);
      setItems((shown) => [...shown, ...page.data]);
      setCursor(page.next_cursor);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (items.length === 0) return <p className="muted">{t('earn.history_empty')}</p>;
  return (
    <>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('earn.history')}>
        {items.map((w) => (
          <li key={w.withdrawal_id} className="card" data-testid="withdrawal">
            <div className="topbar">
              <span className="pay">{formatCents(w.amount_cents, locale)}</span>
              <StatusBadge status={w.status} />
            </div>
            <small className="muted">
              {w.alipay_account} · {formatDateTime(w.created_at, locale)}
            </small>
            {w.status === 'pending_review' && w.review_reason && (
              <p className="muted">{t(`earn.review_reason.${w.review_reason}`)}</p>
            )}
            {w.rejection_reason && <p>{t('earn.rejected_because', { reason: w.rejection_reason })}</p>}
            {w.status === 'failed' && w.failure_reason && (
              <p>{t('earn.failed_because', { reason: w.failure_reason })}</p>
            )}
          </li>
        ))}
      </ul>
      {error ? <ErrorNotice error={error} /> : null}
      {cursor && (
        <div className="actions one">
          <button type="button" className="secondary" disabled={busy} onClick={() => void more()}>
            {t('earn.more')}
          </button>
        </div>
      )}
    </>
  );
}

function WithdrawForm(props: { balanceCents: number; onDone: () => void }) {
  const { t } = useWords();
  const [amount, setAmount] = useState('');
  const [account, setAccount] = useState('');
  const [name, setName] = useState('');
  const { busy, error, onSubmit } = useAction();
  const submit = onSubmit(async () => {
    await unwrap(
      api.POST('/v1/payment/withdraw', {
        body: {
          // Yuan typed by a person, to integer cents without floating-point drift ("12.3" -> 1230).
          amount_cents: yuanToCents(amount),
          alipay_account: account.trim(),
          ...(name.trim() ? { real_name: name.trim() } : {}),
        },
      }),
    );
    setAmount('');
    props.onDone();
  });
  return (
    <form className="card" onSubmit={submit} aria-labelledby="withdraw-title">
      <h2 id="withdraw-title">{t('earn.withdraw')}</h2>
      <label htmlFor="amount">{t('earn.amount')}</label>
      <input
        id="amount"
        inputMode="decimal"
        required
        pattern="[0-9]+(\.[0-9]{1,2})?"
        aria-describedby="amount-hint"
        value={amount}
        onChange={(e) => setAmount(e.target.value.trim())}
      />
      <small id="amount-hint" className="muted">
        {t('earn.min')}
      </small>
      <label htmlFor="alipay">{t('earn.alipay')}</label>
      <input
        id="alipay"
        required
        maxLength={100}
        value={account}
        onChange={(e) => setAccount(e.target.value)}
      />
      <label htmlFor="real-name">{t('earn.real_name')}</label>
      <input
        id="real-name"
        maxLength={50}
        autoComplete="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
      />
      <p className="muted">{t('earn.review_note')}</p>
      {error ? <ErrorNotice error={error} /> : null}
      <div className="actions one">
        <button type="submit" disabled={busy || props.balanceCents < 1000}>
          {t('earn.submit')}
        </button>
      </div>
    </form>
  );
}
