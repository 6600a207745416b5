import { unwrap, type Schemas } from '../shared/api';
import { ApiError } from '../shared/errors';
import { api, session } from './session';
import { type Fix, currentFix, toFix } from './geo';

/** Report the position this often while the app is visible: offers match on a position at most 30 minutes old. */
const REPORT_MS = 60_000;

type ServerState = Schemas['AvailabilityResponse'];

export interface AvailabilityState {
  /** The server's state has been read (GET /v1/worker/availability); until then the switch shows nothing. */
  loaded: boolean;
  /** On call, as the server says. */
  online: boolean;
  onCallUntil: string | null;
  /** The position the server has is fresh enough to match on (at most 30 minutes old). */
  positionFresh: boolean;
  busy: boolean;
  fix: Fix | null;
  reportedAt: string | null;
  /**
   * The server answered consent_required (product-decisions §19): going on call waits for the worker's consent to
   * precise location, which the consent screen asks for before trying again.
   */
  consentNeeded: boolean;
  error: unknown;
}

const INITIAL: AvailabilityState = {
  loaded: false,
  online: false,
  onCallUntil: null,
  positionFresh: false,
  busy: false,
  fix: null,
  reportedAt: null,
  consentNeeded: false,
  error: null,
};

/**
 * Being on call (PUT /v1/worker/availability, product-decisions §16). The app shows what the server answers, never a
 * guess of its own: it reads the state on load and after every report, and again when the worker's other devices
 * change it (`worker.on_call` / `worker.off_call` on the socket). While on call and visible it watches the phone's
 * position and reports it every minute; hidden or closed, it reports nothing and the worker stays on call (offers
 * still reach the phone) until ON_CALL_HOURS after the last report. It lives outside the screens, so it keeps
 * reporting while the worker browses tasks or earnings.
 */
class Availability {
  private state: AvailabilityState = INITIAL;
  private watch: number | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): AvailabilityState => this.state;

  /**
   * Reads the server's state (on load, back on screen, on a socket event); on call, reporting goes on from here,
   * at once when the server's position has grown too old to match on.
   */
  async load(): Promise<void> {
    try {
      this.apply(await unwrap(api.GET('/v1/worker/availability')));
      this.set({ error: null });
      if (this.state.online) {
        this.startReporting();
        if (visible() && !this.state.positionFresh) await this.reportNow();
      } else {
        this.stopReporting();
      }
    } catch (err) {
      this.set({ error: err });
    }
  }

  async setOnline(online: boolean): Promise<void> {
    this.set({ busy: true, error: null, consentNeeded: false });
    try {
      if (online) {
        await this.report(await currentFix());
        this.startReporting();
      } else {
        this.stopReporting();
        this.apply(await unwrap(api.PUT('/v1/worker/availability', { body: { online: false } })));
      }
    } catch (err) {
      this.failed(err);
    } finally {
      this.set({ busy: false });
    }
  }

  /** The worker declined the consent screen: stay off call, say nothing more. */
  dismissConsent(): void {
    this.set({ consentNeeded: false });
  }

  /**
   * On sign-out: off call on the server too, so no offer waits for a worker who left. A keepalive request, so it is
   * sent even as the page goes to the sign-in screen or closes (sendBeacon cannot carry the bearer token); it does
   * not hold the sign-out up.
   */
  signOut(): void {
    const token = session.accessToken;
    if (this.state.online && token) {
      void fetch('/v1/worker/availability', {
        method: 'PUT',
        keepalive: true,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ online: false }),
      }).catch(() => {
        // Offline: the server ends being on call by itself ON_CALL_HOURS after the last report.
      });
    }
    this.stopReporting();
    this.state = INITIAL;
    this.notify();
  }

  private async report(fix: Fix): Promise<void> {
    const answer = await unwrap(
      api.PUT('/v1/worker/availability', {
        body: { online: true, latitude: fix.latitude, longitude: fix.longitude },
      }),
    );
    this.set({ fix });
    this.apply(answer);
  }

  private async reportNow(): Promise<void> {
    try {
      await this.report(this.state.fix ?? (await currentFix()));
    } catch (err) {
      this.failed(err);
    }
  }

  /**
   * consent_required is a question for the worker, not an error: reporting stops (no position may be sent without
   * consent) and the consent screen opens. A worker on call from before consent was asked sees it at the next report.
   */
  private failed(err: unknown): void {
    if (err instanceof ApiError && err.code === 'consent_required') {
      this.stopReporting();
      this.set({ consentNeeded: true, error: null });
    } else {
      this.set({ error: err });
    }
  }

  private apply(s: ServerState): void {
    this.set({
      loaded: true,
      online: s.online,
      onCallUntil: s.on_call_until,
      positionFresh: s.position_fresh,
      reportedAt: s.position_at,
    });
  }

  private startReporting(): void {
    if (this.timer) return;
    this.watch = navigator.geolocation.watchPosition(
      (p) => this.set({ fix: toFix(p) }),
      (err) => this.set({ error: new ApiError(0, 'location_unavailable', err.message) }),
      { enableHighAccuracy: true, maximumAge: 30_000 },
    );
    this.timer = setInterval(() => {
      if (visible()) void this.reportNow();
    }, REPORT_MS);
    document.addEventListener('visibilitychange', this.onVisible);
  }

  private stopReporting(): void {
    if (this.watch !== null) navigator.geolocation.clearWatch(this.watch);
    if (this.timer) clearInterval(this.timer);
    document.removeEventListener('visibilitychange', this.onVisible);
    this.watch = null;
    this.timer = null;
  }

  /** Back on screen after a while: what the server says now (being on call may have ended meanwhile). */
  private readonly onVisible = () => {
    if (visible()) void this.load();
  };

  private set(patch: Partial<AvailabilityState>): void {
    this.state = { ...this.state, ...patch };
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

function visible(): boolean {
  return document.visibilityState === 'visible';
}

export const availability = new Availability();
