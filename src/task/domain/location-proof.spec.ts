import fc from 'fast-check';
import { ApiError } from '../../common/errors/api-error';
import {
  CAPTURE_WINDOW_SLACK_SECONDS,
  DeviceFix,
  deviceFixProblem,
  placePhoto,
  takenDuringAssignment,
  verificationOf,
  withRisk,
} from './location-proof';

const TASK = { latitude: 31.2304, longitude: 121.4737 };
const NOW = new Date('2030-01-01T12:00:00.000Z');
/** About this many metres north of the task. */
const north = (m: number) => ({ latitude: TASK.latitude + m / 111_195, longitude: TASK.longitude });
const fix = (m: number, accuracy: number, ageSeconds: number): DeviceFix => ({
  ...north(m),
  accuracy_m: accuracy,
  captured_at: new Date(NOW.getTime() - ageSeconds * 1000),
});

function refusal(run: () => unknown): { code: string; extra: Record<string, unknown> } {
  try {
    run();
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, extra: { ...err.extra } };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('placePhoto', () => {
  const noGps = { gps: null, takenAt: null };

  it('EXIF GPS within 100 m places the photo, whatever the proof mode and the device fix', () => {
    for (const proof of ['photo_gps', 'photo_or_device_gps'] as const) {
      expect(placePhoto({ gps: north(100), takenAt: null }, TASK, proof, fix(2000, 500, 3600), NOW)).toEqual({
        source: 'exif',
        distance: 100,
        accuracy: null,
        takenAt: null,
      });
    }
  });

  it('EXIF GPS beyond 100 m is photo_location_mismatch from exif, even with a good device fix', () => {
    expect(
      refusal(() =>
        placePhoto({ gps: north(101), takenAt: null }, TASK, 'photo_or_device_gps', fix(0, 5, 0), NOW),
      ),
    ).toEqual({
      code: 'photo_location_mismatch',
      extra: { distance_meters: 101, max_distance_meters: 100, location_source: 'exif' },
    });
  });

  it('without EXIF GPS, photo_gps refuses whatever the device says', () => {
    expect(refusal(() => placePhoto(noGps, TASK, 'photo_gps', fix(0, 5, 0), NOW)).code).toBe(
      'photo_gps_missing',
    );
  });

  it('without EXIF GPS, photo_or_device_gps takes a fresh, precise, near fix; its time stands in for the capture time', () => {
    const device = fix(40, 20, 300);
    expect(placePhoto(noGps, TASK, 'photo_or_device_gps', device, NOW)).toEqual({
      source: 'device',
      distance: 40,
      accuracy: 20,
      takenAt: device.captured_at,
    });
    const exifTime = new Date('2030-01-01T11:59:00Z');
    expect(
      placePhoto({ gps: null, takenAt: exifTime }, TASK, 'photo_or_device_gps', device, NOW).takenAt,
    ).toBe(exifTime);
  });

  it('refuses a missing, stale (over 300 s), imprecise (over 50 m) or distant (over 100 m) device fix', () => {
    const place = (d: DeviceFix | null) => () => placePhoto(noGps, TASK, 'photo_or_device_gps', d, NOW);
    expect(refusal(place(null)).code).toBe('photo_gps_missing');
    expect(refusal(place(fix(10, 10, 301)))).toEqual({
      code: 'device_location_stale',
      extra: { age_seconds: 301, max_age_seconds: 300 },
    });
    expect(refusal(place(fix(10, 50.5, 10)))).toEqual({
      code: 'device_location_inaccurate',
      extra: { accuracy_m: 50.5, max_accuracy_m: 50 },
    });
    expect(refusal(place(fix(250, 10, 10)))).toEqual({
      code: 'photo_location_mismatch',
      extra: { distance_meters: 250, max_distance_meters: 100, location_source: 'device' },
    });
    expect(place(fix(100, 50, 300))()).toMatchObject({ source: 'device', distance: 100 });
  });

  it('property: a device fix is accepted exactly when fresh, precise and near', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.double({ min: 0.1, max: 200, noNaN: true }),
        fc.integer({ min: 0, max: 900 }),
        (metres, accuracy, age) => {
          const ok = metres <= 100 && accuracy <= 50 && age <= 300;
          let placed = true;
          try {
            placePhoto(noGps, TASK, 'photo_or_device_gps', fix(metres, accuracy, age), NOW);
          } catch {
            placed = false;
          }
          return placed === ok;
        },
      ),
    );
  });
});

describe('takenDuringAssignment', () => {
  const accepted = new Date('2030-01-01T10:00:00Z');
  const slack = CAPTURE_WINDOW_SLACK_SECONDS * 1000;
  const at = (ms: number) => new Date(ms);

  it('is null without a capture time, true inside acceptance..submission (with slack), false outside', () => {
    expect(takenDuringAssignment(null, accepted, NOW)).toBeNull();
    expect(takenDuringAssignment(at(accepted.getTime() + 1), accepted, NOW)).toBe(true);
    expect(takenDuringAssignment(at(accepted.getTime() - slack), accepted, NOW)).toBe(true);
    expect(takenDuringAssignment(at(accepted.getTime() - slack - 1000), accepted, NOW)).toBe(false);
    expect(takenDuringAssignment(at(NOW.getTime() + slack), accepted, NOW)).toBe(true);
    expect(takenDuringAssignment(at(NOW.getTime() + slack + 1000), accepted, NOW)).toBe(false);
  });
});

