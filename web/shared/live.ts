import { io, type Socket } from 'socket.io-client';
import { useEffect, useRef } from 'react';
import type { Session } from './auth';

/** An event as the server emits it: the webhook names and payloads (docs/webhooks.md). */
export type LiveHandler = (name: string, payload: unknown) => void;

/**
 * Live updates over socket.io (path /ws, product-decisions §6). The handshake reads the session's current access
 * token each time it connects, so a reconnect after a silent refresh presents the new one. Every event the person's
 * room receives is passed to the handler; screens pick the names they care about.
 */
export function connectLive(session: Session, onEvent: LiveHandler): Socket {
  const socket = io({
    path: '/ws',
    transports: ['websocket'],
    auth: (cb) => cb({ token: session.accessToken ?? '' }),
  });
  socket.onAny((name: string, payload: unknown) => {
    if (name !== 'ready' && name !== 'error') onEvent(name, payload);
  });
  return socket;
}

/** Keeps one live connection while signed in; the latest handler is always the one called. */
export function useLive(session: Session, signedIn: boolean, onEvent: LiveHandler): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!signedIn) return;
    const socket = connectLive(session, (name, payload) => handler.current(name, payload));
    return () => {
      socket.disconnect();
    };
  }, [session, signedIn]);
}
