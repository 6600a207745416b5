import { useSyncExternalStore } from 'react';
import { unwrap, type Schemas } from '../shared/api';
import { api } from './session';

export type Notice = Schemas['WorkerNotificationView'];

/** Events after which the worker may have news of their money (the server made a notification of each). */
export const MONEY_EVENTS = [
  'assignment.approved',
  'assignment.rejected',
  'assignment.cancelled',
  'dispute.decided',
];

export const NOTICES_PAGE = 20;

/**
 * How many of the worker's money notifications are unread (GET /v1/worker/notifications), for the badge on the
 * Alerts tab: read when the app opens or comes back on screen, on a money event, and after the list marked some
 * read. Outside the screens, so every screen shows the same count.
 */
class UnreadNotices {
  private count = 0;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): number => this.count;

  set(count: number): void {
    this.count = count;
    for (const l of this.listeners) l();
  }

  async load(): Promise<void> {
    this.set((await loadNotices(0, 1)).unread_count);
  }
}

export const unreadNotices = new UnreadNotices();

export function useUnreadNotices(): number {
  return useSyncExternalStore(unreadNotices.subscribe, unreadNotices.snapshot);
}

export function loadNotices(offset: number, limit = NOTICES_PAGE) {
  return unwrap(api.GET('/v1/worker/notifications', { params: { query: { limit, offset } } }));
}

/** Marks the shown notifications read; the badge follows the server's count. */
export async function markRead(ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const answer = await unwrap(api.POST('/v1/worker/notifications/read', { body: { notification_ids: ids } }));
  unreadNotices.set(answer.unread_count);
}

/** The words key of a notification's heading. */
export function noticeHeadingKey(n: Pick<Notice, 'kind' | 'dispute_outcome'>) {
  if (n.kind === 'dispute_decided') return `notice.dispute_${n.dispute_outcome ?? 'upheld'}` as const;
  return `notice.${n.kind}` as const;
}
