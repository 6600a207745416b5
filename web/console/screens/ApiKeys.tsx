import { useState } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { Empty, ErrorNotice, Loading } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { ShownOnce } from '../components/Secret';
import { type Permission, PermissionChecks } from '../components/PermissionChecks';
import { SpendCaps } from '../components/SpendCaps';
import { useAgent } from '../components/Shell';
import { agentApi } from '../session';
import { useAction } from '../../shared/use-action';
import { ActionButton, ActionError, ConfirmButtons } from '../../shared/action-ui';

type Key = Schemas['ApiKeyResponse'];

/**
 * The account's API key: its permissions (changed in place), disable and enable, and rotation, which answers a new
 * key and secret once (the old ones stop working at once) with the permissions chosen for it.
 */
export function ApiKeys() {
  const { t } = useI18n();
  const keys = useAsync(() => unwrap(agentApi.GET('/v1/agent/api-keys')), []);
  const [shown, setShown] = useState<Schemas['CreateApiKeyResponse'] | null>(null);
  return (
    <>
      <h1>{t('nav.keys')}</h1>
      <p className="muted">{t('keys.lead')}</p>
      {shown && (
        <ShownOnce
          items={[
            [t('keys.api_key'), shown.api_key],
            [t('keys.api_secret'), shown.api_secret],
          ]}
          onDone={() => setShown(null)}
        />
      )}
      {keys.error ? <ErrorNotice error={keys.error} onRetry={() => void keys.reload()} /> : null}
      {!keys.data && !keys.error && <Loading />}
      {keys.data && keys.data.length === 0 && <Empty>{t('keys.none')}</Empty>}
      {keys.data?.map((k) => (
        <KeyCard
          key={`${k.id}-${k.prefix}`}
          apiKey={k}
          onRotated={setShown}
          onChanged={() => void keys.reload()}
        />
      ))}
    </>
  );
}

function KeyCard(props: {
  apiKey: Key;
  onRotated: (k: Schemas['CreateApiKeyResponse']) => void;
  onChanged: () => void;
}) {
  const { t, locale } = useI18n();
  const { reloadProfile } = useAgent();
  const k = props.apiKey;
  const [permissions, setPermissions] = useState<Permission[]>(k.permissions);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const action = useAction();
  const path = { params: { path: { key_id: k.id } } };
  const save = action.onSubmit(async () => {
    await unwrap(agentApi.PATCH('/v1/agent/api-keys/{key_id}', { ...path, body: { permissions } }));
    props.onChanged();
  });
  const toggle = async () => {
    if (k.is_active) await unwrap(agentApi.DELETE('/v1/agent/api-keys/{key_id}', path));
    else await unwrap(agentApi.PATCH('/v1/agent/api-keys/{key_id}', { ...path, body: { is_active: true } }));
    props.onChanged();
  };
  const rotate = async () => {
    const created = await unwrap(agentApi.POST('/v1/agent/api-keys', { body: { permissions } }));
    setConfirmRotate(false);
    props.onRotated(created);
    props.onChanged();
    await reloadProfile();
  };
  return (
    <section className="card" aria-labelledby={`key-${k.id}`}>
      <div className="row spread">
        <h2 id={`key-${k.id}`}>
          <span className="mono">{k.prefix}…</span>{' '}
          <span className={`badge ${k.is_active ? 'ok' : 'bad'}`}>
            {t(k.is_active ? 'keys.active' : 'keys.disabled')}
          </span>
        </h2>
        <span className="muted">
          {t('keys.usage', { count: k.usage_count, last: formatDateTime(k.last_used_at, locale) })}
        </span>
      </div>
      <ActionError action={action} />
      <form onSubmit={save} aria-labelledby={`perm-${k.id}`}>
        <PermissionChecks
          legend={t('keys.permissions')}
          legendId={`perm-${k.id}`}
          checked={permissions}
          onChange={setPermissions}
        />
        <div className="row">
          <button type="submit" className="secondary" disabled={action.busy}>
            {t('keys.save_permissions')}
          </button>
          <ActionButton action={action} className="secondary" onClick={toggle}>
            {t(k.is_active ? 'keys.disable' : 'keys.enable')}
          </ActionButton>
          {!confirmRotate ? (
            <button type="button" onClick={() => setConfirmRotate(true)} disabled={action.busy}>
              {t('keys.rotate')}
            </button>
          ) : (
            <span role="alertdialog" aria-label={t('keys.rotate')} className="row confirm">
              {t('keys.rotate_warning')}
              <ConfirmButtons
                action={action}
                onConfirm={rotate}
                confirm={t('keys.rotate_confirm')}
                onCancel={() => setConfirmRotate(false)}
                cancel={t('common.cancel')}
              />
            </span>
          )}
        </div>
      </form>
      <SpendCaps apiKey={k} onChanged={props.onChanged} />
    </section>
  );
}
