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
  return (
    <>
      <div className="row spread">
        <h1>{t('nav.tasks')}</h1>
        <Link className="button" to="/tasks/new">
          {t('nav.new_task')}
        </Link>
      </div>
      <div className="inline-form">
        <div>
          <label htmlFor="status-filter">{t('tasks.filter_status')}</label>
          <select
            id="status-filter"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as Status | '');
              pages.reset();
            }}
          >
            <option value="">{t('tasks.all')}</option>
            {TASK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ListState state={list} count={(d) => d.data.length} empty={t('tasks.none')} />
      {list.data && list.data.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('col.title')}</th>
              <th scope="col">{t('col.type')}</th>
              <th scope="col">{t('col.status')}</th>
              <th scope="col" className="num">
                {t('col.budget')}
              </th>
              <th scope="col" className="num">
                {t('col.workers')}
              </th>
              <th scope="col">{t('col.deadline')}</th>
              <th scope="col">{t('col.created')}</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      )}
      {list.data && <Pager onPrev={pages.prev} onNext={pages.next(list.data)} />}
    </>
  );
}
