import { distanceMeters, EARTH_RADIUS_METERS, type LatLng } from '../common/geo';

/**
 * The grid behind the nearby search: cells of 1/40 degree of latitude by 1/40 degree of longitude (about 2.8 km by
 * 2.4 km at Shanghai's latitude), numbered row by row from the south-west corner. The SQL function
 * `nearby_cell(latitude, longitude)` (migration 1732200050000) computes the same number with the same float8
 * arithmetic, and the nearby indexes lead with it; cellOf must stay its exact twin (test/matching/nearby-cells).
 */
export const CELLS_PER_DEGREE = 40;
/** Columns per row: longitude 180 exactly gets a column of its own (floor((180 + 180) * 40) = 14400). */
export const CELL_COLUMNS = 360 * CELLS_PER_DEGREE + 1;
const ROWS = 180 * CELLS_PER_DEGREE + 1;

/**
 * A search whose circle covers more cells than this (a radius of tens of kilometres far from the equator, or a
 * circle around a pole) is served by the GiST index instead (nearby-tasks.query.ts): one index descent per cell
 * would cost more than the cells save.
 */
export const MAX_CELLS = 4096;

export function cellOf(latitude: number, longitude: number): number {
  return (
    Math.floor((latitude + 90) * CELLS_PER_DEGREE) * CELL_COLUMNS +
    Math.floor((longitude + 180) * CELLS_PER_DEGREE)
  );
}

export interface NearbyCell {
  cell: number;
  /** Metres from the search centre to the nearest point of the cell (0 for the cell holding the centre). */
  minDistance: number;
}

const DEG = Math.PI / 180;

/** Longitude difference in degrees from `lng` to the interval [west, east], 0 inside it, across the antimeridian. */
function lngGap(lng: number, west: number, east: number): number {
  if (lng >= west && lng <= east) return 0;
  const wrap = (d: number) => ((d % 360) + 360) % 360;
  return Math.min(wrap(west - lng), wrap(lng - east));
}

/**
 * Distance from the centre to the nearest point of a cell. Outside the cell's longitudes the nearest point lies on
 * the nearer edge meridian (for a fixed latitude, distance grows with the longitude difference), where distance is
 * smallest at latitude atan(tan(lat) / cos(dLng)) and grows away from it, so that latitude clamped to the edge is
 * the nearest point.
 */
function minDistance(center: LatLng, south: number, north: number, west: number, east: number): number {
  const gap = lngGap(center.longitude, west, east);
  const clamp = (x: number) => Math.min(north, Math.max(south, x));
  if (gap === 0)
    return distanceMeters(center, { latitude: clamp(center.latitude), longitude: center.longitude });
  const best = Math.atan(Math.tan(center.latitude * DEG) / Math.cos(gap * DEG)) / DEG;
  return distanceMeters(center, { latitude: clamp(best), longitude: center.longitude + gap });
}

/**
 * Every cell that may hold a point within `radiusMeters` (haversine) of the centre, nearest first, or null when the
 * circle reaches a pole or needs more than MAX_CELLS cells. Conservative by a metre: a cell is left out only when
 * its nearest point is farther than the radius plus 1 m, far beyond the float error of either side's haversine.
 */
export function cellsWithin(center: LatLng, radiusMeters: number): NearbyCell[] | null {
  const angular = radiusMeters / EARTH_RADIUS_METERS; // radians
  const dLat = (angular / DEG) * (1 + 1e-9) + 1e-9;
  if (center.latitude + dLat >= 90 || center.latitude - dLat <= -90) return null;
  // Largest longitude difference of a point of the circle (the pole is outside it): asin(sin r / cos lat).
  const ratio = Math.sin(angular) / Math.cos(center.latitude * DEG);
  if (ratio >= 1) return null;
  const dLng = (Math.asin(ratio) / DEG) * (1 + 1e-9) + 1e-9;
  const rowFrom = Math.max(0, Math.floor((center.latitude - dLat + 90) * CELLS_PER_DEGREE));
  const rowTo = Math.min(ROWS - 1, Math.floor((center.latitude + dLat + 90) * CELLS_PER_DEGREE));
  const span = Math.ceil(dLng * CELLS_PER_DEGREE) + 1;
  const home = Math.floor((center.longitude + 180) * CELLS_PER_DEGREE);
  if ((rowTo - rowFrom + 1) * (2 * span + 2) > MAX_CELLS) return null;

  const columns = new Set<number>();
  for (let j = -span; j <= span; j++) {
    columns.add((((home + j) % (CELL_COLUMNS - 1)) + (CELL_COLUMNS - 1)) % (CELL_COLUMNS - 1));
  }
  // Longitude 180 exactly (column 14400) borders column 14399 and, across the antimeridian, column 0.
  if (columns.has(0) || columns.has(CELL_COLUMNS - 2)) columns.add(CELL_COLUMNS - 1);

  const cells: NearbyCell[] = [];
  for (let row = rowFrom; row <= rowTo; row++) {
    const south = row / CELLS_PER_DEGREE - 90;
    const north = Math.min(90, (row + 1) / CELLS_PER_DEGREE - 90);
    for (const col of columns) {
      const west = col / CELLS_PER_DEGREE - 180;
      const east = Math.min(180, (col + 1) / CELLS_PER_DEGREE - 180);
      const d = minDistance(center, south, north, west, east);
      if (d <= radiusMeters + 1) cells.push({ cell: row * CELL_COLUMNS + col, minDistance: d });
    }
  }
  if (cells.length > MAX_CELLS) return null;
  return cells.sort((a, b) => a.minDistance - b.minDistance || a.cell - b.cell);
}
