import { useState, type FormEvent } from 'react';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { Field, FilterField } from '../../shared/fields';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { adminApi } from '../session';
import { Pager, useCursorPages } from '../../shared/pager';
import { DataTable } from '../components/DataTable';

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
  'proof_review.decided': true,
  'worker_review.decided': true,
  'dispute.decided': true,
  'task_report.decided': true,
};
const ACTIONS = Object.keys(ACTION_SET) as Action[];
const TARGET_SET: Record<TargetType, true> = {
  operator: true,
  agent: true,
  withdrawal: true,
  payment_order: true,
  assignment: true,
  worker_review: true,
  dispute: true,
  task_report: true,
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
  // The form's choices, applied by "Show" (typing an id does not reload at each key).
  const [draft, setDraft] = useState<Filters>({});
  const choose = (change: Filters) => setDraft({ ...draft, ...change });
  const emails = new Map((operators.data?.items ?? []).map((o) => [o.admin_id, o.email]));
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const targetId = draft.target_id?.trim();
    setFilters({ ...draft, target_id: targetId ? targetId : undefined });
    pages.reset();
  };
  return (
    <>
      <h1>{t('nav.ops_audit')}</h1>
      <p className="muted">{t('audit.lead')}</p>
      <form className="inline-form" onSubmit={apply} aria-label={t('audit.filters')}>
        <FilterField
          id="audit-operator"
          label={t('audit.operator')}
          value={draft.operator_id ?? ''}
          options={[...emails.keys()]}
          optionLabel={(id) => emails.get(id) ?? id}
          blank={t('audit.all_operators')}
          onChange={(v) => choose({ operator_id: v || undefined })}
        />
        <FilterField
          id="audit-action"
          label={t('audit.action')}
          value={draft.action ?? ''}
          options={ACTIONS}
          optionLabel={(a) => t(`action.${a}`)}
          blank={t('audit.all_actions')}
          onChange={(v) => choose({ action: v || undefined })}
        />
        <FilterField
          id="audit-target-type"
          label={t('audit.target_type')}
          value={draft.target_type ?? ''}
          options={TARGETS}
          optionLabel={(x) => t(`target.${x}`)}
          blank={t('audit.all_targets')}
          onChange={(v) => choose({ target_type: v || undefined })}
        />
        <Field
          id="audit-target-id"
          label={t('audit.target_id')}
          className="mono"
          maxLength={100}
          value={draft.target_id ?? ''}
          onChange={(v) => choose({ target_id: v })}
        />
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
    <DataTable
      columns={[
        t('col.when'),
        t('audit.who'),
        t('audit.what'),
        t('audit.target'),
        t('audit.changes'),
        t('audit.request'),
      ]}
    >
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
    </DataTable>
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
