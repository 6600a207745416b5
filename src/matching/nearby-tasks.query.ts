import { distanceSql, EARTH_BOX_MARGIN, type LatLng } from '../common/geo';
import { cellsWithin, type NearbyCell } from './nearby-cells';
import { DECLINED_OR_LAPSED_STATUSES } from './offer-policy';

export const NEARBY_SORTS = ['payment_desc', 'distance_asc', 'deadline_asc'] as const;
export type NearbySort = (typeof NEARBY_SORTS)[number];

/** What eligibility needs of the worker besides its id. */
export interface NearbyWorker {
  skills: string[];
  reputation: number;
}

export interface NearbyTasksFilter {
  workerId: string;
  /**
   * The worker's skills and reputation, where the caller has read them. The per-cell search (the usual one) reads
   * them itself from the workers row, in the same statement; the whole-circle search takes them from here.
   */
  worker?: NearbyWorker;
  now: Date;
  /** null: no distance filter, distance null. */
  position: LatLng | null;
  radiusMeters: number;
  minPayoutCents: number;
  sort: NearbySort;
  limit: number;
  /** NEARBY_TOTAL_CAP unless given (the plan script compares caps on the same data). */
  cap?: number;
}

/**
 * total_eligible is exact up to this many tasks; beyond it, an estimate (total_is_estimate). At least the largest
 * page (100): a search with more matches than this takes its page through the per-cell indexes. Counting exactly
 * costs an index entry per match, so the cap is what a dense search pays for its count: at a million open tasks a
 * cap of 1,000 cost about 1 ms more per search than 200 (bench/results/nearby-explain.md).
 */
export const NEARBY_TOTAL_CAP = 200;

/**
 * Beyond the cap, total_eligible counts a sample of the matches: those whose id (a random version-4 UUID) is below
 * a bound, times its scale. The coarse sample (1/32) is taken first; with fewer than NEARBY_MIN_SAMPLES in it (under
 * about 800 matches) the fine one (1/4) replaces it, and past the cap the sparse one (1/1024) does, so an estimate
 * rests on at least about 25 sampled matches (within about ±20 %, better the larger it is); past the sparse level's
 * cap (over 200,000 matches in one circle) it is a lower bound. Each sample reads at most cap + 1 index entries and
 * only when the one before calls for it.
 */
export const NEARBY_SAMPLES = {
  coarse: { below: '08000000-0000-0000-0000-000000000000', scale: 32 },
  fine: { below: '40000000-0000-0000-0000-000000000000', scale: 4 },
  sparse: { below: '00400000-0000-0000-0000-000000000000', scale: 1024 },
} as const;
export const NEARBY_MIN_SAMPLES = 25;

/**
 * The task columns a listing returns: what the available-tasks view shows, not `t.*`. The other 18 columns (eight
 * timestamps, metadata, money) cost the API a parse each per row and were thrown away.
 */
export const NEARBY_TASK_COLUMNS = [
  'id',
  'title',
  'description',
  'task_type',
  'payout_cents',
  'deadline_at',
  'required_skills',
  'latitude',
  'longitude',
  'address',
  'max_distance_meters',
  'open_slots',
  'location_proof',
  'answer_schema',
  // Not shown: the page's agents are looked up once for their records (src/matching/agent-record.ts).
  'agent_id',
] as const;

/** One listed task as pg returns it (payout_cents is a bigint: a string), with the search's own columns. */
export interface NearbyTaskRow {
  id: string;
  title: string;
  description: string;
  task_type: string;
  payout_cents: string;
  deadline_at: Date;
  required_skills: string[];
  latitude: number;
  longitude: number;
  address: string | null;
  max_distance_meters: number;
  open_slots: number;
  location_proof: string;
  answer_schema: Record<string, unknown> | null;
  agent_id: string;
  /** Metres, or null without a position. */
  distance: number | null;
  total: string | number;
  total_is_estimate: boolean;
  agent_rating_count: number | null;
  agent_rating_sum: string | number | null;
}

const LISTED = NEARBY_TASK_COLUMNS.map((c) => `t.${c}`).join(', ');

/** The GiST index the searches without cells use (no position near a pole, huge circles). */
export const NEARBY_INDEX = 'tasks_open_nearby_gist';
/** The covering per-cell indexes (migration 1732200050000). */
export const NEARBY_CELL_INDEXES = {
  payout: 'tasks_open_cell_payout_idx',
  deadline: 'tasks_open_cell_deadline_idx',
  id: 'tasks_open_cell_id_idx',
} as const;

