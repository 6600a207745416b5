import { MigrationInterface, QueryRunner } from 'typeorm';

const TAKING_WORKERS = `intake_closed_at IS NULL AND open_slots > 0
                        AND status IN ('pending', 'assigned', 'in_progress', 'submitted')`;

/** Everything the nearby search filters on, so its scans never visit the table (index-only). */
const COVERING = `latitude, longitude, required_skills, min_reputation`;

/**
 * Nearby search that does not grow with the backlog (docs/scaling.md, "Nearby search"). The GiST index alone finds
 * every task in the circle, then visits each one on the table, checks the worker's assignments for it and counts
 * and sorts them all: at a million open tasks, about 3,700 rows and 27 ms for a 5 km search.
 *
 * Tasks are put on a grid of 1/40-degree cells (`nearby_cell`, twin of src/matching/nearby-cells.ts: cellOf) and
 * indexed by cell, then in the order of each sort, carrying the columns the filters read: a search reads each cell
 * from its best rows and stops after a page (src/matching/nearby-tasks.query.ts). The third index, by cell then
 * id, serves the count and the sampled estimate beyond its cap (ids are random, so an id range is a fair sample).
 * Only tasks taking workers are in these indexes, as in the GiST one, which stays for circles too wide for cells.
 *
 * A function in an expression index rather than a stored column: no table rewrite, and the grid is defined once.
 * Built-in float8 arithmetic only (no extension), IMMUTABLE so it may be indexed; it is a plain SQL function, which
 * the planner inlines, so queries may call it or repeat its body.
 */
export class NearbyCells1732200050000 implements MigrationInterface {
  name = 'NearbyCells1732200050000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION nearby_cell(latitude double precision, longitude double precision) RETURNS integer
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT (floor((latitude + 90) * 40) * 14401 + floor((longitude + 180) * 40))::integer $$`);
    await q.query(`
      CREATE INDEX tasks_open_cell_payout_idx
        ON tasks (nearby_cell(latitude, longitude), payout_cents DESC, deadline_at, id) INCLUDE (${COVERING})
        WHERE ${TAKING_WORKERS}`);
    await q.query(`
      CREATE INDEX tasks_open_cell_deadline_idx
        ON tasks (nearby_cell(latitude, longitude), deadline_at, payout_cents DESC, id) INCLUDE (${COVERING})
        WHERE ${TAKING_WORKERS}`);
    await q.query(`
      CREATE INDEX tasks_open_cell_id_idx
        ON tasks (nearby_cell(latitude, longitude), id) INCLUDE (payout_cents, deadline_at, ${COVERING})
        WHERE ${TAKING_WORKERS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP INDEX tasks_open_cell_id_idx, tasks_open_cell_deadline_idx, tasks_open_cell_payout_idx`,
    );
    await q.query(`DROP FUNCTION nearby_cell(double precision, double precision)`);
  }
}