describe('verificationOf', () => {
  const placed = {
    source: 'device' as const,
    distance: 40,
    accuracy: 20,
    takenAt: new Date('2030-01-01T11:58:00Z'),
  };
  const during = { acceptedAt: new Date('2030-01-01T11:00:00Z'), submittedAt: NOW };

  it('flags reuse of another worker’s bytes as reused_photo (other, high) and shows the device accuracy', () => {
    const first = new Date('2029-12-31T08:00:00Z');
    expect(
      verificationOf(placed, 'ab'.repeat(32), during, { count: 2, firstSubmittedAt: first, byOthers: 1 }),
    ).toEqual({
      location_source: 'device',
      distance_meters: 40,
      accuracy_m: 20,
      taken_at: '2030-01-01T11:58:00.000Z',
      taken_during_assignment: true,
      sha256: 'ab'.repeat(32),
      reused: true,
      earlier_submissions: 2,
      first_submitted_at: first.toISOString(),
      risk: 'high',
      signals: [
        {
          code: 'reused_photo',
          scope: 'other',
          detail: 'The same bytes were submitted before (2 earlier submissions), by another worker.',
        },
      ],
    });
  });

  it('the worker’s own bytes again are reused_photo (own, medium)', () => {
    const v = verificationOf(placed, 'ab'.repeat(32), during, {
      count: 1,
      firstSubmittedAt: NOW,
      byOthers: 0,
    });
    expect(v.risk).toBe('medium');
    expect(v.signals.map((s) => [s.code, s.scope])).toEqual([['reused_photo', 'own']]);
  });

  it('a capture outside the window is capture_outside_window (medium); a clean photo is low with no signals', () => {
    const none = { count: 0, firstSubmittedAt: null, byOthers: 0 };
    expect(
      verificationOf(placed, 'cd'.repeat(32), { acceptedAt: NOW, submittedAt: NOW }, none),
    ).toMatchObject({
      reused: false,
      earlier_submissions: 0,
      first_submitted_at: null,
      taken_during_assignment: false,
      risk: 'medium',
      signals: [{ code: 'capture_outside_window' }],
    });
    expect(verificationOf(placed, 'cd'.repeat(32), during, none)).toMatchObject({ risk: 'low', signals: [] });
    // No capture time: nothing to judge, no signal.
    const untimed = { ...placed, takenAt: null };
    expect(verificationOf(untimed, 'cd'.repeat(32), during, none)).toMatchObject({
      risk: 'low',
      signals: [],
    });
  });

  it('signals found elsewhere join in and set the risk; the same bytes and a near-duplicate make one reuse signal', () => {
    const none = { count: 0, firstSubmittedAt: null, byOthers: 0 };
    const found = [{ code: 'no_camera_metadata' as const, detail: 'no make or model' }];
    const v = verificationOf(
      placed,
      'ab'.repeat(32),
      during,
      { count: 1, firstSubmittedAt: NOW, byOthers: 0 },
      found,
      { count: 2, byOthers: 1, nearest: 3 },
    );
    expect(v.signals).toEqual([
      expect.objectContaining({ code: 'reused_photo', scope: 'other' }),
      { code: 'no_camera_metadata', detail: 'no make or model' },
    ]);
    expect(v.risk).toBe('high');
    const own = verificationOf(placed, 'ab'.repeat(32), during, none, found, {
      count: 1,
      byOthers: 0,
      nearest: 2,
    });
    expect(own.signals[0]).toMatchObject({ code: 'reused_photo', scope: 'own' });
    expect(own.risk).toBe('medium');
  });
});

describe('deviceFixProblem', () => {
  it('allows a clock up to 60 s ahead, refuses one further ahead', () => {
    expect(deviceFixProblem(fix(0, 5, -60), NOW)).toBeNull();
    expect(deviceFixProblem(fix(0, 5, -61), NOW)).toBe('must not lie in the future');
  });
});

describe('withRisk', () => {
  const stored = {
    location_source: 'exif' as const,
    distance_meters: 12,
    accuracy_m: null,
    taken_at: '2030-01-01T08:00:00.000Z',
    taken_during_assignment: true,
    sha256: 'ab'.repeat(32),
    reused: false,
    earlier_submissions: 0,
    first_submitted_at: null,
  };
  type Legacy = Parameters<typeof withRisk>[0];

  it('gives a verification stored before §18 its risk and signals from what it recorded', () => {
    expect(withRisk(stored as Legacy)).toEqual({ ...stored, risk: 'low', signals: [] });
    const reusedLate = { ...stored, reused: true, earlier_submissions: 1, taken_during_assignment: false };
    expect(withRisk(reusedLate as Legacy)).toMatchObject({
      risk: 'high',
      signals: [{ code: 'reused_photo' }, { code: 'capture_outside_window' }],
    });
  });

  it('leaves a verification that has them as it is', () => {
    const v = {
      ...stored,
      risk: 'medium' as const,
      signals: [{ code: 'exif_edited' as const, detail: 'x' }],
    };
    expect(withRisk(v)).toBe(v);
  });
});
