import { useI18n } from '../../shared/i18n';

const TONE: Record<string, string> = {
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

export function StatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  return <span className={`badge ${TONE[status] ?? ''}`}>{t(`status.${status}`)}</span>;
}
