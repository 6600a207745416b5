import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { formatCents } from '../../shared/money';
import { Empty, ErrorNotice, Loading } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { useI18n } from '../i18n';
import { agentApi } from '../session';

type Grant = Schemas['OAuthGrantResponse'];

/** Apps signed in to /mcp with OAuth: what each may do and spend, and revocation (its tokens stop at once). */
export function OAuthGrants() {
  const { t } = useI18n();
  const grants = useAsync(() => unwrap(agentApi.GET('/v1/oauth/grants')), []);
  return (
    <>
      <h1>{t('nav.apps')}</h1>
      <p className="muted">{t('grants.lead')}</p>
      {grants.error ? <ErrorNotice error={grants.error} onRetry={() => void grants.reload()} /> : null}
      {!grants.data && !grants.error && <Loading />}
      {grants.data && grants.data.length === 0 && <Empty>{t('grants.none')}</Empty>}
      {grants.data?.map((g) => (
        <GrantCard key={g.id} grant={g} onRevoked={() => void grants.reload()} />
      ))}
    </>
  );
}

function GrantCard({ grant: g, onRevoked }: { grant: Grant; onRevoked: () => void }) {
  const { t, locale } = useI18n();
  const action = useAction();
  const caps = g.spend_caps;
  const money = (c: number | null | undefined) => (c ? formatCents(c, locale) : t('grants.no_cap'));
  return (
    <section className="card" aria-labelledby={`grant-${g.id}`}>
      <h2 id={`grant-${g.id}`}>
        {g.client_name ?? g.client_host} <span className="muted mono">{g.client_host}</span>
      </h2>
      <dl>
        <dt>{t('oauth.permissions')}</dt>
        <dd className="mono">{g.permissions.join(' ')}</dd>
        <dt>{t('caps.daily')}</dt>
        <dd>{money(caps?.daily_cents)}</dd>
        <dt>{t('caps.monthly')}</dt>
        <dd>{money(caps?.monthly_cents)}</dd>
        <dt>{t('caps.ceiling')}</dt>
        <dd>{money(g.ceiling_cents)}</dd>
        <dt>{t('grants.since')}</dt>
        <dd>{formatDateTime(g.created_at, locale)}</dd>
      </dl>
      <ActionError action={action} />
      <ActionButton
        action={action}
        className="secondary"
        onClick={async () => {
          await unwrap(
            agentApi.DELETE('/v1/oauth/grants/{grant_id}', { params: { path: { grant_id: g.id } } }),
          );
          onRevoked();
        }}
      >
        {t('grants.revoke', { name: g.client_name ?? g.client_host })}
      </ActionButton>
    </section>
  );
}
