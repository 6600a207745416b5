import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Session, type TokenPair } from './auth';

/** A localStorage of the test's own (Node has none). */
class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
  keys = () => [...this.items.keys()];
}

const pair = (n: number, expiresIn = 900): TokenPair => ({
  access_token: `access-${n}`,
  refresh_token: `refresh-${n}`,
  token_type: 'bearer',
  expires_in: expiresIn,
});
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('Session', () => {
  let storage: MemoryStorage;
  /** The server's state: the one refresh token it accepts, and the access token it accepts (null: expired). */
  let valid: { access: string | null; refresh: string };
  let rotations: string[];
  let issued: number;

  /** A server whose refresh endpoint rotates the pair and whose API accepts only the current access token. */
  async function server(req: Request): Promise<Response> {
    if (req.url.endsWith('/v1/worker/logout')) {
      const { refresh_token } = (await req.json()) as { refresh_token: string };
      if (refresh_token === valid.refresh) valid = { access: valid.access, refresh: 'revoked' };
      return new Response(null, { status: 204 });
    }
    if (req.url.endsWith('/v1/worker/refresh')) {
      const { refresh_token } = (await req.json()) as { refresh_token: string };
      rotations.push(refresh_token);
      if (refresh_token !== valid.refresh)
        return json(401, { error: { code: 'invalid_token', message: 'reused' } });
      issued += 1;
      valid = { access: `access-${issued}`, refresh: `refresh-${issued}` };
      return json(200, pair(issued));
    }
    return valid.access && req.headers.get('authorization') === `Bearer ${valid.access}`
      ? json(200, { ok: true })
      : json(401, { error: { code: 'invalid_token', message: 'expired' } });
  }

  beforeEach(() => {
    storage = new MemoryStorage();
    vi.stubGlobal('localStorage', storage);
    rotations = [];
    issued = 1;
    valid = { access: 'access-1', refresh: 'refresh-1' };
    vi.stubGlobal('fetch', (input: Request | string, init?: RequestInit) =>
      server(typeof input === 'string' ? new Request(new URL(input, 'http://app.test'), init) : input),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const session = () => new Session('/v1/worker/refresh', 'legwork.test.refresh');

  it('keeps only the refresh token in storage; the access token stays in memory', () => {
    const s = session();
    s.signIn(pair(1));
    expect(storage.keys()).toEqual(['legwork.test.refresh']);
    expect(storage.getItem('legwork.test.refresh')).toBe('refresh-1');
    expect(s.accessToken).toBe('access-1');
  });

  it('after a 401, refreshes and retries with the new token, never presenting a rotated refresh token', async () => {
    const s = session();
    s.signIn(pair(1));
    valid.access = null; // the access token has expired on the server
    const answers = await Promise.all([
      s.fetch(new Request('http://app.test/v1/worker/profile')),
      s.fetch(new Request('http://app.test/v1/worker/earnings')),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    // Each refresh presented the token that was current then (a reused one would have revoked the family).
    expect(rotations[0]).toBe('refresh-1');
    expect(new Set(rotations).size).toBe(rotations.length);
    expect(s.signedIn).toBe(true);
    expect(storage.getItem('legwork.test.refresh')).toBe(valid.refresh);
  });

  it('refreshes before a request when the access token is about to expire', async () => {
    const s = session();
    s.signIn(pair(1, 30)); // 30 s left: inside the one-minute margin
    const answer = await s.fetch(new Request('http://app.test/v1/worker/profile'));
    expect(answer.status).toBe(200);
    expect(rotations).toEqual(['refresh-1']);
  });

  it('signs out when the refresh token is refused, and tells its listeners', async () => {
    const s = session();
    s.signIn(pair(1));
    storage.setItem('legwork.test.refresh', 'refresh-revoked');
    const seen: boolean[] = [];
    s.subscribe(() => seen.push(s.signedIn));
    expect(await s.refresh()).toBe(false);
    expect(s.signedIn).toBe(false);
    expect(storage.keys()).toEqual([]);
    expect(seen).toEqual([false]);
    expect(s.endedWith).toBe('invalid_token');
    s.signIn(pair(2));
    expect(s.endedWith).toBeNull();
  });

  it('remembers that the server ended the session for its age (session_expired), for the sign-in screen', async () => {
    const s = session();
    s.signIn(pair(1));
    vi.stubGlobal('fetch', () =>
      Promise.resolve(json(401, { error: { code: 'session_expired', message: '12 hours' } })),
    );
    expect(await s.refresh()).toBe(false);
    expect(s.signedIn).toBe(false);
    expect(s.endedWith).toBe('session_expired');
  });

  it('restores a session from the stored refresh token after a reload', async () => {
    storage.setItem('legwork.test.refresh', 'refresh-1');
    const s = session();
    expect(s.signedIn).toBe(false);
    expect(await s.restore()).toBe(true);
    expect(s.accessToken).toBe('access-2');
  });

  it('keeps the refresh token when the network is down', async () => {
    const s = session();
    s.signIn(pair(1));
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await s.refresh()).toBe(false);
    expect(storage.getItem('legwork.test.refresh')).toBe('refresh-1');
  });

  it('logging out forgets both tokens and revokes the refresh token on the server', async () => {
    const s = new Session('/v1/worker/refresh', 'legwork.test.refresh', '/v1/worker/logout');
    s.signIn(pair(1));
    await s.logOut();
    expect(s.signedIn).toBe(false);
    expect(s.endedByLogout).toBe(true);
    expect(storage.keys()).toEqual([]);
    // A copy of the token kept elsewhere no longer refreshes.
    expect(valid.refresh).toBe('revoked');
  });

  it('logging out offline still forgets the session on this device', async () => {
    const s = new Session('/v1/worker/refresh', 'legwork.test.refresh', '/v1/worker/logout');
    s.signIn(pair(1));
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await s.logOut();
    expect(s.signedIn).toBe(false);
    expect(storage.keys()).toEqual([]);
  });
});
