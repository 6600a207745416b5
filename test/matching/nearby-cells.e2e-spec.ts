import { distanceSql, EARTH_RADIUS_METERS } from '../../src/common/geo';
import { cellOf, CELLS_PER_DEGREE } from '../../src/matching/nearby-cells';
import { NEARBY_TOTAL_CAP } from '../../src/matching/nearby-tasks.query';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createTestApp, TestApp } from '../support/app';
import { offset, Point, spot } from '../support/photos';

interface Item {
  task_id: string;
  distance_meters: number | null;
}

const SORTS = ['payment_desc', 'distance_asc', 'deadline_asc'] as const;
type Sort = (typeof SORTS)[number];
const ORDER: Record<Sort, string> = {
  payment_desc: 'payout_cents DESC, deadline_at ASC, id',
  distance_asc: 'distance, payout_cents DESC, id',
  deadline_asc: 'deadline_at ASC, payout_cents DESC, id',
};
const METERS_PER_DEGREE = (EARTH_RADIUS_METERS * Math.PI) / 180;

/**
 * The per-cell nearby search (src/matching/nearby-tasks.query.ts) against the plain definition: every open task
 * within the radius by the same haversine, sorted in full. Sparse circles (at most the cap of matches) and dense
 * ones (more: the page comes from per-cell scans bounded by the best hits, the total is an estimate) must give the
 * same page in the same order, ties and the radius's edge included.
 */
