import fc from 'fast-check';
import { distanceMeters, EARTH_RADIUS_METERS, type LatLng } from './geo';
import { gridCell } from './geo-grid';

const SIZE = 500;
/** Half the diagonal of a 500 m square, plus the hair the columns are wider than 500 m. */
const HALF_DIAGONAL = (SIZE * Math.SQRT2) / 2 + 0.5;

const point = (maxLatitude: number) =>
  fc.record({
    latitude: fc.double({ min: -maxLatitude, max: maxLatitude, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  });

/** Metres north or east of a point, on the service's sphere. */
function moved(p: LatLng, northMeters: number, eastMeters: number): LatLng {
  const deg = (m: number) => (m / EARTH_RADIUS_METERS) * (180 / Math.PI);
  return {
    latitude: p.latitude + deg(northMeters),
    longitude: p.longitude + deg(eastMeters) / Math.cos((p.latitude * Math.PI) / 180),
  };
}

describe('gridCell (500 m squares on the haversine sphere)', () => {
  it('puts every point within half a diagonal of its cell’s centre, below 80° of latitude', () => {
    fc.assert(
      fc.property(point(80), (p) => {
        expect(distanceMeters(p, gridCell(p, SIZE).centre)).toBeLessThanOrEqual(HALF_DIAGONAL);
      }),
    );
  });

  it('snaps a centre to itself, and every point of a cell to the same centre', () => {
    fc.assert(
      fc.property(
        point(89),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (p, north, east) => {
          const cell = gridCell(p, SIZE);
          expect(gridCell(cell.centre, SIZE)).toEqual(cell);
          // Anywhere inside the cell (kept 1 m from its edges): the same cell.
          const inside = moved(cell.centre, (north - 0.5) * (SIZE - 2), (east - 0.5) * (SIZE - 2));
          expect(gridCell(inside, SIZE)).toEqual(cell);
        },
      ),
    );
  });

  it('has neighbouring centres 500 m apart: rows exactly, columns along the parallel within a centimetre', () => {
    const a = gridCell({ latitude: 31.2304, longitude: 121.4737 }, SIZE);
    const north = gridCell(moved(a.centre, SIZE, 0), SIZE);
    const east = gridCell(moved(a.centre, 0, SIZE), SIZE);
    expect(north).toMatchObject({ row: a.row + 1, column: expect.any(Number) });
    expect(north.centre.latitude - a.centre.latitude).toBeCloseTo(
      (SIZE / EARTH_RADIUS_METERS) * (180 / Math.PI),
      12,
    );
    expect(east).toMatchObject({ row: a.row, column: a.column + 1 });
    const radians = ((east.centre.longitude - a.centre.longitude) * Math.PI) / 180;
    const alongParallel = radians * EARTH_RADIUS_METERS * Math.cos((a.centre.latitude * Math.PI) / 180);
    expect(alongParallel).toBeGreaterThanOrEqual(SIZE);
    expect(alongParallel).toBeLessThan(SIZE + 0.01);
  });

  it('is the same cell for 180° E and 180° W, and has one cell per row at the poles', () => {
    expect(gridCell({ latitude: 10, longitude: 180 }, SIZE)).toEqual(
      gridCell({ latitude: 10, longitude: -180 }, SIZE),
    );
    for (const latitude of [90, -90]) {
      const cell = gridCell({ latitude, longitude: 45 }, SIZE);
      expect(gridCell({ latitude, longitude: -135 }, SIZE)).toEqual(cell);
      expect(Math.abs(cell.centre.latitude)).toBeLessThanOrEqual(90);
    }
  });

  it('tells apart points a few metres apart across a cell edge, and keeps them 500 m cells', () => {
    const a = gridCell({ latitude: 31.2304, longitude: 121.4737 }, SIZE);
    const edgeNorth = moved(a.centre, SIZE / 2 + 1, 0);
    const edgeSouth = moved(a.centre, SIZE / 2 - 1, 0);
    expect(gridCell(edgeNorth, SIZE).row).toBe(a.row + 1);
    expect(gridCell(edgeSouth, SIZE).row).toBe(a.row);
  });
});
