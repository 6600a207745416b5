import fc from 'fast-check';
import { distanceMeters, EARTH_RADIUS_METERS } from '../common/geo';
import { CELL_COLUMNS, cellOf, cellsWithin, MAX_CELLS } from './nearby-cells';

/** The point `meters` from `from` at `bearing` radians (great circle, same sphere as distanceMeters). */
function destination(from: { latitude: number; longitude: number }, meters: number, bearing: number) {
  const d = meters / EARTH_RADIUS_METERS;
  const lat1 = (from.latitude * Math.PI) / 180;
  const lng1 = (from.longitude * Math.PI) / 180;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing));
  const lng2 =
    lng1 +
    Math.atan2(
      Math.sin(bearing) * Math.sin(d) * Math.cos(lat1),
      Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
    );
  const lng = ((((lng2 * 180) / Math.PI + 540) % 360) + 360) % 360;
  return { latitude: (lat2 * 180) / Math.PI, longitude: lng - 180 };
}

describe('nearby cells', () => {
  it('every point within the radius lies in a listed cell (antimeridian and high latitudes included)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -84, max: 84, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        (latitude, longitude, radius, fraction, bearing) => {
          const center = { latitude, longitude };
          const cells = cellsWithin(center, radius);
          if (!cells) return; // too many cells: the GiST path serves it
          const p = destination(center, radius * fraction, bearing);
          if (distanceMeters(center, p) > radius) return;
          expect(cells.map((c) => c.cell)).toContain(cellOf(p.latitude, p.longitude));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('lists cells nearest first, each with a distance no greater than any of its points', () => {
    const center = { latitude: 31.2304, longitude: 121.4737 };
    const cells = cellsWithin(center, 5000)!;
    expect(cells.length).toBeGreaterThan(10);
    expect(cells.length).toBeLessThan(40);
    expect(cells[0]).toEqual({ cell: cellOf(center.latitude, center.longitude), minDistance: 0 });
    for (let i = 1; i < cells.length; i++)
      expect(cells[i].minDistance).toBeGreaterThanOrEqual(cells[i - 1].minDistance);
    for (let i = 0; i < 2000; i++) {
      const p = destination(center, 5000 * Math.sqrt(Math.random()), Math.random() * 2 * Math.PI);
      const cell = cells.find((c) => c.cell === cellOf(p.latitude, p.longitude))!;
      expect(cell.minDistance).toBeLessThanOrEqual(distanceMeters(center, p) + 1e-6);
    }
  });

  it('longitude 180 and -180 are the same meridian: a circle across it lists both columns', () => {
    const cells = cellsWithin({ latitude: 10, longitude: 179.999 }, 1000)!.map((c) => c.cell);
    expect(cells).toContain(cellOf(10, 180));
    expect(cells).toContain(cellOf(10, -180));
    expect(cellOf(10, 180) - cellOf(10, -180)).toBe(CELL_COLUMNS - 1);
  });

  it('gives up (null) around a pole and above MAX_CELLS', () => {
    expect(cellsWithin({ latitude: 89.99, longitude: 0 }, 5000)).toBeNull();
    expect(cellsWithin({ latitude: -89.99, longitude: 0 }, 5000)).toBeNull();
    expect(cellsWithin({ latitude: 31, longitude: 121 }, 50_000)!.length).toBeLessThanOrEqual(MAX_CELLS);
    expect(cellsWithin({ latitude: 80, longitude: 0 }, 50_000)).toBeNull();
  });
});
