import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Recovery of Idempotency-Key claims left behind by a crashed API process. Each claim records its owner (the
 * advisory-lock key that its process holds while alive, see InstanceLease) and a claim token. A claim still in
 * progress whose owner no longer holds its lock is abandoned and a retry may take it over with a new token; a
 * response written inside the request's own transaction must carry the current token, so a late original and its
 * takeover can never both commit an effect.
 */
export class IdempotencyOwner1732200020000 implements MigrationInterface {
  name = 'IdempotencyOwner1732200020000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys ADD COLUMN owner bigint, ADD COLUMN claim_token uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_keys DROP COLUMN claim_token, DROP COLUMN owner`);
  }
}