describe('nearby search by cells', () => {
  let t: TestApp;
  let seeder: TestAgent;
  let worker: TestWorker;
  beforeAll(async () => {
    t = await createTestApp();
    seeder = await createAgent(t);
    worker = await createWorker(t);
  });
  afterAll(() => t.close());

  /** Open tasks inserted directly (the search is about the table, not the escrow): [point, payout, deadline hours]. */
  async function seed(rows: [Point, number, number][]): Promise<void> {
    const now = t.clock.now().getTime();
    await t.db.query(
      `INSERT INTO tasks (agent_id, title, description, task_type, latitude, longitude, budget_cents, fee_bps,
                          payout_cents, fee_cents, total_cents, status, open_slots, deadline_at,
                          estimated_completion_at, created_at, updated_at)
       SELECT $1, 'seed', 'seeded', 'photo', lat, lng, p + 100, 1000, p, 100, p + 100, 'pending', 1,
              to_timestamp(d), to_timestamp(d), $2, $2
         FROM unnest($3::float8[], $4::float8[], $5::bigint[], $6::float8[]) AS v(lat, lng, p, d)`,
      [
        seeder.id,
        new Date(now),
        rows.map((r) => r[0].latitude),
        rows.map((r) => r[0].longitude),
        rows.map((r) => r[1]),
        rows.map((r) => (now + r[2] * 3_600_000) / 1000),
      ],
    );
    await t.db.query('ANALYZE tasks');
  }

  /** Every match, sorted in full: what the search must return the start of. */
  async function reference(at: Point, radius: number, sort: Sort): Promise<string[]> {
    const distance = distanceSql('$1::float8', '$2::float8', 'latitude', 'longitude');
    const rows: { id: string }[] = await t.db.query(
      `SELECT id FROM (SELECT id, payout_cents, deadline_at, ${distance} AS distance FROM tasks
                        WHERE agent_id = $3 AND status = 'pending' AND open_slots > 0) x
        WHERE distance <= $4 ORDER BY ${ORDER[sort]}`,
      [at.latitude, at.longitude, seeder.id, radius],
    );
    return rows.map((r) => r.id);
  }

  async function search(at: Point, radius: number, sort: Sort, limit: number) {
    const res = await t.http
      .get(
        `/v1/worker/tasks/available?latitude=${at.latitude}&longitude=${at.longitude}` +
          `&max_distance_km=${radius / 1000}&sort_by=${sort}&limit=${limit}`,
      )
      .set('Authorization', worker.bearer)
      .expect(200);
    return res.body as { tasks: Item[]; metadata: Record<string, number> };
  }

  /** Random points within `meters` of p, payouts in few values and deadlines in whole hours, so ties abound. */
  function scatter(p: Point, meters: number, n: number): [Point, number, number][] {
    return Array.from({ length: n }, () => {
      const r = meters * Math.sqrt(Math.random());
      const a = Math.random() * 2 * Math.PI;
      return [
        offset(p, r * Math.cos(a), r * Math.sin(a)),
        1000 + 500 * Math.floor(Math.random() * 8),
        1 + Math.floor(Math.random() * 48),
      ];
    });
  }

  /** A point whose latitude is a cell edge, `meters` east of p: the cell function floors it into the next row. */
  function onCellEdge(p: Point): Point {
    return {
      latitude: Math.ceil((p.latitude + 90) * CELLS_PER_DEGREE) / CELLS_PER_DEGREE - 90,
      longitude: p.longitude,
    };
  }

  it('nearby_cell in SQL is the twin of cellOf, on cell edges, the poles and the antimeridian too', async () => {
    const points: [number, number][] = [
      [-90, -180],
      [90, 180],
      [0, 0],
      [31.225, 121.475],
      [-33.875, 151.2],
      [89.99999, 179.99999],
      [-0.025, -0.025],
      [12.3456789, -179.9999999],
    ];
    for (let i = 0; i < 200; i++) {
      points.push([Math.random() * 180 - 90, Math.random() * 360 - 180]);
      // On a cell edge, give or take a rounding step.
      const edge = Math.round((Math.random() * 180 - 90) * CELLS_PER_DEGREE) / CELLS_PER_DEGREE;
      points.push([edge, edge / 2], [edge + 1e-12, -edge], [edge - 1e-12, edge]);
    }
    const rows: { cell: number }[] = await t.db.query(
      `SELECT nearby_cell(lat, lng) AS cell FROM unnest($1::float8[], $2::float8[]) WITH ORDINALITY AS v(lat, lng, n)
        ORDER BY n`,
      [points.map((p) => p[0]), points.map((p) => p[1])],
    );
    expect(rows.map((r) => r.cell)).toEqual(points.map(([lat, lng]) => cellOf(lat, lng)));
  });

  it('a sparse circle: same page as a full sort, exact total, the radius edge to the metre', async () => {
    const here = spot();
    const radius = 3000;
    const north = (m: number) => ({
      latitude: here.latitude + m / METERS_PER_DEGREE,
      longitude: here.longitude,
    });
    await seed([
      ...scatter(here, 2500, 60),
      [here, 4000, 5],
      [here, 4000, 5], // the same place, payment and deadline: only the id tells them apart
      [onCellEdge(here), 2000, 3],
      [north(radius - 0.3), 1500, 2],
      [north(radius + 0.3), 1500, 2], // outside by 30 cm
      [offset(here, 0, radius + 50), 9000, 1],
    ]);
    for (const sort of SORTS) {
      const all = await reference(here, radius, sort);
      expect(all).toHaveLength(64);
      for (const limit of [1, 20, 100]) {
        const page = await search(here, radius, sort, limit);
        expect(page.tasks.map((x) => x.task_id)).toEqual(all.slice(0, limit));
        expect(page.metadata).toMatchObject({ total_eligible: 64, total_is_estimate: 0 });
      }
    }
    const edge = (await search(here, radius, 'distance_asc', 100)).tasks.at(-1)!;
    expect(edge.distance_meters).toBe(radius); // 2,999.7 m, rounded; 3,000.3 m is left out
  });

  it('a dense circle: the same page from the per-cell indexes, ties and edges included, and an estimated total', async () => {
    const here = spot();
    const radius = 2000;
    const many = scatter(here, 2600, 2200); // about 1,300 inside 2 km, the rest around it
    const dups: [Point, number, number][] = Array.from({ length: 30 }, (_, i) => [
      here,
      3000 + (i % 3) * 500,
      6,
    ]);
    const mirrored: [Point, number, number][] = [
      [offset(here, 0, 150), 2500, 4],
      [offset(here, 0, -150), 2500, 4],
      [offset(here, 150, 0), 2500, 4],
      [offset(here, -150, 0), 2500, 4],
    ];
    const edges: [Point, number, number][] = [0, 1, 2, 3].map((i) => [
      onCellEdge(offset(here, i * 300, i * 200)),
      4500,
      2,
    ]);
    await seed([...many, ...dups, ...mirrored, ...edges]);
    const total = (await reference(here, radius, 'payment_desc')).length;
    expect(total).toBeGreaterThan(NEARBY_TOTAL_CAP);
    for (const sort of SORTS) {
      const all = await reference(here, radius, sort);
      for (const limit of [1, 20, 100]) {
        const page = await search(here, radius, sort, limit);
        expect(page.tasks.map((x) => x.task_id)).toEqual(all.slice(0, limit));
        expect(page.metadata.total_is_estimate).toBe(1);
        expect(page.metadata.total_eligible).toBeGreaterThan(NEARBY_TOTAL_CAP);
        // A sample of 1/32 of ~1,300 matches: far looser than its error, tight enough to catch a wrong scale.
        expect(page.metadata.total_eligible).toBeLessThan(total * 4);
        expect(page.metadata.total_eligible).toBeGreaterThan(total / 4);
      }
    }
    // The 30 tasks at the centre come first by distance, by payment within the same distance, then by id.
    const nearest = await search(here, radius, 'distance_asc', 30);
    expect(nearest.tasks.every((x) => x.distance_meters === 0)).toBe(true);
  });

  it(`the cap: exactly ${NEARBY_TOTAL_CAP} matches are counted exactly, one more makes the total an estimate`, async () => {
    const here = spot();
    await seed(scatter(here, 1500, NEARBY_TOTAL_CAP));
    const at = await search(here, 2000, 'payment_desc', 5);
    expect(at.metadata).toMatchObject({
      total_eligible: NEARBY_TOTAL_CAP,
      total_is_estimate: 0,
      returned: 5,
    });
    await seed([[here, 1000, 10]]);
    const over = await search(here, 2000, 'deadline_asc', 5);
    expect(over.metadata.total_is_estimate).toBe(1);
    expect(over.metadata.total_eligible).toBeGreaterThanOrEqual(NEARBY_TOTAL_CAP + 1);
    expect(over.tasks.map((x) => x.task_id)).toEqual(
      (await reference(here, 2000, 'deadline_asc')).slice(0, 5),
    );
  });

  it('a few hundred matches: the estimate comes from the finer sample (1/4), close to the count', async () => {
    const here = spot();
    const n = 500; // over the cap, under the ~800 where the 1/32 sample holds enough matches
    await seed(scatter(here, 1500, n));
    for (const sort of SORTS) {
      const page = await search(here, 2000, sort, 20);
      expect(page.tasks.map((x) => x.task_id)).toEqual((await reference(here, 2000, sort)).slice(0, 20));
      expect(page.metadata.total_is_estimate).toBe(1);
      // About 125 sampled matches (±8 %): ±50 % cannot fail by chance, and catches a wrong scale or a skipped sample.
      expect(page.metadata.total_eligible).toBeGreaterThanOrEqual(n / 2);
      expect(page.metadata.total_eligible).toBeLessThanOrEqual(n * 1.5);
    }
  });

  it('across the antimeridian, and around a pole (served by the GiST index), nothing in the circle is missed', async () => {
    const east = { latitude: 10 + Math.random(), longitude: 179.995 };
    const west = { latitude: east.latitude, longitude: -179.995 };
    const pole = { latitude: 89.995, longitude: Math.random() * 360 - 180 };
    const beyond = {
      latitude: 89.995,
      longitude: pole.longitude > 0 ? pole.longitude - 180 : pole.longitude + 180,
    };
    await seed([
      [west, 2000, 5],
      [{ latitude: east.latitude, longitude: 180 }, 2100, 5],
      [{ latitude: east.latitude, longitude: -180 }, 2200, 5],
      [beyond, 3000, 5],
    ]);
    for (const sort of SORTS) {
      const page = await search(east, 5000, sort, 20);
      expect(page.tasks.map((x) => x.task_id)).toEqual((await reference(east, 5000, sort)).slice(0, 20));
      expect(page.tasks).toHaveLength(3);
      const polar = await search(pole, 5000, sort, 20);
      expect(polar.tasks.map((x) => x.task_id)).toEqual(await reference(pole, 5000, sort));
      expect(polar.tasks).toHaveLength(1); // across the pole, about 1.1 km away
      expect(polar.metadata).toMatchObject({ total_eligible: 1, total_is_estimate: 0 });
    }
  });
});
