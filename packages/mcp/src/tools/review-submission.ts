import type { McpServer } from '@modelcontextprotocol/server';
import type { Legwork } from '@legwork/sdk';
import {
  taskFeedbackRequestLimits as limits,
  taskFeedbackRequestReason_codeValues,
} from '@legwork/sdk/types';
import * as z from 'zod';
import { idempotencyKeyFor } from '../idempotency';
import { ok, run } from '../results';
import { integer, number, reviewOutput, text, uuid } from '../schemas';

export function registerReviewSubmission(server: McpServer, client: Legwork): void {
  server.registerTool(
    'review_submission',
    {
      title: 'Approve or reject a result',
      description:
        'Decides on submitted work, and cannot be undone: approve (accept: true, with rating and quality_score) ' +
        'pays the worker from escrow; reject (accept: false, with reason_code) refunds that slot to your balance ' +
        'and the worker sees the reason. Without assignment_id it applies to every submitted assignment. Read ' +
        'get_results first. A retried identical call is answered once.',
      inputSchema: z.object({
        task_id: uuid('The task.'),
        accept: z.boolean().describe('true approves and pays; false rejects and refunds the slot.'),
        assignment_id: z.uuid().optional().describe('The submission to decide on (from get_results).'),
        rating: integer(limits.rating).optional().describe('1-5; required to approve.'),
        quality_score: number(limits.quality_score)
          .optional()
          .describe('0-5, one decimal; required to approve.'),
        reason_code: z.enum(taskFeedbackRequestReason_codeValues).optional().describe('Required to reject.'),
        feedback_text: text(limits.feedback_text).optional().describe('Shown to the worker on a rejection.'),
      }),
      outputSchema: reviewOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ task_id, accept, ...rest }) =>
      run(async () => {
        const body = { accept_result: accept, ...rest };
        // A verdict for "every submitted assignment" names them in its key, so the same words said again after
        // another worker submitted are a new decision, not a replay of the first.
        const pending = rest.assignment_id
          ? []
          : (await client.tasks.result(task_id)).submissions
              .filter((s) => s.status === 'submitted')
              .map((s) => s.assignment_id)
              .sort();
        const key = idempotencyKeyFor('review_submission', { task_id, ...body, pending });
        const review = await client.tasks.review(task_id, body, { idempotencyKey: key });
        return ok({ ...review, idempotency_key: key });
      }),
  );
}
