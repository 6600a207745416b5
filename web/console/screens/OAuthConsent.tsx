import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { unwrap } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { yuanToCents } from '../../shared/money';
import { ErrorNotice, Loading } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { ActionError } from '../../shared/action-ui';
import { type Permission, PermissionChecks } from '../components/PermissionChecks';
import { type CapAmounts, CapFields } from '../components/SpendCaps';
import { useI18n } from '../i18n';
import { agentApi } from '../session';

/**
 * The OAuth consent page (product-decisions §21): /oauth/authorize sends the person here with `?request=`. It shows
 * the app (its name, which it chose itself, and the host to recognise), the permissions it asks for (the API keys'
 * names, changeable), spend caps and the approval ceiling, and posts the answer with the console's session; the
 * browser then goes back to the app.
 */
export function OAuthConsent() {
  const { t, locale } = useI18n();
  const [params] = useSearchParams();
  const handle = params.get('request') ?? '';
  const request = useAsync(
    () => unwrap(agentApi.GET('/v1/oauth/consent', { params: { query: { request: handle } } })),
    [handle],
  );
  const [permissions, setPermissions] = useState<Permission[] | null>(null);
  const [amounts, setAmounts] = useState<CapAmounts>({ daily: '', monthly: '', ceiling: '' });
  const action = useAction();
  if (request.error) {
    return (
      <main className="narrow">
        <h1>{t('oauth.title')}</h1>
        <ErrorNotice error={request.error} />
      </main>
    );
  }
  if (!request.data) return <Loading />;
  const r = request.data;
  const chosen = permissions ?? r.permissions;
  const answer = (approve: boolean) =>
    action.run(async () => {
      const cents = (text: string) => {
        if (!text.trim()) return undefined;
        const value = yuanToCents(text);
        if (Number.isNaN(value) || value <= 0) throw new Error(t('oauth.bad_amount', { amount: text }));
        return value;
      };
      const caps = { daily_cents: cents(amounts.daily), monthly_cents: cents(amounts.monthly) };
      const res = await unwrap(
        agentApi.POST('/v1/oauth/consent', {
          body: {
            request: handle,
            approve,
            ...(approve
              ? {
                  permissions: chosen,
                  spend_caps: caps.daily_cents || caps.monthly_cents ? caps : null,
                  ceiling_cents: cents(amounts.ceiling) ?? null,
                }
              : {}),
          },
        }),
      );
      window.location.assign(res.redirect_to);
    });
  return (
    <main className="narrow">
      <h1>{t('oauth.title')}</h1>
      <section className="card" aria-labelledby="oauth-client">
        <h2 id="oauth-client">{t('oauth.asks', { name: r.client_name ?? r.client_host })}</h2>
        <dl>
          <dt>{t('oauth.host')}</dt>
          <dd className="mono">{r.client_host}</dd>
          <dt>{t('oauth.client_id')}</dt>
          <dd className="mono">{r.client_id}</dd>
          <dt>{t('oauth.returns_to')}</dt>
          <dd className="mono">{r.redirect_uri}</dd>
        </dl>
        <p className="muted">
          {t(
            r.verified_by === 'metadata_document' ? 'oauth.verified_document' : 'oauth.verified_registration',
          )}{' '}
          {t('oauth.expires', { at: formatDateTime(r.expires_at, locale) })}
        </p>
      </section>
      <ActionError action={action} />
      <form onSubmit={action.onSubmit(() => answer(true))}>
        <PermissionChecks legend={t('oauth.permissions')} checked={chosen} onChange={setPermissions} />
        <fieldset>
          <legend>{t('oauth.caps')}</legend>
          <p className="hint">{t('oauth.caps_hint')}</p>
          <CapFields
            idOf={(f) => `cap-${f}`}
            value={amounts}
            onChange={setAmounts}
            ceilingHint={t('oauth.ceiling_hint')}
          />
        </fieldset>
        <div className="row">
          <button type="submit" disabled={action.busy || chosen.length === 0}>
            {t('oauth.approve')}
          </button>
          <button
            type="button"
            className="secondary"
            disabled={action.busy}
            onClick={() => void answer(false)}
          >
            {t('oauth.deny')}
          </button>
        </div>
      </form>
    </main>
  );
}
