import { Link } from 'react-router';
import { unwrap } from '../../shared/api';
import { useI18n, type MessageKey } from '../i18n';
import { formatCents } from '../../shared/money';
import { ErrorNotice, Loading } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useAgent } from '../components/Shell';
import { UsageChart } from '../components/UsageChart';
import { useLiveEvents, utcDay } from '../hooks';
import { agentApi } from '../session';

const DAY = 86_400_000;
/** The usage endpoint covers at most 366 days per call. */
const MAX_RANGE_DAYS = 366;

/**
 * Lifetime spend from the public API: the usage endpoint's daily `spend_cents` (money that left the agent for good:
 * payouts and fees of approved work, the workers' share of cancellations) summed from the account's first day,
 * in ranges of at most 366 days.
 */
async function lifetimeSpend(createdAt: string): Promise<number> {
  let total = 0;
  const end = Date.now();
  for (let start = Date.parse(createdAt); start <= end; start += MAX_RANGE_DAYS * DAY) {
    const last = Math.min(start + (MAX_RANGE_DAYS - 1) * DAY, end);
    const points = await unwrap(
      agentApi.GET('/v1/agent/stats/usage', {
        params: { query: { start_date: utcDay(new Date(start)), end_date: utcDay(new Date(last)) } },
      }),
    );
    total += points.reduce((sum, p) => sum + p.spend_cents, 0);
  }
  return total;
}

export function Dashboard() {
  const { t, locale } = useI18n();
  const { profile } = useAgent();
  const state = useAsync(async () => {
    const today = new Date();
    const [stats, usage, spent] = await Promise.all([
      unwrap(agentApi.GET('/v1/agent/stats/dashboard')),
      unwrap(
        agentApi.GET('/v1/agent/stats/usage', {
          params: {
            query: { start_date: utcDay(new Date(today.getTime() - 29 * DAY)), end_date: utcDay(today) },
          },
        }),
      ),
      lifetimeSpend(profile.created_at),
    ]);
    return { stats, usage, spent };
  }, [profile.created_at]);
  useLiveEvents(
    () => true,
    () => void state.reload(),
  );
  if (state.error && !state.data)
    return <ErrorNotice error={state.error} onRetry={() => void state.reload()} />;
  if (!state.data) return <Loading />;
  const { stats, usage, spent } = state.data;
  const figures: [MessageKey, string][] = [
    ['dash.balance', formatCents(stats.balance_cents, locale)],
    ['dash.escrow', formatCents(stats.escrow_cents, locale)],
    ['dash.lifetime_spend', formatCents(spent, locale)],
    ['dash.success_rate', `${Math.round(stats.success_rate * 1000) / 10} %`],
    ['dash.api_today', String(stats.api_usage_today)],
  ];
  const counts = ['total', 'pending', 'active', 'completed', 'failed', 'cancelled'] as const;
  return (
    <>
      <div className="row spread">
        <h1>{t('nav.dashboard')}</h1>
        <span className="row">
          <Link className="button secondary" to="/money">
            {t('money.top_up')}
          </Link>
          <Link className="button" to="/tasks/new">
            {t('nav.new_task')}
          </Link>
        </span>
      </div>
      {state.error ? <ErrorNotice error={state.error} onRetry={() => void state.reload()} /> : null}
      <section aria-labelledby="money-h">
        <h2 id="money-h" className="visually-hidden">
          {t('dash.figures')}
        </h2>
        <dl className="figures">
          {figures.map(([key, value]) => (
            <div key={key} className="figure" data-testid={key}>
              <dt>{t(key)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="card" aria-labelledby="counts-h">
        <h2 id="counts-h">{t('dash.tasks')}</h2>
        <dl className="figures small">
          {counts.map((c) => (
            <div key={c} className="figure">
              <dt>{t(`count.${c}`)}</dt>
              <dd>{stats.tasks[c]}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="card" aria-labelledby="usage-h">
        <h2 id="usage-h">{t('dash.usage')}</h2>
        <UsageChart points={usage} />
      </section>
    </>
  );
}
