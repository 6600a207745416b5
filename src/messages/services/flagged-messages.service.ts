import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sqlRows } from '../../database/sql';
import type { FlaggedMessagesResponse } from '../dtos/messages.dto';
import { messageView, type MessageRow } from '../messages.repository';

/** The operators' list of messages holding contact details (product-decisions §19: flagged, never blocked). */
@Injectable()
export class FlaggedMessagesService {
  constructor(private readonly ds: DataSource) {}

  async list(): Promise<FlaggedMessagesResponse> {
    const rows = await sqlRows<MessageRow & { agent_id: string; worker_id: string }>(
      this.ds,
      `SELECT m.id, m.seq::text AS seq, m.assignment_id, m.task_id, m.sender, m.body, m.flags, m.created_at,
              t.agent_id, a.worker_id
         FROM assignment_messages m
         JOIN assignments a ON a.id = m.assignment_id
         JOIN tasks t ON t.id = m.task_id
        WHERE cardinality(m.flags) > 0 AND m.flag_reviewed_at IS NULL
        ORDER BY m.seq DESC LIMIT 200`,
    );
    return {
      messages: rows.map((r) => ({
        ...messageView(r),
        task_id: r.task_id,
        agent_id: r.agent_id,
        worker_id: r.worker_id,
        flags: r.flags,
      })),
    };
  }
}
