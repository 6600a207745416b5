import { unwrap } from '../shared/api';
import { ApiError } from '../shared/errors';
import { api } from './session';
import { type Fix, currentFix, distanceMeters, toFix } from './geo';

/** Report again after this long even when standing still: the API drops a worker offline after 10 minutes. */
const HEARTBEAT_MS = 4 * 60_000;
/** Or as soon as the worker has moved this far since the last report. */
const MOVED_M = 100;

export interface AvailabilityState {
  online: boolean;
  busy: boolean;
  fix: Fix | null;
  reportedAt: string | null;
  error: unknown;
}

/**
 * The availability switch (PUT /v1/worker/availability, product-decisions §5): while it is on, the phone's position
 * is watched and reported when it moves or every few minutes, so push offers match where the worker is. It lives
 * outside the screens, so it keeps reporting while the worker browses tasks or earnings.
 */
class Availability {
  private state: AvailabilityState = { online: false, busy: false, fix: null, reportedAt: null, error: null };
  private watch: number | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private lastReported: Fix | null = null;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): AvailabilityState => this.state;

  async setOnline(online: boolean): Promise<void> {
    this.set({ busy: true, error: null });
    try {
      if (online) {
        const fix = await currentFix();
        await this.report(fix);
        this.set({ online: true });
        this.startWatching();
      } else {
        this.stopWatching();
        await unwrap(api.PUT('/v1/worker/availability', { body: { online: false } }));
        this.set({ online: false });
      }
    } catch (err) {
      this.set({ error: err });
    } finally {
      this.set({ busy: false });
    }
  }

  /** On logout: stop watching without a request (the session is gone; the API lapses it in 10 minutes). */
  reset(): void {
    this.stopWatching();
    this.set({ online: false, fix: null, reportedAt: null, error: null });
  }

  private async report(fix: Fix): Promise<void> {
    const answer = await unwrap(
      api.PUT('/v1/worker/availability', {
        body: { online: true, latitude: fix.latitude, longitude: fix.longitude },
      }),
    );
    this.lastReported = fix;
    this.set({ fix, reportedAt: answer.last_seen_at ?? new Date().toISOString() });
  }

  private startWatching(): void {
    this.stopWatching();
    this.watch = navigator.geolocation.watchPosition(
      (p) => {
        const fix = toFix(p);
        this.set({ fix });
        if (!this.lastReported || distanceMeters(this.lastReported, fix) >= MOVED_M)
          void this.safeReport(fix);
      },
      (err) => this.set({ error: new ApiError(0, 'location_unavailable', err.message) }),
      { enableHighAccuracy: true, maximumAge: 30_000 },
    );
    this.heartbeat = setInterval(() => {
      if (this.state.fix) void this.safeReport(this.state.fix);
    }, HEARTBEAT_MS);
  }

  private stopWatching(): void {
    if (this.watch !== null) navigator.geolocation.clearWatch(this.watch);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.watch = null;
    this.heartbeat = null;
  }

  private async safeReport(fix: Fix): Promise<void> {
    try {
      await this.report(fix);
    } catch (err) {
      this.set({ error: err });
    }
  }

  private set(patch: Partial<AvailabilityState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }
}

export const availability = new Availability();
