import { LegworkError, LegworkSpendCapError, type Legwork } from '@legwork/sdk';
import type { TaskCreateBody } from '@legwork/sdk';
import {
  type CallToolResult,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type McpServer,
} from '@modelcontextprotocol/server';

/** The key of the URL elicitation in inputRequests / inputResponses. */
const APPROVAL_INPUT = 'spend_approval';

/** How long a retried call waits for the person's decision after the host reports the page was opened. */
const DECISION_WAIT_MS = 120_000;
const POLL_MS = 500;

/**
 * Over the spend cap, `create_task` asks the person, never the model: it requests an approval of this exact task
 * body and asks the host to open its console page by URL elicitation (MCP's `elicitation/create`, mode `url`, in the
 * multi-round-trip flow of protocol 2026-07-28: the tool answers `input_required` and the host calls again with the
 * outcome). A form elicitation is never used: for a caller holding an API key, the client answering a form is the
 * agent itself. The request state carries only the approval's id: the API checks that the approval belongs to this
 * key, was approved by the signed-in person, matches this body and is unused, so a forged state can do nothing.
 */
export async function overCap(
  server: McpServer,
  client: Legwork,
  body: TaskCreateBody,
  err: LegworkSpendCapError,
): Promise<CallToolResult | InputRequiredResult> {
  const approval = await client.spendApprovals.create(body);
  const supportsUrl = server.server.getClientCapabilities()?.elicitation?.url !== undefined;
  if (!supportsUrl) throw needsPerson(err, approval.approval_url);
  return inputRequired({
    inputRequests: {
      [APPROVAL_INPUT]: inputRequired.elicitUrl({
        message:
          `This task (${approval.total_cents / 100} CNY) would pass the ${String(err.error?.period)} spend cap. ` +
          'Open the Legwork console to approve or decline this one task.',
        url: approval.approval_url,
      }),
    },
    requestState: approval.id,
  });
}

/**
 * The call again after the elicitation: the person's decision on the approval named by the state, waited for a
 * while (the host reports that the page was opened, not what the person chose). Answers the approval id to create
 * with; throws a tool error when declined, expired or still undecided.
 */
export async function decided(
  client: Legwork,
  approvalId: string,
  responses: Record<string, unknown> | undefined,
  stopping?: AbortSignal,
): Promise<string> {
  const view = inputResponse(responses, APPROVAL_INPUT);
  if (view.kind === 'elicit' && view.action !== 'accept') {
    throw new LegworkError(
      'The person did not open the approval page: nothing was created. Ask them to raise the spend cap in the ' +
        'console, or call create_task again later.',
      { code: 'spend_approval_declined' },
    );
  }
  const until = Date.now() + DECISION_WAIT_MS;
  for (;;) {
    const approval = await client.spendApprovals.retrieve(approvalId);
    if (approval.status === 'approved') return approval.id;
    if (approval.status !== 'pending' || Date.now() >= until || stopping?.aborted) {
      throw new LegworkError(
        approval.status === 'pending'
          ? `The person has not decided yet: nothing was created. They can still approve at ${approval.approval_url}; then call create_task again with spend_approval_id.`
          : `The approval is ${approval.status}: nothing was created. Only the person can raise the cap in the console.`,
        { code: `spend_approval_${approval.status}` },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** For a host without URL elicitation: the tool error says what a person must do. */
function needsPerson(err: LegworkSpendCapError, url: string): LegworkError {
  return new LegworkError(
    `${err.message} This host cannot open the approval page itself. Ask the person to raise the spend cap in the ` +
      `Legwork console (API key page), or to open ${url} and approve this one task; then call create_task again ` +
      'with the same arguments and spend_approval_id set to the approval id at the end of that URL.',
    { status: 402, code: 'spend_cap_exceeded', error: { ...err.error!, approval_url: url } as never },
  );
}
