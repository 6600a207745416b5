import { useParams } from 'react-router';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { formatCents } from '../../shared/money';
import { ErrorNotice, Loading } from '../../shared/ui';
import { useAsync } from '../../shared/use-async';
import { useAction } from '../../shared/use-action';
import { ActionButton, ActionError } from '../../shared/action-ui';
import { useI18n } from '../i18n';
import { agentApi } from '../session';

type Approval = Schemas['SpendApprovalResponse'];

/**
 * The page an MCP host opens over the spend cap (URL elicitation): the person sees the one task an agent wants to
 * create past the key's cap and approves or declines it, once. Opened again, it shows the decision and offers none.
 */
export function SpendApproval() {
  const { t, locale } = useI18n();
  const id = useParams().approvalId!;
  const path = { params: { path: { approval_id: id } } };
  const approval = useAsync(() => unwrap(agentApi.GET('/v1/spend-approvals/{approval_id}', path)), [id]);
  const action = useAction();
  const decide = (verb: 'approve' | 'decline') => async () => {
    const route =
      verb === 'approve'
        ? ('/v1/spend-approvals/{approval_id}/approve' as const)
        : ('/v1/spend-approvals/{approval_id}/decline' as const);
    await unwrap(agentApi.POST(route, path));
    await approval.reload();
  };
  if (approval.error) return <ErrorNotice error={approval.error} onRetry={() => void approval.reload()} />;
  if (!approval.data) return <Loading />;
  const a: Approval = approval.data;
  const task = a.task as {
    title?: string;
    description?: string;
    budget_cents?: number;
    max_workers?: number;
  };
  return (
    <>
      <h1>{t('approval.title')}</h1>
      <p className="muted">{t('approval.lead')}</p>
      <section className="card" aria-labelledby="approval-task">
        <h2 id="approval-task">{task.title}</h2>
        <p>{task.description}</p>
        <dl>
          <dt>{t('approval.total')}</dt>
          <dd>{formatCents(a.total_cents, locale)}</dd>
          <dt>{t('approval.expires')}</dt>
          <dd>{formatDateTime(a.expires_at, locale)}</dd>
        </dl>
        <p role="status">{t(`approval.status.${a.status}`)}</p>
        <ActionError action={action} />
        {a.status === 'pending' && (
          <div className="row">
            <ActionButton action={action} onClick={decide('approve')}>
              {t('approval.approve')}
            </ActionButton>
            <ActionButton action={action} className="secondary" onClick={decide('decline')}>
              {t('approval.decline')}
            </ActionButton>
          </div>
        )}
      </section>
    </>
  );
}
