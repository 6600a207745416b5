import { useState } from 'react';
import { TextBox } from '../../shared/fields';
import { unwrap, type Schemas } from '../../shared/api';
import { formatDateTime } from '../../shared/i18n';
import { ErrorNotice } from '../../shared/ui';
import { useAction } from '../../shared/use-action';
import { useAsync } from '../../shared/use-async';
import { useLiveEvents } from '../hooks';
import { useI18n } from '../i18n';
import { agentApi } from '../session';
import { DecisionView } from '../screens/OpsDisputes';

type Dispute = Schemas['DisputeView'];

/**
 * The agent's side of the task's disputes (product-decisions §19): a banner with the deadline while an answer is due
 * (48 hours from the dispute), the worker's statement as plain text and the answer form; afterwards where it stands
 * and the operator's decision. Dispute events of this task reload it.
 */
export function TaskDisputes({ taskId }: { taskId: string }) {
  const { t } = useI18n();
  const list = useAsync(
    () => unwrap(agentApi.GET('/v1/tasks/{task_id}/disputes', { params: { path: { task_id: taskId } } })),
    [taskId],
  );
  useLiveEvents(
    (e) => e.name.startsWith('dispute.') && e.payload?.task_id === taskId,
    () => void list.reload(),
  );
  if (list.error) return <ErrorNotice error={list.error} onRetry={() => void list.reload()} />;
  const disputes = list.data?.disputes ?? [];
  if (disputes.length === 0) return null;
  return (
    <section aria-labelledby="disputes-h">
      <h2 id="disputes-h">{t('dispute.title')}</h2>
      {disputes.map((d) => (
        <AgentDispute key={d.dispute_id} taskId={taskId} d={d} onDone={() => void list.reload()} />
      ))}
    </section>
  );
}

function AgentDispute({ taskId, d, onDone }: { taskId: string; d: Dispute; onDone: () => void }) {
  const { t, locale } = useI18n();
  const [statement, setStatement] = useState('');
  const action = useAction();
  const due = formatDateTime(d.response_due_at, locale);
  const answer = action.onSubmit(async () => {
    await unwrap(
      agentApi.POST('/v1/tasks/{task_id}/disputes/{dispute_id}/response', {
        params: { path: { task_id: taskId, dispute_id: d.dispute_id } },
        body: { statement: statement.trim() },
      }),
    );
    onDone();
  });
  const boxId = `answer-${d.dispute_id}`;
  return (
    <article className="card" data-testid="dispute" aria-labelledby={`dh-${d.dispute_id}`}>
      {d.status === 'awaiting_response' && (
        <div className="notice" role="alert">
          {t('dispute.answer_due', { due })}
        </div>
      )}
      <h3 id={`dh-${d.dispute_id}`}>
        {t('detail.worker', { id: d.assignment_id.slice(0, 8) })} · {t(`dispute.status.${d.status}`)}
      </h3>
      <p className="muted">{t('dispute.worker_says')}</p>
      <p className="plain-text">{d.worker.statement}</p>
      {d.agent && (
        <>
          <p className="muted">{t('dispute.you_said')}</p>
          <p className="plain-text">{d.agent.statement}</p>
        </>
      )}
      {d.status === 'awaiting_decision' && <p>{t('dispute.waiting_operator')}</p>}
      {d.decision && <DecisionView decision={d.decision} />}
      {d.status === 'awaiting_response' && (
        <form onSubmit={answer} aria-label={t('dispute.answer')}>
          <TextBox
            id={boxId}
            label={t('dispute.answer')}
            maxLength={2000}
            required
            value={statement}
            onChange={setStatement}
          />
          <ActionErrorInline action={action} />
          <p>
            <button type="submit" disabled={action.busy || !statement.trim()}>
              {t('dispute.send_answer')}
            </button>
          </p>
        </form>
      )}
    </article>
  );
}

function ActionErrorInline({ action }: { action: ReturnType<typeof useAction> }) {
  return action.error ? <ErrorNotice error={action.error} /> : null;
}
