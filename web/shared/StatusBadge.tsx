import { useI18n } from './i18n';

/**
 * The tone of a status, one table for both apps: green when it ended well, red when it ended badly, amber while it
 * waits for someone; anything else (open, assigned, in progress) plain.
 */
const TONE: Record<string, 'ok' | 'bad' | 'warn'> = {
  approved: 'ok',
  completed: 'ok',
  rejected: 'bad',
  failed: 'bad',
  abandoned: 'bad',
  expired: 'bad',
  cancelled: 'bad',
  declined: 'bad',
  submitted: 'warn',
  pending_review: 'warn',
  processing: 'warn',
};

/** A status in words (the app's `status.<status>` key) with its tone. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  return <span className={`badge ${TONE[status] ?? ''}`}>{t(`status.${status}`)}</span>;
}