/**
 * Exactly the predicate of the partial nearby indexes (migrations 1732200010000 and 1732200050000), written
 * literally: the planner uses a partial index only when it can prove the query implies the index predicate, which
 * bound parameters would hide.
 */
export const TAKING_WORKERS = `t.intake_closed_at IS NULL AND t.open_slots > 0
     AND t.status IN ('pending', 'assigned', 'in_progress', 'submitted')`;

/**
 * `mine`: the worker's own tasks that a search could list, those of its assignments whose task's deadline is ahead,
 * read once from one index range, index-only (migrations 1732200092000 and 1732200140000). A task past its deadline
 * is never listed, so the rest of the worker's history cannot matter, and this set is bounded by what the worker
 * took recently, not by its history or the backlog. An offer the worker declined or let lapse is not theirs: that
 * task stays listed to them and they may take it (product-decisions §16; while the deadline is ahead, `expired` is
 * only ever a lapsed offer). Each scan excludes them through a hash of this set; a `NOT EXISTS` probed assignments
 * once per candidate row instead, about 600 probes in a dense search at a million open tasks
 * (bench/results/nearby-explain.md).
 */
function mine(now: string, worker: string): string {
  return `mine AS MATERIALIZED (
    SELECT task_id FROM assignments WHERE worker_id = ${worker} AND task_deadline_at > ${now}
       AND status NOT IN (${DECLINED_OR_LAPSED_STATUSES.map((x) => `'${x}'`).join(', ')}))`;
}

/**
 * Everything but the place: deadline ahead, skills held, reputation, payment, not already the worker's task (the
 * query's `mine`). The arguments are the SQL of each value: a parameter, or a read of the worker's row.
 */
function eligible(v: { now: string; skills: string; reputation: string; minPayout: string }): string {
  return `t.deadline_at > ${v.now}
       AND t.required_skills <@ ${v.skills}
       AND COALESCE(t.min_reputation, 0) <= ${v.reputation}
       AND t.payout_cents >= ${v.minPayout}
       AND t.id NOT IN (SELECT task_id FROM mine)`;
}

/** Sort keys, with a table prefix for the outer query (the inner one sorts by its own output columns). */
const ORDER: Record<NearbySort, (p: string) => string> = {
  payment_desc: (p) => `${p}payout_cents DESC, ${p}deadline_at ASC, ${p}id`,
  distance_asc: (p) => `${p}distance NULLS LAST, ${p}payout_cents DESC, ${p}id`,
  deadline_asc: (p) => `${p}deadline_at ASC, ${p}payout_cents DESC, ${p}id`,
};

/** A search's SQL and its parameters, for preparedRows. */
export interface NearbyQuery {
  sql: string;
  params: unknown[];
}

/**
 * The available-tasks query. Three shapes, one answer (the same rows in the same order):
 *
 * - Around a position, by cells (the usual case, nearbyCellsQuery): cost bounded by the page, not the backlog.
 *   It reads the worker's skills and reputation itself, so a search around a position the app sends is one
 *   statement (one round trip) with nothing read before it.
 * - Around a position whose circle needs too many cells (a pole, a huge radius far north): the GiST index on
 *   ll_to_earth finds every task in the circle, counted exactly.
 * - Without a position: every eligible task, counted exactly.
 *
 * The last two take the worker's skills and reputation from `f.worker`; without it the answer is null (the caller
 * reads the worker first, then asks again). The worker's own tasks (any assignment but an offer it declined or let
 * lapse) are excluded everywhere; the agent's rating is joined after the limit, so it costs one lookup per returned row.
 */
export function nearbyTasksQuery(f: NearbyTasksFilter & { worker: NearbyWorker }): NearbyQuery;
export function nearbyTasksQuery(f: NearbyTasksFilter): NearbyQuery | null;
export function nearbyTasksQuery(f: NearbyTasksFilter): NearbyQuery | null {
  const cells = f.position ? cellsWithin(f.position, f.radiusMeters) : null;
  if (f.position && cells) return nearbyCellsQuery(f, f.position, cells);
  return f.worker ? wholeCircleQuery(f, f.worker) : null;
}

