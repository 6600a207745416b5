import { useState } from 'react';
import { ActionButton, ActionError, ConfirmButtons } from '../../shared/action-ui';
import { unwrap, type Schemas } from '../../shared/api';
import { formatCents } from '../../shared/money';
import { useAction } from '../../shared/use-action';
import { useI18n } from '../i18n';
import { agentApi } from '../session';

type Task = Schemas['TaskStatusResponse'];

/**
 * Cancel, with the refund shown before confirming. The per-slot numbers come from the API's own refund policy (a
 * quote of this task's body: the policy depends on the budget only): an open slot refunds in full, a slot a worker
 * has accepted refunds the cancel_assigned share and pays the worker the rest. The answer's real figures replace the
 * preview afterwards.
 */
export function CancelTask({ task, onDone }: { task: Task; onDone: () => void }) {
  const { t, locale } = useI18n();
  const money = (c: number) => formatCents(c, locale);
  const [preview, setPreview] = useState<{ refund: number; workers: number } | null>(null);
  const [done, setDone] = useState<Schemas['CancelTaskResponse'] | null>(null);
  const action = useAction();
  const cancellable =
    (task.status === 'pending' || task.status === 'assigned') &&
    !task.assignments.some((a) => a.status === 'submitted');
  if (done) {
    return (
      <p className="notice" role="status">
        {t('cancel.done', {
          refund: money(done.refund_cents),
          workers: money(done.worker_compensation_cents),
        })}
      </p>
    );
  }
  if (!cancellable) return null;
  const showPreview = async () => {
    const quote = await unwrap(
      agentApi.POST('/v1/tasks/quote', {
        body: {
          title: task.title,
          description: task.description,
          task_type: task.task_type,
          location: {
            latitude: task.location.latitude,
            longitude: task.location.longitude,
            max_distance_meters: task.location.max_distance_meters,
          },
          budget_cents: task.budget_cents,
          max_workers: task.max_workers,
          deadline_at: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
    );
    const holding = task.assignments.filter((a) => a.status === 'accepted').length;
    const settled = task.assignments.filter((a) => a.status === 'approved' || a.status === 'rejected').length;
    const open = task.max_workers - holding - settled;
    const split = quote.refund_policy.cancel_assigned;
    setPreview({
      refund: open * task.budget_cents + holding * split.refund_cents_per_slot,
      workers: holding * split.worker_cents_per_slot,
    });
  };
  const confirm = async () => {
    setDone(
      await unwrap(
        agentApi.POST('/v1/tasks/{task_id}/cancel', { params: { path: { task_id: task.task_id } } }),
      ),
    );
    onDone();
  };
  return (
    <div className="cancel">
      <ActionError action={action} />
      {!preview ? (
        <ActionButton action={action} className="secondary" onClick={showPreview}>
          {t('cancel.button')}
        </ActionButton>
      ) : (
        <div role="alertdialog" aria-labelledby="cancel-h" className="confirm">
          <p id="cancel-h">
            {t('cancel.preview', { refund: money(preview.refund), workers: money(preview.workers) })}
          </p>
          <div className="row">
            <ConfirmButtons
              action={action}
              onConfirm={confirm}
              confirm={t('cancel.confirm')}
              onCancel={() => setPreview(null)}
              cancel={t('cancel.keep')}
            />
          </div>
        </div>
      )}
    </div>
  );
}
