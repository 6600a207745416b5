import { travelBetween, MAX_TRAVEL_SPEED_KMH, type TrailPoint } from '../../matching/travel';
import type { PhotoVerification } from '../../events/event-data';
import { riskOf, type ProofSignal } from './proof-signals';
import type { Photo } from '../task.repository';

/**
 * Impossible travel (product-decisions §18): the `impossible_travel` signal when the submission's position could not
 * have been reached from the worker's previous known position at MAX_TRAVEL_SPEED_KMH (travel.ts). The detail says
 * how far and how long, never where: positions stay out of what the agent reads.
 */
export function travelSignal(previous: TrailPoint | null, current: TrailPoint): ProofSignal | null {
  if (!previous) return null;
  const t = travelBetween(previous, current);
  if (!t.impossible) return null;
  const km = t.km.toLocaleString('en-US', { maximumFractionDigits: 1 });
  const speed = t.speedKmh === null ? 'no time at all' : `about ${t.speedKmh.toLocaleString('en-US')} km/h`;
  return {
    code: 'impossible_travel',
    detail: `${km} km from the worker's previous known position, ${t.minutes} minute${t.minutes === 1 ? '' : 's'} earlier (${speed}; over ${MAX_TRAVEL_SPEED_KMH} km/h is not plausible).`,
    distance_meters: Math.round(t.km * 1000),
    ...(t.speedKmh === null ? {} : { speed_kmh: t.speedKmh }),
  };
}

/** The photos with `signal` added to each checked photo's verification, and its risk recomputed (riskOf). */
export function withSignal(photos: readonly Photo[], signal: ProofSignal): Photo[] {
  return photos.map((p) => {
    if (!p.verification) return p;
    const signals = [...(p.verification.signals ?? []), signal];
    const verification: PhotoVerification = { ...p.verification, signals, risk: riskOf(signals) };
    return { ...p, verification };
  });
}
