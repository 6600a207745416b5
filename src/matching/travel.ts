import { distanceMeters, LatLng } from '../common/geo';

/**
 * Travel plausibility (product-decisions §18), as a pure rule: could the worker have gone from their previous known
 * position to where they are now in the time between? Both positions are widened by their accuracy (a position known
 * to 50 m may be 50 m nearer), short hops are ignored (GPS noise, a worker crossing a street), and what remains is
 * judged by the implied speed.
 */
export const MAX_TRAVEL_SPEED_KMH = 200;
/** Below this distance (after accuracy) no speed is judged: noise, not travel. */
export const MIN_TRAVEL_DISTANCE_METERS = 1_000;
/** The accuracy assumed for a position that reports none (a photo's EXIF GPS). */
export const UNKNOWN_ACCURACY_METERS = 50;

export interface TrailPoint extends LatLng {
  accuracy_m: number | null;
  at: Date;
}

export interface Travel {
  /** The distance beyond both accuracies, in kilometres (one decimal). */
  km: number;
  /** The time between the two positions, in whole minutes (0 when under a minute or out of order). */
  minutes: number;
  /** Implied speed in km/h; null when no time passed. */
  speedKmh: number | null;
  impossible: boolean;
}

/** The travel from `from` to `to`; `impossible` when faster than MAX_TRAVEL_SPEED_KMH over a real distance. */
export function travelBetween(from: TrailPoint, to: TrailPoint): Travel {
  const slack = (from.accuracy_m ?? UNKNOWN_ACCURACY_METERS) + (to.accuracy_m ?? UNKNOWN_ACCURACY_METERS);
  const meters = Math.max(0, distanceMeters(from, to) - slack);
  const ms = Math.max(0, to.at.getTime() - from.at.getTime());
  const speedKmh = ms > 0 ? meters / 1000 / (ms / 3_600_000) : null;
  const impossible =
    meters >= MIN_TRAVEL_DISTANCE_METERS && (speedKmh === null || speedKmh > MAX_TRAVEL_SPEED_KMH);
  return {
    km: Math.round(meters / 100) / 10,
    minutes: Math.floor(ms / 60_000),
    speedKmh: speedKmh === null ? null : Math.round(speedKmh),
    impossible,
  };
}
