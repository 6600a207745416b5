import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { WorkerActor } from '../../common/actor';
import { sqlRows } from '../../database/sql';
import { sandboxMessagesTo } from '../../sms/sandbox-outbox';
import type { SandboxSmsList } from '../dtos/sandbox-sms.dto';

/** Reads the sandbox SMS outbox for one worker: only what was sent to their own number. */
@Injectable()
export class SandboxSmsService {
  constructor(private readonly ds: DataSource) {}

  async list(actor: WorkerActor, limit: number): Promise<SandboxSmsList> {
    const [worker] = await sqlRows<{ phone_number: string }>(
      this.ds,
      `SELECT phone_number FROM workers WHERE id = $1`,
      [actor.id],
    );
    const rows = await sandboxMessagesTo(this.ds, worker.phone_number, limit);
    return {
      messages: rows.map((r) => ({
        id: r.id,
        to: r.phone_number,
        template: r.template,
        params: r.params,
        text: r.text,
        sent_at: r.created_at.toISOString(),
      })),
    };
  }
}
