import { io, type Socket } from 'socket.io-client';
import { useEffect, useRef, useState } from 'react';
import type { Session } from './auth';

/** An event as the server emits it: the webhook names and payloads (docs/webhooks.md). */
export type LiveHandler = (name: string, payload: unknown) => void;

/** The `error` message the gateway sends a socket before it disconnects it (docs/webhooks.md, "Socket limits"). */
export interface LiveError {
  code: string;
  message?: string;
  /** Seconds; sent with a refused handshake's `rate_limited`. */
  retry_after?: number;
}

/**
 * What the live connection is doing. `waiting`: the server said `rate_limited`, so nothing is sent and no
 * connection is tried before `until` (ms since the epoch). `replaced`: the server closed this connection for a
 * newer one of the same account (`too_many_connections`); reconnecting would close that one in turn, so this one
 * stays closed and the person is told.
 */
export type LiveStatus = { state: 'live' } | { state: 'waiting'; until: number } | { state: 'replaced' };

/** How long to stay quiet after a `rate_limited` that names no time (a flooding socket's disconnect). */
export const RATE_LIMITED_WAIT_S = 60;

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

/**
 * Follows the server's socket limits on a socket: after `rate_limited` it disconnects and connects again only
 * after `retry_after` seconds (RATE_LIMITED_WAIT_S without one); after `too_many_connections` it disconnects for
 * good. Either way it stops socket.io's own reconnection, which would otherwise try again within a second or two:
 * too soon for the rate, and round a loop for the connection count. Other disconnects (a dropped network) are left
 * to socket.io's reconnection. Returns a function that cancels a pending reconnection.
 */
export function followLimits(socket: Socket, onStatus: (status: LiveStatus) => void): () => void {
  let told: LiveError | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  socket.on('connect', () => {
    told = null;
    onStatus({ state: 'live' });
  });
  socket.on('error', (error: LiveError) => {
    told = error;
  });
  socket.on('disconnect', () => {
    if (told?.code === 'too_many_connections') {
      socket.disconnect();
      onStatus({ state: 'replaced' });
    } else if (told?.code === 'rate_limited') {
      const waitMs = (told.retry_after ?? RATE_LIMITED_WAIT_S) * 1000;
      socket.disconnect();
      onStatus({ state: 'waiting', until: Date.now() + waitMs });
      clearTimeout(timer);
      timer = setTimeout(() => socket.connect(), waitMs);
    }
  });
  return () => clearTimeout(timer);
}

/**
 * Keeps one live connection while signed in; the latest handler is always the one called. Returns the
 * connection's status, so the app can say when live updates have stopped.
 */
export function useLive(session: Session, signedIn: boolean, onEvent: LiveHandler): LiveStatus {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [status, setStatus] = useState<LiveStatus>({ state: 'live' });
  useEffect(() => {
    if (!signedIn) return;
    const socket = connectLive(session, (name, payload) => handler.current(name, payload));
    const stop = followLimits(socket, setStatus);
    return () => {
      stop();
      socket.disconnect();
      setStatus({ state: 'live' });
    };
  }, [session, signedIn]);
  return status;
}
