import type { Clock } from '../common/clock';
import type { Logger } from '../common/logging/logger';
import type { SmsTemplate } from '../config/notification-config';
import { sqlRows, type SqlRunner } from '../database/sql';
import type { SmsGateway, SmsReceipt } from './sms-gateway';
import type { SmsMessage } from './sms-message';

/** Sandbox messages are kept this long, then dropped as new ones come in. */
export const SANDBOX_SMS_RETENTION_DAYS = 7;

export interface SandboxSmsRow {
  id: string;
  phone_number: string;
  template: SmsTemplate;
  params: Record<string, unknown>;
  text: string;
  created_at: Date;
}

/**
 * Sandbox mode: nothing leaves the machine. Every message is written to the outbox table (GET /v1/sandbox/sms shows
 * a worker the ones sent to their own number) and noted in the log without its parameters, so a code is not
 * spread further than the answer that already carries it as sandbox_code.
 */
export class SandboxSmsGateway implements SmsGateway {
  readonly name = 'sandbox';

  constructor(
    private readonly db: SqlRunner,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async send(phone: string, message: SmsMessage): Promise<SmsReceipt> {
    const now = this.clock.now();
    const [row] = await sqlRows<Pick<SandboxSmsRow, 'id'>>(
      this.db,
      `WITH purge AS (DELETE FROM sandbox_sms WHERE created_at < $6)
       INSERT INTO sandbox_sms (phone_number, template, params, text, created_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [
        phone,
        message.template,
        JSON.stringify(message.params),
        message.text,
        now,
        new Date(now.getTime() - SANDBOX_SMS_RETENTION_DAYS * 86_400_000),
      ],
    );
    this.logger.info({ sms_template: message.template, sms_id: row.id }, 'sandbox SMS (kept in the outbox)');
    return { providerMessageId: row.id };
  }
}

/** The newest messages sent to one number. */
export function sandboxMessagesTo(db: SqlRunner, phone: string, limit: number): Promise<SandboxSmsRow[]> {
  return sqlRows<SandboxSmsRow>(
    db,
    `SELECT id, phone_number, template, params, text, created_at FROM sandbox_sms
      WHERE phone_number = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [phone, limit],
  );
}
