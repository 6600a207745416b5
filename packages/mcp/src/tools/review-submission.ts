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
        'pays the worker from escrow; reject (accept: false, best with a reason_code) refunds that slot to your ' +
        'balance and the worker sees the reason and feedback_text. Without assignment_id it applies to every ' +
        'submitted assignment. Read get_results first. A retried identical call is answered once: it returns the ' +
        'first answer again.',
      inputSchema: z.object({
        task_id: uuid('The task.'),
        accept: z.boolean().describe('true approves and pays; false rejects and refunds the slot.'),
        assignment_id: z.uuid().optional().describe('The submission to decide on (from get_results).'),
        rating: integer(limits.rating).optional().describe('1-5; required to approve.'),
        quality_score: number(limits.quality_score)
          .optional()
          .describe('0-5, one decimal; required to approve.'),
        reason_code: z
          .enum(taskFeedbackRequestReason_codeValues)
          .optional()
          .describe('Why you reject; the worker sees it. Left out of a rejection: other.'),
        feedback_text: text(limits.feedback_text).optional().describe('Shown to the worker on a rejection.'),
      }),
      outputSchema: reviewOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    ({ task_id, accept, ...rest }) =>
      run(async () => {
        const body = { accept_result: accept, ...rest };
        const key = idempotencyKeyFor('review_submission', {
          task_id,
          ...body,
          submissions: rest.assignment_id ? [] : await submissionsOf(client, task_id),
        });
        const review = await client.tasks.review(task_id, body, { idempotencyKey: key });
        return ok({ ...review, idempotency_key: key });
      }),
  );
}

/**
 * What a verdict for "every submitted assignment" names in its key: every submission the task has had, whatever
 * its status. A host retrying the call after its answer was lost sends the same words over the same submissions
 * (now decided by the first call, none added), so it gets the same key and the API answers the first answer again;
 * the same words after another worker submitted are a new decision, about one more submission, with a new key.
 * (Keying on the submissions still awaiting review would give the retry an empty list, a new key, and an error.)
 */
async function submissionsOf(client: Legwork, taskId: string): Promise<string[]> {
  const { submissions } = await client.tasks.result(taskId);
  return submissions.map((s) => s.assignment_id).sort();
}
