import { sqlRows, type SqlRunner } from '../database/sql';

/**
 * A sandbox test clock (product-decisions §12): a time of its own for the tasks created on it. The table belongs to the task
 * module because it decides those tasks' "now"; the sandbox's clock endpoints (src/simulation) create, advance and
 * delete clocks through these functions.
 */
export interface TestClockRow {
  id: string;
  agent_id: string;
  name: string | null;
  frozen_time: Date;
  status: 'ready' | 'advancing';
  advancing_since: Date | null;
  created_at: Date;
  deleted_at: Date | null;
}

/** An advance or deletion that started longer ago than this is taken to have died with its process. */
const STALE_ADVANCE_MS = 5 * 60_000;

export const TestClocks = {
  async findOwned(db: SqlRunner, agentId: string, clockId: string): Promise<TestClockRow | null> {
    const rows = await sqlRows<TestClockRow>(
      db,
      `SELECT * FROM test_clocks WHERE id = $1 AND agent_id = $2 AND deleted_at IS NULL`,
      [clockId, agentId],
    );
    return rows[0] ?? null;
  },

  async list(db: SqlRunner, agentId: string): Promise<TestClockRow[]> {
    return sqlRows<TestClockRow>(
      db,
      `SELECT * FROM test_clocks WHERE agent_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [agentId],
    );
  },

  async insert(db: SqlRunner, agentId: string, name: string | null, frozenTime: Date, now: Date) {
    const [row] = await sqlRows<TestClockRow>(
      db,
      `INSERT INTO test_clocks (agent_id, name, frozen_time, created_at) VALUES ($1, $2, $3, $4) RETURNING *`,
      [agentId, name, frozenTime, now],
    );
    return row;
  },

  /**
   * Marks the clock as advancing unless an advance is running (one started less than 5 minutes ago). Autocommit,
   * so a concurrent call sees it at once. Null when the clock is busy or gone.
   */
  async claim(db: SqlRunner, clockId: string, realNow: Date): Promise<TestClockRow | null> {
    const rows = await sqlRows<TestClockRow>(
      db,
      `UPDATE test_clocks SET status = 'advancing', advancing_since = $2
        WHERE id = $1 AND deleted_at IS NULL AND (status = 'ready' OR advancing_since < $3) RETURNING *`,
      [clockId, realNow, new Date(realNow.getTime() - STALE_ADVANCE_MS)],
    );
    return rows[0] ?? null;
  },

  /** Moves the clock's time (forward only) as an advance proceeds. */
  async moveTo(db: SqlRunner, clockId: string, time: Date): Promise<void> {
    await sqlRows(db, `UPDATE test_clocks SET frozen_time = GREATEST(frozen_time, $2) WHERE id = $1`, [
      clockId,
      time,
    ]);
  },

  async release(db: SqlRunner, clockId: string, deletedAt: Date | null = null): Promise<TestClockRow> {
    const [row] = await sqlRows<TestClockRow>(
      db,
      `UPDATE test_clocks SET status = 'ready', advancing_since = NULL, deleted_at = $2 WHERE id = $1 RETURNING *`,
      [clockId, deletedAt],
    );
    return row;
  },

  /** The clock's time for a task on it, or null for a task on real time. */
  async timeOfTask(db: SqlRunner, taskId: string): Promise<Date | null> {
    const rows = await sqlRows<{ frozen_time: Date }>(
      db,
      `SELECT c.frozen_time FROM tasks t JOIN test_clocks c ON c.id = t.test_clock_id WHERE t.id = $1`,
      [taskId],
    );
    return rows[0]?.frozen_time ?? null;
  },
};
