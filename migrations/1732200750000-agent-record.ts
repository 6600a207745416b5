import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The agent's record on the worker's task card (product-decisions §19): disputes an agent lost, counted per agent of
 * a listed page over 90 days. Only lost disputes are indexed (the rest are never counted), so the count reads a
 * range of this agent's losses rather than scanning every dispute once per agent.
 */
export class AgentRecord1732200750000 implements MigrationInterface {
  name = 'AgentRecord1732200750000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX disputes_agent_lost_idx ON disputes (agent_id, decided_at)
                    WHERE outcome IN ('overturned', 'split')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX disputes_agent_lost_idx`);
  }
}
