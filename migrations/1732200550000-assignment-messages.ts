import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Messages between the agent and the worker of one assignment (product-decisions §19). `seq` orders a thread and
 * carries the read markers (created_at may tie under a test clock); `flags` names what a message seems to hold that
 * operators should look at (a phone number, a WeChat ID): flagged, never blocked. The read markers are one row per
 * thread and side, holding the seq of the last message that side has read.
 */
export class AssignmentMessages1732200550000 implements MigrationInterface {
  name = 'AssignmentMessages1732200550000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE assignment_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigserial NOT NULL UNIQUE,
        assignment_id uuid NOT NULL REFERENCES assignments (id),
        task_id uuid NOT NULL REFERENCES tasks (id),
        sender text NOT NULL CHECK (sender IN ('agent', 'worker', 'operator')),
        body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
        flags text[] NOT NULL DEFAULT '{}' CHECK (flags <@ ARRAY['phone_number', 'wechat_id']::text[]),
        flag_reviewed_at timestamptz,
        flag_reviewed_by uuid,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX assignment_messages_thread_idx ON assignment_messages (assignment_id, seq)`);
    await q.query(`CREATE INDEX assignment_messages_task_idx ON assignment_messages (task_id, seq)`);
    await q.query(
      `CREATE INDEX assignment_messages_flagged_idx ON assignment_messages (seq)
        WHERE cardinality(flags) > 0 AND flag_reviewed_at IS NULL`,
    );
    await q.query(`
      CREATE TABLE message_read_markers (
        assignment_id uuid NOT NULL REFERENCES assignments (id),
        reader text NOT NULL CHECK (reader IN ('agent', 'worker')),
        last_read_seq bigint NOT NULL CHECK (last_read_seq >= 0),
        PRIMARY KEY (assignment_id, reader)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE message_read_markers`);
    await q.query(`DROP TABLE assignment_messages`);
  }
}
