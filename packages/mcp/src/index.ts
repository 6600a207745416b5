export {
  CORE_TOOLS,
  createLegworkMcpServer,
  SANDBOX_TOOLS,
  SERVER_INFO,
  type LegworkMcpOptions,
} from './catalogue';
export {
  MCP_APP_MIME_TYPE,
  REVIEW_CARD_URI,
  reviewCardHtml,
  reviewCardMeta,
  type ReviewCardOptions,
} from './apps/review-card';
export { idempotencyKeyFor } from './idempotency';
export { markUntrusted, UNTRUSTED_NOTICE, type UntrustedContent } from './untrusted';
export { MAX_WAIT_S } from './wait';

/** Whether an API key is a sandbox key (`lw_test_`); live keys are `lw_live_`. */
export function isSandboxKey(apiKey: string): boolean {
  return apiKey.startsWith('lw_test_');
}