/** The whole circle (or everything, without a position) through one scan, with an exact count. */
function wholeCircleQuery(f: NearbyTasksFilter, worker: NearbyWorker): NearbyQuery {
  const params: unknown[] = [f.now, worker.skills, worker.reputation, f.minPayoutCents, f.workerId, f.limit];
  let distance = 'NULL::float8';
  let within = '';
  if (f.position) {
    params.push(f.position.latitude, f.position.longitude, f.radiusMeters);
    distance = distanceSql('$7::float8', '$8::float8', 't.latitude', 't.longitude');
    within = `AND earth_box(ll_to_earth($7::float8, $8::float8), $9::float8 * ${EARTH_BOX_MARGIN})
                 @> ll_to_earth(t.latitude, t.longitude)
     AND ${distance} <= $9::float8`;
  }
  const sql = `
  WITH ${mine('$1', '$5::uuid')},
  page AS (
    SELECT t.id, t.payout_cents, t.deadline_at, ${distance} AS distance, count(*) OVER () AS total
      FROM tasks t
     WHERE ${TAKING_WORKERS}
     ${within}
       AND ${eligible({ now: '$1', skills: '$2::text[]', reputation: '$3::numeric', minPayout: '$4' })}
     ORDER BY ${ORDER[f.sort]('')}
     LIMIT $6)
  SELECT ${LISTED}, page.distance, page.total, false AS total_is_estimate,
         s.rating_count AS agent_rating_count, s.rating_sum AS agent_rating_sum
    FROM page
    JOIN tasks t ON t.id = page.id
    LEFT JOIN agent_rating_stats s ON s.agent_id = t.agent_id
   ORDER BY ${ORDER[f.sort]('page.')}`;
  return { sql, params };
}

/**
 * The circle through its cells, in steps:
 *
 * 0. `me`: the worker's skills and reputation, read here rather than by a statement before this one (a missing
 *    worker reads as null: nothing matches); `mine`: the worker's own tasks that could be listed.
 * 1. `hits`: matches cell by cell, nearest cells first, stopping at cap + 1 (index-only on a covering index). Its
 *    `OFFSET 0` keeps it a scan per cell: without it the planner may flatten it into a join and, on a small table,
 *    prefer one pass over every task (test/matching/nearby.e2e-spec.ts checks the plan).
 * 2. Sparse (at most cap matches): hits is every match; the page is hits sorted, the total its size.
 * 3. Dense: the limit-th best of hits bounds the page, since hits are matches: at least `limit` matches are that
 *    good. By payment (deadline), each cell's index scan starts at the best rows and stops at that payment
 *    (deadline) or after `limit` rows; by distance, only cells nearer than the limit-th nearest hit are read, and
 *    only their rows within that distance. Each dense scan reads about a page of rows per cell.
 *    The total is an estimate from id samples (NEARBY_SAMPLES).
 *
 * Steps that do not apply are skipped by one-time filters on the hits count. Every scan applies the full filter
 * (the exact haversine radius included), so the result is the same rows in the same order as one sort of every
 * match would give.
 */
