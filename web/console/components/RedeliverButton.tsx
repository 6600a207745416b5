import { ActionButton } from '../../shared/action-ui';
import { unwrap, type Schemas } from '../../shared/api';
import type { Action } from '../../shared/use-action';
import { useI18n } from '../i18n';
import { agentApi } from '../session';

/** Queues one event again for the agent's endpoints (the event list, an endpoint's deliveries). */
export function RedeliverButton(props: {
  action: Action;
  eventId: string;
  onQueued: (answer: Schemas['RedeliveryResponse']) => void | Promise<void>;
}) {
  const { t } = useI18n();
  const redeliver = async () => {
    const path = { event_id: props.eventId };
    await props.onQueued(
      await unwrap(agentApi.POST('/v1/agent/events/{event_id}/redeliver', { params: { path } })),
    );
  };
  return (
    <ActionButton action={props.action} className="secondary" onClick={redeliver}>
      {t('hooks.redeliver')}
    </ActionButton>
  );
}
