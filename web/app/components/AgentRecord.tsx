import { useWords } from '../messages';
import type { NearbyTask } from '../task-store';

export type AgentRecordData = NearbyTask['agent_record'];

/**
 * How the agent decided results over 90 days (product-decisions §19), in words: "rejected 2 of 10; lost 1 dispute".
 * Counts only; under 5 decided results there is no rate, and the words say so rather than show a misleading one.
 */
export function AgentRecord({ record }: { record: AgentRecordData }) {
  const { t } = useWords();
  const rate =
    record.rejection_rate != null
      ? t('tasks.record_rate', {
          rejected: Math.round(record.rejection_rate * record.decided),
          decided: record.decided,
        })
      : t('tasks.record_few');
  const lost =
    record.disputes_lost === 0
      ? t('tasks.record_lost_none')
      : record.disputes_lost === 1
        ? t('tasks.record_lost_one')
        : t('tasks.record_lost', { n: record.disputes_lost });
  return (
    <span className="agent-record" title={t('tasks.record_label')}>
      {t('tasks.record', { rate, lost })}
    </span>
  );
}