function nearbyCellsQuery(f: NearbyTasksFilter, at: LatLng, cells: NearbyCell[]): NearbyQuery {
  // $1 now, $2 minimum payout, $3 worker, $4 limit, $5 and $6 the position, $7 the radius, $8 the cells (nearest
  // first), $9 the total's cap; for distance_asc, $10 each cell's nearest distance (read by the dense distance_asc
  // step only: an unused parameter has no type).
  const params: unknown[] = [
    f.now,
    f.minPayoutCents,
    f.workerId,
    f.limit,
    at.latitude,
    at.longitude,
    f.radiusMeters,
    cells.map((c) => c.cell),
    f.cap ?? NEARBY_TOTAL_CAP,
  ];
  if (f.sort === 'distance_asc') params.push(cells.map((c) => c.minDistance));
  const distance = distanceSql('$5::float8', '$6::float8', 't.latitude', 't.longitude');
  const match = `${TAKING_WORKERS}
       AND ${eligible({
         now: '$1',
         skills: '(SELECT skills FROM me)',
         reputation: '(SELECT reputation FROM me)',
         minPayout: '$2',
       })}
       AND ${distance} <= $7::float8`;
  const dense = `(SELECT n FROM counted) > $9`;
  const sample = (name: keyof typeof NEARBY_SAMPLES, when: string) => `
  ${name} AS (
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM tasks t
       WHERE ${when}
         AND nearby_cell(t.latitude, t.longitude) = ANY ($8::int[]) AND t.id < '${NEARBY_SAMPLES[name].below}'::uuid
         AND ${match}
       LIMIT $9 + 1) x)`;
  const { coarse, fine, sparse } = NEARBY_SAMPLES;
  const samples = [
    sample('coarse', dense),
    sample('fine', `${dense} AND (SELECT n FROM coarse) < ${NEARBY_MIN_SAMPLES}`),
    sample('sparse', `(SELECT n FROM coarse) > $9`),
  ];
  const estimate = `CASE WHEN coarse.n > $9 THEN sparse.n * ${sparse.scale}
                         WHEN coarse.n >= ${NEARBY_MIN_SAMPLES} OR fine.n > $9 THEN coarse.n * ${coarse.scale}
                         ELSE fine.n * ${fine.scale} END`;
  const sql = `
  WITH me AS MATERIALIZED (SELECT skills, reputation FROM workers WHERE id = $3::uuid),
  ${mine('$1', '$3::uuid')},
  hits AS MATERIALIZED (
    SELECT x.* FROM unnest($8::int[]) AS c(cell)
     CROSS JOIN LATERAL (
      SELECT t.id, t.payout_cents, t.deadline_at, ${distance} AS distance
        FROM tasks t
       WHERE nearby_cell(t.latitude, t.longitude) = c.cell
         AND ${match}
      OFFSET 0) x
     LIMIT $9 + 1),
  counted AS (SELECT count(*)::int AS n FROM hits),
  edge AS (SELECT * FROM hits WHERE ${dense} ORDER BY ${ORDER[f.sort]('')} OFFSET $4 - 1 LIMIT 1),
  ${samples.join(',')},
  total AS (
    SELECT CASE WHEN counted.n <= $9 THEN counted.n ELSE GREATEST($9 + 1, ${estimate}) END AS total,
           counted.n > $9 AS total_is_estimate
      FROM counted, coarse, fine, sparse),
  page AS (
    (SELECT * FROM hits WHERE (SELECT n FROM counted) <= $9 ORDER BY ${ORDER[f.sort]('')} LIMIT $4)
    UNION ALL
    (${denseCandidates(f.sort, distance, match, dense)}
     ORDER BY ${ORDER[f.sort]('x.')} LIMIT $4))
  SELECT ${LISTED}, page.distance, total.total, total.total_is_estimate,
         s.rating_count AS agent_rating_count, s.rating_sum AS agent_rating_sum
    FROM page
    CROSS JOIN total
    JOIN tasks t ON t.id = page.id
    LEFT JOIN agent_rating_stats s ON s.agent_id = t.agent_id
   ORDER BY ${ORDER[f.sort]('page.')}`;
  return { sql, params };
}

/** The dense page's candidates (as `x`): rows at least as good as the limit-th best hit (`edge`). */
function denseCandidates(sort: NearbySort, distance: string, match: string, dense: string): string {
  const row = `t.id, t.payout_cents, t.deadline_at, ${distance} AS distance`;
  if (sort === 'distance_asc') {
    return `SELECT x.* FROM unnest($8::int[], $10::float8[]) AS c(cell, nearest)
     CROSS JOIN LATERAL (
      SELECT ${row} FROM tasks t
       WHERE nearby_cell(t.latitude, t.longitude) = c.cell
         AND ${match}
         AND ${distance} <= (SELECT distance FROM edge)) x
     WHERE ${dense} AND c.nearest <= (SELECT distance FROM edge)`;
  }
  const bound =
    sort === 'payment_desc'
      ? `t.payout_cents >= (SELECT payout_cents FROM edge)`
      : `t.deadline_at <= (SELECT deadline_at FROM edge)`;
  return `SELECT x.* FROM unnest($8::int[]) AS c(cell)
     CROSS JOIN LATERAL (
      SELECT ${row} FROM tasks t
       WHERE nearby_cell(t.latitude, t.longitude) = c.cell
         AND ${bound}
         AND ${match}
       ORDER BY ${ORDER[sort]('t.')}
       LIMIT $4) x
     WHERE ${dense}`;
}
