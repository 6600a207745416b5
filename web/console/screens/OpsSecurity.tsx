import { useState } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { CodeInput, RecoveryCodes, TotpSetup } from '../components/TwoFactor';
import { adminApi } from '../session';
import { useAction } from '../../shared/use-action';
import { ActionButton, ActionError, ConfirmButtons } from '../../shared/action-ui';
import { DataTable } from '../components/DataTable';

type Me = Schemas['AdminMeResponse'];
type Operator = Schemas['OperatorResponse'];

/** The operator's own two-factor sign-in, and the team's, with a reset for another operator's. */
export function OpsSecurity() {
  const { t } = useI18n();
  const me = useAsync(() => unwrap(adminApi.GET('/v1/admin/me')), []);
  return (
    <>
      <h1>{t('security.title')}</h1>
      <ListState state={me} />
      {me.data && <MyTwoFactor me={me.data} onChanged={() => void me.reload()} />}
      {me.data && <Team me={me.data} />}
    </>
  );
}

function MyTwoFactor({ me, onChanged }: { me: Me; onChanged: () => void }) {
  const { t, locale } = useI18n();
  const [setup, setSetup] = useState<Schemas['TotpSetupResponse'] | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const action = useAction();
  const start = async () => {
    setSetup(await unwrap(adminApi.POST('/v1/admin/me/totp')));
  };
  const confirm = action.onSubmit(async () => {
    const answer = await unwrap(adminApi.POST('/v1/admin/me/totp/confirm', { body: { code } }));
    setSetup(null);
    setCode('');
    setCodes(answer.recovery_codes);
    onChanged();
  });
  const regenerate = action.onSubmit(async () => {
    const answer = await unwrap(adminApi.POST('/v1/admin/me/recovery-codes', { body: { code } }));
    setCode('');
    setCodes(answer.recovery_codes);
    onChanged();
  });
  if (codes) {
    return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  }
  return (
    <section className="card" aria-labelledby="my-2fa">
      <h2 id="my-2fa">{t('security.mine')}</h2>
      <p>
        <span className={`badge ${me.totp_enabled ? 'ok' : 'warn'}`}>
          {t(me.totp_enabled ? 'security.state_on' : 'security.state_off')}
        </span>{' '}
        {me.totp_required && <span className="muted">{t('security.required')} · </span>}
        {me.totp_enabled && (
          <span className="muted">{t('security.codes_left', { n: me.recovery_codes_left })}</span>
        )}
      </p>
      <p className="muted">
        {t('security.session_ends', { at: formatDateTime(me.session_expires_at, locale) })}
      </p>
      <ActionError action={action} />
      {!me.totp_enabled && !setup && (
        <>
          <p>{t('security.off_lead')}</p>
          <ActionButton action={action} onClick={start}>
            {t('security.turn_on')}
          </ActionButton>
        </>
      )}
      {setup && (
        <form onSubmit={confirm} aria-label={t('security.turn_on')}>
          <p className="muted">{t('totp.setup_lead')}</p>
          <TotpSetup setup={setup} />
          <CodeInput id="enrol-code" label={t('totp.first_code')} value={code} onChange={setCode} />
          <p className="hint">{t('security.others_end')}</p>
          <button type="submit" disabled={action.busy}>
            {t('security.confirm')}
          </button>
        </form>
      )}
      {me.totp_enabled && (
        <form onSubmit={regenerate} aria-label={t('security.new_codes')}>
          <h3>{t('security.new_codes')}</h3>
          <p className="muted">{t('security.new_codes_lead')}</p>
          <CodeInput id="regen-code" label={t('totp.code_label')} value={code} onChange={setCode} />
          <button type="submit" className="secondary" disabled={action.busy}>
            {t('security.new_codes_submit')}
          </button>
        </form>
      )}
    </section>
  );
}

function Team({ me }: { me: Me }) {
  const { t } = useI18n();
  // Loaded again with the operator's own state, so their row follows a change made above.
  const list = useAsync(() => unwrap(adminApi.GET('/v1/admin/operators')), [me]);
  return (
    <section className="card" aria-labelledby="team">
      <h2 id="team">{t('security.team')}</h2>
      <p className="muted">{t('security.team_lead')}</p>
      <ListState state={list} count={(d) => d.items.length} />
      {list.data && list.data.items.length > 0 && (
        <DataTable
          columns={[
            t('security.col_email'),
            t('security.col_totp'),
            t('security.col_required'),
            t('col.actions'),
          ]}
        >
          {list.data.items.map((o) => (
            <OperatorRow key={o.admin_id} operator={o} me={me} onChanged={() => void list.reload()} />
          ))}
        </DataTable>
      )}
    </section>
  );
}

function OperatorRow(props: { operator: Operator; me: Me; onChanged: () => void }) {
  const { t } = useI18n();
  const { operator: o } = props;
  const self = o.admin_id === props.me.admin_id;
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const action = useAction();
  const reset = async () => {
    await unwrap(
      adminApi.POST('/v1/admin/operators/{id}/totp/reset', { params: { path: { id: o.admin_id } } }),
    );
    setConfirming(false);
    setDone(true);
    props.onChanged();
  };
  return (
    <tr>
      <th scope="row">
        {o.email} {self && <span className="muted">{t('security.you')}</span>}
      </th>
      <td>{t(o.totp_enabled ? 'security.state_on' : 'security.state_off')}</td>
      <td>{t(o.totp_required ? 'security.yes' : 'security.no')}</td>
      <td>
        <ActionError action={action} />
        {done && (
          <p className="notice" role="status">
            {t('security.reset_done', { email: o.email })}
          </p>
        )}
        {!self && o.totp_enabled && !confirming && (
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            {t('security.reset')}
          </button>
        )}
        {confirming && (
          <span className="row">
            <span>{t('security.reset_confirm', { email: o.email })}</span>
            <ConfirmButtons
              action={action}
              onConfirm={reset}
              confirm={t('security.reset_yes')}
              onCancel={() => setConfirming(false)}
              cancel={t('common.cancel')}
            />
          </span>
        )}
      </td>
    </tr>
  );
}
