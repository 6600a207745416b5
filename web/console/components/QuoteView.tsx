import type { Schemas } from '../../shared/api';
import { formatCents } from '../../shared/money';
import { useI18n } from '../i18n';
import { DataTable } from './DataTable';

type Quote = Schemas['TaskQuoteResponse'];
const REFUND_CASES = [
  'cancel_unassigned',
  'cancel_assigned',
  'cancel_in_progress',
  'worker_abandons',
  'result_rejected',
  'deadline_expired',
] as const;

/** A quote in words: the split per worker, what is held, the balance, workers in reach, and each refund case. */
export function QuoteView({ quote }: { quote: Quote }) {
  const { t, locale } = useI18n();
  const money = (c: number) => formatCents(c, locale);
  return (
    <div data-testid="quote">
      <dl className="pairs">
        <dt>{t('quote.per_slot')}</dt>
        <dd>
          {money(quote.per_slot.budget_cents)} = {money(quote.per_slot.worker_payout_cents)}{' '}
          {t('quote.to_worker')} + {money(quote.per_slot.platform_fee_cents)}{' '}
          {t('quote.fee', { pct: quote.fee_bps / 100 })}
        </dd>
        <dt>{t('quote.workers')}</dt>
        <dd>{quote.max_workers}</dd>
        <dt>{t('quote.total')}</dt>
        <dd>
          <strong>{money(quote.total_to_hold_cents)}</strong>
        </dd>
        <dt>{t('quote.balance')}</dt>
        <dd>
          {money(quote.balance.available_cents)}{' '}
          {quote.balance.covers ? (
            <span className="badge ok">{t('quote.covers')}</span>
          ) : (
            <span className="badge bad">
              {t('quote.shortfall', { amount: money(quote.balance.shortfall_cents) })}
            </span>
          )}
        </dd>
        <dt>{t('quote.nearby')}</dt>
        <dd>
          {t('quote.nearby_value', {
            online: quote.workers.eligible_online,
            now: quote.workers.available_now,
            radius: quote.workers.radius_meters,
          })}
          <br />
          <small className="muted">{t('quote.nearby_note')}</small>
        </dd>
        {quote.workers.simulated_online > 0 && (
          <>
            <dt>{t('quote.simulated')}</dt>
            <dd>{quote.workers.simulated_online}</dd>
          </>
        )}
        <dt>{t('quote.concurrency')}</dt>
        <dd>
          {quote.concurrency.active_tasks} / {quote.concurrency.max_concurrent_tasks}{' '}
          {!quote.concurrency.within_limit && <span className="badge bad">{t('quote.over_limit')}</span>}
        </dd>
        <dt>{t('quote.auto_approval')}</dt>
        <dd>{t('quote.hours', { hours: quote.auto_approval.delay_hours })}</dd>
      </dl>
      <DataTable
        columns={[
          t('quote.case'),
          { label: t('quote.refund'), num: true },
          { label: t('quote.worker_gets'), num: true },
        ]}
        className="compact"
        caption={t('quote.refunds')}
      >
        {REFUND_CASES.map((c) => {
          const r = quote.refund_policy[c];
          return (
            <tr key={c}>
              <th scope="row">{t(`refund.${c}`)}</th>
              <td className="num">
                {r.allowed
                  ? `${money(r.refund_cents_per_slot)} (${r.refund_percent} %)`
                  : t('quote.not_allowed')}
              </td>
              <td className="num">{money(r.worker_cents_per_slot)}</td>
            </tr>
          );
        })}
      </DataTable>
    </div>
  );
}
