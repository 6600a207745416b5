import type { LatLng } from '../../common/geo';
import { gridCell } from '../../common/geo-grid';

/**
 * What a quote may say about the workers near a place (product-decisions §16, "Quote privacy"). A quote once
 * counted workers at the exact point within any radius down to 1 m, so 49 quotes placed a worker within 10 m. Now
 * the count answers "are there people around here", never "where is this one":
 *
 * - the point is snapped to the centre of its 500 m grid cell (common/geo-grid.ts), so moving it inside the cell
 *   changes nothing and the answer cannot be steered by metres;
 * - workers are counted within at least 2,000 m of that centre, whatever the task's radius;
 * - each figure is the lower bound of its bucket (0, 1, 5, 20, 100), so one worker arriving or leaving changes a
 *   figure only where it crosses a bucket's edge;
 * - quotes have their own per-agent budget (QUOTE_RATE_LIMIT_PER_MINUTE and _PER_DAY), so sweeping a city cell by
 *   cell takes days.
 */
export const QUOTE_GRID_METERS = 500;
export const QUOTE_MIN_COUNT_RADIUS_METERS = 2000;

/** The lower bounds of the buckets a quote's worker figures are reported in, ascending. */
export const WORKER_COUNT_BUCKETS = [0, 1, 5, 20, 100] as const;

/** Where and how far a quote counts workers for a task at `point` with radius `radiusMeters`. */
export function quoteCountArea(
  point: LatLng,
  radiusMeters: number,
): { centre: LatLng; radiusMeters: number } {
  return {
    centre: gridCell(point, QUOTE_GRID_METERS).centre,
    radiusMeters: Math.max(radiusMeters, QUOTE_MIN_COUNT_RADIUS_METERS),
  };
}

/** The lower bound of the bucket holding `count`: 0, 1 (1-4), 5 (5-19), 20 (20-99) or 100 (100 and more). */
export function workerCountBucket(count: number): number {
  return WORKER_COUNT_BUCKETS.reduce<number>((floor, edge) => (count >= edge ? edge : floor), 0);
}
