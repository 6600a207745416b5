import { useState } from 'react';
import { Link } from 'react-router';
import { pathsV1TasksGetParametersQueryStatusValues as TASK_STATUSES } from '@legwork/sdk/types';
import { unwrap } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { useI18n } from '../i18n';
import { formatCents } from '../../shared/money';
import { ListState } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useLiveEvents } from '../hooks';
import { agentApi } from '../session';
import { StatusBadge } from '../../shared/StatusBadge';
import { Pager, useCursorPages } from '../../shared/pager';
import { DataTable } from '../components/DataTable';
import { FilterField } from '../../shared/fields';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { useAction } from '../../shared/use-action';
import { saveFile } from '../save-file';

type Status = (typeof TASK_STATUSES)[number];
const PAGE = 20;

/** The agent's tasks, newest first, filtered by status and paged by the API's cursor (a stack of cursors for Back). */
export function Tasks() {
  const { t, locale } = useI18n();
  const [status, setStatus] = useState<Status | ''>('');
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const list = useAsync(
    () =>
      unwrap(
        agentApi.GET('/v1/tasks', {
          params: {
            query: {
              limit: PAGE,
              ...(status ? { status } : {}),
              ...(cursor ? { starting_after: cursor } : {}),
            },
          },
        }),
      ),
    [status, cursor],
  );
  useLiveEvents(
    (e) => e.name.startsWith('task.'),
    () => void list.reload(),
  );
  const exporting = useAction();
  // The answers of the tasks the list shows (its status filter), one row a submission (GET /v1/tasks/answers/export).
  const download = (format: 'csv' | 'excel') => async () => {
    const blob = await unwrap(
      agentApi.GET('/v1/tasks/answers/export', {
        params: { query: { format, ...(status ? { status } : {}) } },
        parseAs: 'blob',
      }),
    );
    saveFile(blob, `legwork-answers${status ? `-${status}` : ''}.${format === 'csv' ? 'csv' : 'xlsx'}`);
  };
  return (
    <>
      <div className="row spread">
        <h1>{t('nav.tasks')}</h1>
        <Link className="button" to="/tasks/new">
          {t('nav.new_task')}
        </Link>
      </div>
      <div className="inline-form">
        <FilterField
          id="status-filter"
          label={t('tasks.filter_status')}
          value={status}
          options={TASK_STATUSES}
          optionLabel={(s) => t(`status.${s}`)}
          blank={t('tasks.all')}
          onChange={(v) => {
            setStatus(v);
            pages.reset();
          }}
        />
        <ActionButton action={exporting} className="secondary" onClick={download('csv')}>
          {t('answers.export_csv')}
        </ActionButton>
        <ActionButton action={exporting} className="secondary" onClick={download('excel')}>
          {t('answers.export_xlsx')}
        </ActionButton>
      </div>
      <ActionError action={exporting} />
      <ListState state={list} count={(d) => d.data.length} empty={t('tasks.none')} />
      {list.data && list.data.data.length > 0 && (
        <DataTable
          columns={[
            t('col.title'),
            t('col.type'),
            t('col.status'),
            { label: t('col.budget'), num: true },
            { label: t('col.workers'), num: true },
            t('col.deadline'),
            t('col.created'),
          ]}
        >
          {list.data.data.map((task) => (
            <tr key={task.task_id}>
              <td>
                <Link to={`/tasks/${task.task_id}`}>{task.title}</Link>
              </td>
              <td>{t(`type.${task.task_type}`)}</td>
              <td>
                <StatusBadge status={task.status} />
              </td>
              <td className="num">{formatCents(task.budget_cents, locale)}</td>
              <td className="num">{task.max_workers}</td>
              <td>{formatDateTime(task.deadline_at, locale)}</td>
              <td>{formatDateTime(task.created_at, locale)}</td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.data && <Pager onPrev={pages.prev} onNext={pages.next(list.data)} />}
    </>
  );
}
