import { ApiError, errorFromResponse } from './errors';

/** The token pair of product-decisions §6 (agents, workers and operators alike). */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

/** Refresh this long before the access token expires, so a request never leaves with a token about to lapse. */
const EARLY_MS = 60_000;

/**
 * One signed-in person in one app. The access token lives in memory only; the refresh token is the one thing kept
 * in localStorage (so a reload or a new tab stays signed in) and nothing else of the session is stored. The access
 * token is renewed silently: on a timer before it expires, before a request when it is about to, and once after a
 * 401. Refresh tokens rotate and reusing a rotated one revokes the whole family (product-decisions §6), so refreshes
 * are single-flight in a tab and serialised across tabs with a Web Lock; inside the lock the stored token is read
 * again, so a tab never presents one a sibling tab has already rotated.
 */
export class Session {
  private access: string | null = null;
  private expiresAt = 0;
  private inflight: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();
  private restored: Promise<boolean> | null = null;
  /** Whether the last sign-out was the person's own (log out) rather than a refused refresh. */
  private loggedOut = false;
  /** The error code of the refresh that ended the session, if one did (session_expired: the 12-hour limit). */
  private refusedWith: string | null = null;

  constructor(
    /** The refresh endpoint, e.g. /v1/worker/refresh. */
    private readonly refreshPath: string,
    /** The localStorage key of the refresh token, one per app. */
    private readonly storageKey: string,
    /** The logout endpoint that revokes the refresh token, e.g. /v1/worker/logout; without it logOut only forgets. */
    private readonly logoutPath?: string,
  ) {}

  get accessToken(): string | null {
    return this.access;
  }

  get signedIn(): boolean {
    return this.access !== null;
  }

  /** For useSyncExternalStore: called whenever signed-in state changes. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): boolean => this.signedIn;

  /**
   * True after the person logged out: a screen that then finds no session sends them to sign in without
   * remembering where they were (the next person to log in on the phone starts at home).
   */
  get endedByLogout(): boolean {
    return this.loggedOut;
  }

  /** Why the server ended the session, when it did: the sign-in screen can say so. */
  get endedWith(): string | null {
    return this.refusedWith;
  }

  /** After login, registration or a refresh. */
  signIn(pair: TokenPair): void {
    this.loggedOut = false;
    this.refusedWith = null;
    localStorage.setItem(this.storageKey, pair.refresh_token);
    this.access = pair.access_token;
    this.expiresAt = Date.now() + pair.expires_in * 1000;
    this.schedule();
    this.notify();
  }

  /**
   * Forgets both tokens in this browser and asks the API to revoke the refresh token, so a copy of it (another tab,
   * a stolen one) cannot refresh again. The revocation is best effort: offline or refused, the person is still
   * logged out here, and the token lapses in 7 days (an operator's session within 12 hours). Taken under the refresh lock, so no sibling tab rotates the
   * token between the read and the revocation.
   */
  async logOut(): Promise<void> {
    this.loggedOut = true;
    const token = localStorage.getItem(this.storageKey);
    this.signOut();
    if (!token || !this.logoutPath) return;
    const path = this.logoutPath;
    await this.locked(async () => {
      try {
        await fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ refresh_token: token }),
        });
      } catch {
        // Offline: nothing more to do here; the token is already forgotten in this browser.
      }
    });
  }

  /** Ends the session (a refused refresh, or logOut). */
  signOut(): void {
    localStorage.removeItem(this.storageKey);
    this.access = null;
    this.expiresAt = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.notify();
  }

  /** Whether a refresh token is stored, which restore() will try: the person was signed in on this browser. */
  get restorable(): boolean {
    return localStorage.getItem(this.storageKey) !== null;
  }

  /** On start-up: a stored refresh token becomes a session. Resolves whether the person is signed in. */
  restore(): Promise<boolean> {
    this.restored ??= this.restorable ? this.refresh() : Promise.resolve(false);
    return this.restored;
  }

  /** Renews the pair. Resolves false (and signs out) when the refresh token is refused. */
  refresh(): Promise<boolean> {
    this.inflight ??= this.locked(() => this.rotate()).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /** fetch with the access token, renewed first when about to expire and once more after a 401. */
  fetch = async (request: Request): Promise<Response> => {
    const retry = request.clone();
    if (this.access && Date.now() > this.expiresAt - EARLY_MS) await this.refresh();
    const first = await fetch(this.authorised(request));
    if (first.status !== 401 || !localStorage.getItem(this.storageKey)) return first;
    if (!(await this.refresh())) return first;
    return fetch(this.authorised(retry));
  };

  private authorised(request: Request): Request {
    if (this.access) request.headers.set('Authorization', `Bearer ${this.access}`);
    return request;
  }

  private async rotate(): Promise<boolean> {
    const token = localStorage.getItem(this.storageKey);
    if (!token) {
      this.signOut();
      return false;
    }
    let response: Response;
    try {
      response = await fetch(this.refreshPath, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: token }),
      });
    } catch {
      // Offline: keep the refresh token and try again later.
      return false;
    }
    if (!response.ok) {
      const error: ApiError = await errorFromResponse(response);
      // Refused (expired, revoked, reused): the person signs in again. A 5xx or 429 keeps the token for later.
      if (response.status === 401 || response.status === 400 || error.code === 'invalid_token') {
        this.refusedWith = error.code;
        this.signOut();
      }
      return false;
    }
    this.signIn((await response.json()) as TokenPair);
    return true;
  }

  private locked<T>(work: () => Promise<T>): Promise<T> {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    return locks ? locks.request(`legwork-refresh:${this.storageKey}`, work) : work();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    const wait = Math.max(this.expiresAt - Date.now() - EARLY_MS, 5_000);
    this.timer = setTimeout(() => void this.refresh(), wait);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
