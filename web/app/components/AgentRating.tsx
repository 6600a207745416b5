import { useWords } from '../messages';
import type { NearbyTask } from '../task-store';

/** The agent's average rating from workers (two-sided reputation), or that there is none yet. */
export function AgentRating({ rating }: { rating: NearbyTask['agent_rating'] }) {
  const { t } = useWords();
  return rating.average != null && rating.count > 0
    ? t('tasks.agent_rating', { rating: rating.average.toFixed(1), count: rating.count })
    : t('tasks.agent_unrated');
}
