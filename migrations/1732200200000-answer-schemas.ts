import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Typed answers (product-decisions §17): a task may carry the agent's answer_schema (checked by the service at
 * creation: the §17 subset of JSON Schema, at most 16 KB) and an agreement review_policy, which needs a schema (it
 * compares answers to its fields). agreement_reached_at is set, under the task lock, by the submission whose answers
 * made min_agreeing submissions agree: from then on no new offer goes out and the task leaves the nearby lists
 * (open_slots 0), while its unfilled slots are still refunded at the deadline as before.
 *
 * answer_schema is json, not jsonb: json keeps the text as sent, so the fields keep the order the agent declared
 * them in (jsonb sorts keys by length), which is the order of the worker's form, the export's columns and the
 * problems of an answer. It is read whole, never searched, so jsonb's indexing buys nothing here.
 *
 * Existing tasks keep NULL in all three and behave exactly as before. The size CHECK is a backstop of the service's
 * own check (the service stores the JSON text it checked).
 */
export class AnswerSchemas1732200200000 implements MigrationInterface {
  name = 'AnswerSchemas1732200200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks ADD COLUMN answer_schema json,
                                     ADD COLUMN review_policy jsonb,
                                     ADD COLUMN agreement_reached_at timestamptz`);
    await q.query(`ALTER TABLE tasks ADD CONSTRAINT tasks_answer_schema_object CHECK (
      answer_schema IS NULL OR (json_typeof(answer_schema) = 'object' AND octet_length(answer_schema::text) <= 16384))`);
    await q.query(`ALTER TABLE tasks ADD CONSTRAINT tasks_review_policy_needs_schema CHECK (
      review_policy IS NULL OR (answer_schema IS NOT NULL AND review_policy->>'type' = 'agreement'))`);
    await q.query(`ALTER TABLE tasks ADD CONSTRAINT tasks_agreement_needs_policy CHECK (
      agreement_reached_at IS NULL OR review_policy IS NOT NULL)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks DROP CONSTRAINT tasks_agreement_needs_policy,
                                     DROP CONSTRAINT tasks_review_policy_needs_schema,
                                     DROP CONSTRAINT tasks_answer_schema_object`);
    await q.query(`ALTER TABLE tasks DROP COLUMN agreement_reached_at, DROP COLUMN review_policy,
                                     DROP COLUMN answer_schema`);
  }
}
