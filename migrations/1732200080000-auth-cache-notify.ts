import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The API caches who a credential is (src/auth/auth-cache.ts) instead of looking it up on every request. These
 * triggers tell every instance when a cached answer may be wrong: a NOTIFY on `legwork_auth` when a column the
 * lookup reads changes (key value, active flag, permissions, owner; account status and rate limits) or the row
 * goes, whoever made the change (the API or an operator's SQL). NOTIFY is sent at commit, and one per transaction
 * (PostgreSQL folds identical notifications). Usage counters (usage_count, last_used_at) do not notify: the usage
 * tracker updates them every two seconds.
 */
export class AuthCacheNotify1732200080000 implements MigrationInterface {
  name = 'AuthCacheNotify1732200080000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION legwork_notify_auth() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('legwork_auth', TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER api_keys_notify_auth AFTER UPDATE ON api_keys FOR EACH ROW
      WHEN (OLD.key_hash IS DISTINCT FROM NEW.key_hash OR OLD.is_active IS DISTINCT FROM NEW.is_active
            OR OLD.permissions IS DISTINCT FROM NEW.permissions OR OLD.agent_id IS DISTINCT FROM NEW.agent_id)
      EXECUTE FUNCTION legwork_notify_auth()`);
    await q.query(`CREATE TRIGGER agents_notify_auth AFTER UPDATE ON agents FOR EACH ROW
      WHEN (OLD.account_status IS DISTINCT FROM NEW.account_status
            OR OLD.rate_limit_per_minute IS DISTINCT FROM NEW.rate_limit_per_minute
            OR OLD.rate_limit_per_day IS DISTINCT FROM NEW.rate_limit_per_day)
      EXECUTE FUNCTION legwork_notify_auth()`);
    await q.query(`CREATE TRIGGER workers_notify_auth AFTER UPDATE ON workers FOR EACH ROW
      WHEN (OLD.account_status IS DISTINCT FROM NEW.account_status) EXECUTE FUNCTION legwork_notify_auth()`);
    for (const table of ['api_keys', 'agents', 'workers', 'admins']) {
      await q.query(`CREATE TRIGGER ${table}_delete_notify_auth AFTER DELETE ON ${table}
        FOR EACH STATEMENT EXECUTE FUNCTION legwork_notify_auth()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['api_keys', 'agents', 'workers', 'admins']) {
      await q.query(`DROP TRIGGER ${table}_delete_notify_auth ON ${table}`);
    }
    await q.query(`DROP TRIGGER workers_notify_auth ON workers`);
    await q.query(`DROP TRIGGER agents_notify_auth ON agents`);
    await q.query(`DROP TRIGGER api_keys_notify_auth ON api_keys`);
    await q.query(`DROP FUNCTION legwork_notify_auth()`);
  }
}
