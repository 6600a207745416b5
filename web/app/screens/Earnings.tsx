import { useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { formatCents, formatDateTime, useI18n } from '../../shared/i18n';
import { useAsync } from '../../shared/use-async';
import { ErrorNotice, Loading } from '../../shared/ui';
import { StatusBadge } from '../components/StatusBadge';
import { api } from '../session';

type Withdrawal = Schemas['WithdrawalResponse'];

/** Withdrawals requested in this visit (the worker API answers each request with its state; it has no list). */
const requested: Withdrawal[] = [];

/** Earnings and balance, and withdrawal to Alipay with its review state. */
export function Earnings() {
  const { t, locale } = useI18n();
  const earnings = useAsync(() => unwrap(api.GET('/v1/worker/earnings')), []);
  const [withdrawals, setWithdrawals] = useState<Withdrawal[]>(requested);
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
      {withdrawals.map((w) => (
        <p key={w.withdrawal_id} className="card" role="status">
          {t('earn.request', { amount: money(w.amount_cents), status: '' })}
          <StatusBadge status={w.status} />{' '}
          <small className="muted">{formatDateTime(w.created_at, locale)}</small>
        </p>
      ))}
      {e && (
        <WithdrawForm
          balanceCents={e.balance_cents}
          onDone={(w) => {
            requested.unshift(w);
            setWithdrawals([...requested]);
            void earnings.reload();
          }}
        />
      )}
    </main>
  );
}

function WithdrawForm(props: { balanceCents: number; onDone: (w: Withdrawal) => void }) {
  const { t } = useI18n();
  const [amount, setAmount] = useState('');
  const [account, setAccount] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const w = await unwrap(
        api.POST('/v1/payment/withdraw', {
          body: {
            // Yuan typed by a person, to integer cents without floating-point drift ("12.3" -> 1230).
            amount_cents: Math.round(Number(amount) * 100),
            alipay_account: account.trim(),
            ...(name.trim() ? { real_name: name.trim() } : {}),
          },
        }),
      );
      setAmount('');
      props.onDone(w);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={(e) => void submit(e)} aria-labelledby="withdraw-title">
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
