import { useSyncExternalStore } from 'react';
import { unwrap, type Schemas } from '../shared/api';
import { api } from './session';

export type Message = Schemas['MessageView'];

interface Unread {
  total: number;
  /** Unread messages per assignment id. */
  byAssignment: ReadonlyMap<string, number>;
}

/**
 * What the worker has not read yet in their message threads (GET /v1/worker/messages), for the badge on the "My
 * tasks" tab and on each task of the list. Read when the app opens or comes back on screen, on `message.created`,
 * and after a thread was opened (reading it marks it read on the server). Outside the screens, so every screen shows
 * the same count.
 */
class UnreadMessages {
  private state: Unread = { total: 0, byAssignment: new Map() };
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): Unread => this.state;

  async load(): Promise<void> {
    const answer = await unwrap(api.GET('/v1/worker/messages'));
    this.state = {
      total: answer.unread_total,
      byAssignment: new Map(answer.threads.map((th) => [th.assignment_id, th.unread_count])),
    };
    for (const l of this.listeners) l();
  }
}

export const unread = new UnreadMessages();

export function useUnread(): Unread {
  return useSyncExternalStore(unread.subscribe, unread.snapshot);
}

/** One thread, oldest first; reading it marks the agent's messages read. */
export async function loadThread(assignmentId: string): Promise<Message[]> {
  const answer = await unwrap(
    api.GET('/v1/worker/assignments/{assignment_id}/messages', {
      params: { path: { assignment_id: assignmentId } },
    }),
  );
  return answer.messages;
}

export async function sendMessage(assignmentId: string, body: string): Promise<void> {
  await unwrap(
    api.POST('/v1/worker/assignments/{assignment_id}/messages', {
      params: { path: { assignment_id: assignmentId } },
      body: { body },
    }),
  );
}
