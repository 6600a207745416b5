import { EARTH_RADIUS_METERS, type LatLng } from './geo';

/** One square of a grid: its row and column, and its centre (what a point is snapped to). */
export interface GridCell {
  row: number;
  column: number;
  centre: LatLng;
}

const DEGREES = 180 / Math.PI;

/**
 * The cell of a grid of `sizeMeters` squares that holds a point, on the sphere every distance of the service is
 * measured on (haversine, EARTH_RADIUS_METERS; see geo.ts), so "500 m" means the metres the counting radius uses.
 *
 * - Rows are bands `sizeMeters` tall along the meridian, counted from the equator: row r holds the points whose
 *   meridian arc from the equator is in [r·size, (r+1)·size).
 * - Each row is cut into n equal columns from 180° W, n being as many whole `sizeMeters` as fit around the row's
 *   middle parallel, so a cell is `sizeMeters` wide there (a hair more: the remainder is shared out, under 0.001 %
 *   at 500 m below 80° of latitude) and no sliver is left at the antimeridian. Near a pole a row has few, wider cells.
 *
 * Every point of a cell snaps to the same centre, so moving a point inside its cell changes nothing, and a point lies
 * within half a diagonal (about 354 m for 500 m cells) of its centre.
 */
export function gridCell(point: LatLng, sizeMeters: number): GridCell {
  const rowArc = sizeMeters / EARTH_RADIUS_METERS;
  const lastRow = Math.floor(Math.PI / 2 / rowArc);
  // `+ 0` turns the -0 of a point at -0° latitude into row 0.
  const row = clamp(Math.floor(point.latitude / DEGREES / rowArc), -lastRow - 1, lastRow) + 0;
  const latitude = clamp((row + 0.5) * rowArc * DEGREES, -90, 90);
  const around = 2 * Math.PI * EARTH_RADIUS_METERS * Math.cos(latitude / DEGREES);
  const columns = Math.max(1, Math.floor(around / sizeMeters));
  const width = 360 / columns;
  const column = clamp(Math.floor((normaliseLongitude(point.longitude) + 180) / width), 0, columns - 1);
  return { row, column, centre: { latitude, longitude: -180 + (column + 0.5) * width } };
}

/** Into [-180, 180): 180° E is 180° W. */
function normaliseLongitude(longitude: number): number {
  return ((((longitude + 180) % 360) + 360) % 360) - 180;
}

function clamp(x: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, x));
}
