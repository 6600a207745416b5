import type { EntityManager } from 'typeorm';
import { sqlRows, type SqlRunner } from '../database/sql';
import type { MessageFlag } from './message-flags';
import type { MessageSender, MessageView } from './dtos/messages.dto';

export interface MessageRow {
  id: string;
  seq: string;
  assignment_id: string;
  task_id: string;
  sender: MessageSender;
  body: string;
  flags: MessageFlag[];
  created_at: Date;
}

/** The thread of an assignment as one side sees it: what it holds and what that side has not read. */
export interface ThreadCounts {
  assignment_id: string;
  message_count: number;
  unread_count: number;
  last_seq: string | null;
}

export type Reader = 'agent' | 'worker';

/** The most messages one read answers: the newest ones, oldest first. */
export const THREAD_READ_LIMIT = 500;

const COLUMNS = 'id, seq::text AS seq, assignment_id, task_id, sender, body, flags, created_at';

export function messageView(m: MessageRow): MessageView {
  return {
    message_id: m.id,
    assignment_id: m.assignment_id,
    from: m.sender,
    body: m.body,
    created_at: m.created_at.toISOString(),
  };
}

/** SQL of the assignment_messages and message_read_markers tables. */
export const MessagesRepository = {
  async insert(
    em: EntityManager,
    m: { assignmentId: string; taskId: string; sender: MessageSender; body: string; flags: MessageFlag[] },
    now: Date,
  ): Promise<MessageRow> {
    const [row] = await sqlRows<MessageRow>(
      em,
      `INSERT INTO assignment_messages (assignment_id, task_id, sender, body, flags, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [m.assignmentId, m.taskId, m.sender, m.body, m.flags, now],
    );
    return row;
  },

  /** The latest THREAD_READ_LIMIT messages of a thread, oldest first. */
  async thread(db: SqlRunner, assignmentId: string): Promise<MessageRow[]> {
    const rows = await sqlRows<MessageRow>(
      db,
      `SELECT ${COLUMNS} FROM assignment_messages WHERE assignment_id = $1 ORDER BY seq DESC LIMIT $2`,
      [assignmentId, THREAD_READ_LIMIT],
    );
    return rows.reverse();
  },

  /** Moves a side's read marker forward to `seq` (never back: two reads racing keep the later one). */
  async markRead(db: SqlRunner, assignmentId: string, reader: Reader, seq: string): Promise<void> {
    await sqlRows(
      db,
      `INSERT INTO message_read_markers (assignment_id, reader, last_read_seq) VALUES ($1, $2, $3::bigint)
       ON CONFLICT (assignment_id, reader)
       DO UPDATE SET last_read_seq = GREATEST(message_read_markers.last_read_seq, EXCLUDED.last_read_seq)`,
      [assignmentId, reader, seq],
    );
  },

  /** Counts per thread for one side: messages, and those from the other side after its read marker. */
  async counts(db: SqlRunner, assignmentIds: string[], reader: Reader): Promise<Map<string, ThreadCounts>> {
    const rows = await sqlRows<{
      assignment_id: string;
      message_count: number;
      unread_count: number;
      last_seq: string | null;
    }>(
      db,
      `SELECT m.assignment_id,
              count(*)::int AS message_count,
              count(*) FILTER (WHERE m.sender <> $2 AND m.seq > COALESCE(r.last_read_seq, 0))::int AS unread_count,
              max(m.seq)::text AS last_seq
         FROM assignment_messages m
         LEFT JOIN message_read_markers r ON r.assignment_id = m.assignment_id AND r.reader = $2
        WHERE m.assignment_id = ANY($1::uuid[])
        GROUP BY m.assignment_id`,
      [assignmentIds, reader],
    );
    return new Map(rows.map((r) => [r.assignment_id, r]));
  },

  async bySeq(db: SqlRunner, seqs: string[]): Promise<Map<string, MessageRow>> {
    if (seqs.length === 0) return new Map();
    const rows = await sqlRows<MessageRow>(
      db,
      `SELECT ${COLUMNS} FROM assignment_messages WHERE seq = ANY($1::bigint[])`,
      [seqs],
    );
    return new Map(rows.map((r) => [r.seq, r]));
  },
};
