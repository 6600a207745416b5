import { type MessageKey, useWords } from '../messages';

/** Every status the app has words for (`status.*` in the catalogues): a status without them does not compile. */
export type Status = MessageKey extends infer K ? (K extends `status.${infer S}` ? S : never) : never;

const TONE: Partial<Record<Status, string>> = {
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

export function StatusBadge({ status }: { status: Status }) {
  const { t } = useWords();
  return <span className={`badge ${TONE[status] ?? ''}`}>{t(`status.${status}`)}</span>;
}
