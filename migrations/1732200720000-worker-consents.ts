import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Separate, versioned consent for precise location (PIPL art. 29: sensitive personal information; product-decisions
 * §19). `consent_versions` holds every text ever asked, in English and Chinese, never edited: a new wording is a new
 * row (a migration), whose higher version asks every worker again. `worker_consents` is the record of each consent:
 * a row per consent given, ended by a withdrawal (or by a newer consent of the same kind), so what a worker agreed
 * to, and when, stays provable. At most one live consent per worker and kind.
 *
 * Existing workers get none: they are asked at their next going on call. Simulated workers of the sandbox are
 * created with it (product-decisions §19), so the ones already made are given version 1 here.
 */
export class WorkerConsents1732200720000 implements MigrationInterface {
  name = 'WorkerConsents1732200720000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE consent_versions (
        kind text NOT NULL CHECK (kind IN ('precise_location')),
        version integer NOT NULL CHECK (version >= 1),
        title_en text NOT NULL,
        title_zh text NOT NULL,
        text_en text NOT NULL,
        text_zh text NOT NULL,
        published_at timestamptz NOT NULL,
        PRIMARY KEY (kind, version)
      )`);
    await q.query(
      `INSERT INTO consent_versions (kind, version, title_en, title_zh, text_en, text_zh, published_at)
       VALUES ('precise_location', 1, $1, $2, $3, $4, now())`,
      [
        'Your precise location',
        '您的精确位置',
        'While you are on call, Legwork uses your phone’s precise location to offer you tasks near you, and keeps ' +
          'each position you report for 30 days to check that proof was taken where the task is. The location of ' +
          'your proof photos is kept until 180 days after the task ends. Precise location is sensitive personal ' +
          'information: we use it only for matching you with tasks and checking proof, never sell it and never ' +
          'show it to agents except as proof of a task you did. You can withdraw this consent at any time in your ' +
          'profile; you then go off call and can no longer receive offers until you consent again.',
        '在您接单期间，Legwork 使用您手机的精确位置为您推荐附近的任务，并将您上报的每个位置保存 30 天，用于核实凭证是' +
          '否在任务地点拍摄。凭证照片的位置保存至任务结束后 180 天。精确位置属于敏感个人信息：我们仅将其用于为您匹配' +
          '任务和核实凭证，绝不出售，除作为您完成任务的凭证外绝不向发布方展示。您可随时在“我的”页面撤回此同意；撤回' +
          '后您将停止接单，在再次同意之前不会收到任务推送。',
      ],
    );
    await q.query(`
      CREATE TABLE worker_consents (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        worker_id uuid NOT NULL REFERENCES workers (id),
        kind text NOT NULL,
        version integer NOT NULL,
        given_at timestamptz NOT NULL,
        withdrawn_at timestamptz,
        FOREIGN KEY (kind, version) REFERENCES consent_versions (kind, version),
        CHECK (withdrawn_at IS NULL OR withdrawn_at >= given_at)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX worker_consents_live ON worker_consents (worker_id, kind) WHERE withdrawn_at IS NULL`,
    );
    await q.query(`CREATE INDEX worker_consents_worker ON worker_consents (worker_id, given_at)`);
    await q.query(
      `INSERT INTO worker_consents (worker_id, kind, version, given_at)
       SELECT id, 'precise_location', 1, now() FROM workers WHERE simulated_by_agent_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE worker_consents`);
    await q.query(`DROP TABLE consent_versions`);
  }
}
