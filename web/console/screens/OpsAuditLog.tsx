import { useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { adminApi } from '../session';
import { Pager, useCursorPages } from '../../shared/pager';

type Entry = Schemas['AuditLogEntryResponse'];
type Action = Entry['action'];
type TargetType = Entry['target_type'];

/** Every action the API records, by its type: a value added to or dropped from the API fails to compile here. */
const ACTION_SET: Record<Action, true> = {
  'operator.created': true,
  'operator.updated': true,
  'operator.signed_in': true,
  'operator.sign_in_failed': true,
  'operator.signed_out': true,
  'operator.totp_enrolled': true,
  'operator.totp_reset': true,
  'operator.recovery_codes_regenerated': true,
  'agent.updated': true,
  'agent.credited': true,
  'withdrawal.approved': true,
  'withdrawal.rejected': true,
  'payment_order.bank_transfer_confirmed': true,
};
const ACTIONS = Object.keys(ACTION_SET) as Action[];
const TARGET_SET: Record<TargetType, true> = {
  operator: true,
  agent: true,
  withdrawal: true,
  payment_order: true,
};
const TARGETS = Object.keys(TARGET_SET) as TargetType[];
const PAGE = 50;

interface Filters {
  operator_id?: string;
  action?: Action;
  target_type?: TargetType;
  target_id?: string;
}

/** The operator audit log, newest first: filtered by operator, action or target, paged by the API's cursor. */
export function OpsAuditLog() {
  const { t } = useI18n();
  const [filters, setFilters] = useState<Filters>({});
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const operators = useAsync(() => unwrap(adminApi.GET('/v1/admin/operators')), []);
  const list = useAsync(
    () =>
      unwrap(
        adminApi.GET('/v1/admin/audit-log', {
          params: { query: { ...filters, limit: PAGE, ...(cursor ? { starting_after: cursor } : {}) } },
        }),
      ),
    [filters, cursor],
  );
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const value = (name: string) => {
      const raw = form.get(name);
      return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
    };
    setFilters({
      operator_id: value('operator_id'),
      action: value('action') as Action | undefined,
      target_type: value('target_type') as TargetType | undefined,
      target_id: value('target_id'),
    });
    pages.reset();
  };
  return (
    <>
      <h1>{t('nav.ops_audit')}</h1>
      <p className="muted">{t('audit.lead')}</p>
      <form className="inline-form" onSubmit={apply} aria-label={t('audit.filters')}>
        <div>
          <label htmlFor="audit-operator">{t('audit.operator')}</label>
          <select id="audit-operator" name="operator_id" defaultValue="">
            <option value="">{t('audit.all_operators')}</option>
            {operators.data?.items.map((o) => (
              <option key={o.admin_id} value={o.admin_id}>
                {o.email}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-action">{t('audit.action')}</label>
          <select id="audit-action" name="action" defaultValue="">
            <option value="">{t('audit.all_actions')}</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {t(`action.${a}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-target-type">{t('audit.target_type')}</label>
          <select id="audit-target-type" name="target_type" defaultValue="">
            <option value="">{t('audit.all_targets')}</option>
            {TARGETS.map((x) => (
              <option key={x} value={x}>
                {t(`target.${x}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-target-id">{t('audit.target_id')}</label>
          <input id="audit-target-id" name="target_id" className="mono" maxLength={100} />
        </div>
        <div>
          <button type="submit" className="secondary">
            {t('audit.apply')}
          </button>
        </div>
      </form>
      <ListState state={list} count={(d) => d.data.length} empty={t('audit.empty')} />
      {list.data && list.data.data.length > 0 && <AuditTable entries={list.data.data} />}
      {list.data && <Pager onPrev={pages.prev} onNext={pages.next(list.data)} />}
    </>
  );
}

function AuditTable({ entries }: { entries: Entry[] }) {
  const { t, locale } = useI18n();
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{t('col.when')}</th>
          <th scope="col">{t('audit.who')}</th>
          <th scope="col">{t('audit.what')}</th>
          <th scope="col">{t('audit.target')}</th>
          <th scope="col">{t('audit.changes')}</th>
          <th scope="col">{t('audit.request')}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-testid="audit-entry">
            <td>{formatDateTime(e.occurred_at, locale)}</td>
            <td>
              {e.operator ? e.operator.email : t('audit.cli')}
              {e.ip && <div className="muted">{t('audit.from_ip', { ip: e.ip })}</div>}
            </td>
            <td>{t(`action.${e.action}`)}</td>
            <td>
              {t(`target.${e.target_type}`)} <span className="mono">{e.target_id}</span>
            </td>
            <td>
              <Changes before={e.before} after={e.after} />
            </td>
            <td className="mono">{e.request_id ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The fields an action touched: `field: before → after`, or `field: value` for what only the after has. */
function Changes(props: { before: Record<string, unknown> | null; after: Record<string, unknown> | null }) {
  const before = props.before ?? {};
  const after = props.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (keys.length === 0) return <>—</>;
  return (
    <ul className="changes">
      {keys.map((k) => (
        <li key={k}>
          <span className="mono">{k}</span>:{' '}
          {k in before && k in after && before[k] !== after[k]
            ? `${show(before[k])} → ${show(after[k])}`
            : show(k in after ? after[k] : before[k])}
        </li>
      ))}
    </ul>
  );
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
