import { createTestApp, TestApp } from '../support/app';
import { listRoutes } from '../support/routes';

/** An operation served identically on both surfaces. */
const both = (method: string, path: string) => [`${method} /v1${path}`, `${method} /api/v1${path}`];

/**
 * The exact set of (method, path) pairs the service serves. A route added, removed or renamed fails this test until
 * the list (and the spec mapping in docs/api-surfaces.md) is updated on purpose. Grows with each capability.
 */
const EXPECTED = [
  // system
  'GET /',
  'GET /health',
  'GET /livez',
  'GET /readyz',
  // agent accounts
  ...both('POST', '/agent/register'),
  ...both('POST', '/agent/login'),
  ...both('POST', '/agent/refresh'),
  ...both('POST', '/agent/logout'),
  ...both('GET', '/agent/profile'),
  ...both('GET', '/agent/me'),
  ...both('GET', '/agent/api-keys'),
  ...both('POST', '/agent/api-keys'),
  ...both('PATCH', '/agent/api-keys/:key_id'),
  ...both('DELETE', '/agent/api-keys/:key_id'),
  // spend approvals (over the cap)
  ...both('POST', '/spend-approvals'),
  ...both('GET', '/spend-approvals/:approval_id'),
  ...both('POST', '/spend-approvals/:approval_id/approve'),
  ...both('POST', '/spend-approvals/:approval_id/decline'),
  // operators
  'POST /v1/admin/login',
  'POST /v1/admin/login/totp',
  'POST /v1/admin/refresh',
  'POST /v1/admin/logout',
  'GET /v1/admin/me',
  'POST /v1/admin/me/totp',
  'POST /v1/admin/me/totp/confirm',
  'POST /v1/admin/me/recovery-codes',
  'GET /v1/admin/operators',
  'POST /v1/admin/operators/:id/totp/reset',
  'GET /v1/admin/audit-log',
  'GET /v1/admin/agents',
  'PATCH /v1/admin/agents/:id',
  // ledger: credits, balances, transactions, statistics
  'POST /v1/admin/agents/:id/credit',
  'GET /v1/admin/proof-reviews',
  'GET /v1/admin/proof-reviews/:id',
  'POST /v1/admin/proof-reviews/:id/decision',
  'GET /v1/admin/worker-reviews',
  'POST /v1/admin/worker-reviews/:id/decision',
  'GET /v1/admin/ledger/check',
  'GET /v1/admin/reports/worker-income',
  'GET /v1/payment/balance',
  'GET /api/v1/payment/balance',
  'GET /api/v1/payment/transactions',
  ...both('GET', '/agent/transactions'),
  ...both('GET', '/worker/balance'),
  ...both('GET', '/agent/stats/dashboard'),
  ...both('GET', '/agent/stats/usage'),
  ...both('GET', '/agent/stats/export'),
  // worker accounts
  ...both('POST', '/worker/send-sms'),
  ...both('POST', '/worker/verify-sms'),
  ...both('POST', '/worker/reset-password'),
  ...both('POST', '/worker/register'),
  ...both('POST', '/worker/login'),
  ...both('POST', '/worker/refresh'),
  ...both('POST', '/worker/logout'),
  ...both('GET', '/worker/profile'),
  ...both('PATCH', '/worker/profile'),
  ...both('GET', '/worker/reviews'),
  ...both('POST', '/worker/reviews'),
  ...both('GET', '/worker/data-export'),
  ...both('GET', '/worker/consents'),
  ...both('POST', '/worker/consents'),
  ...both('DELETE', '/worker/consents/:kind'),
  ...both('POST', '/worker/delete-account'),
  // tasks: agent side (creation and cancellation differ per surface)
  'POST /v1/tasks/create',
  'POST /api/v1/tasks',
  ...both('POST', '/tasks/quote'),
  ...both('GET', '/tasks'),
  ...both('GET', '/tasks/:task_id'),
  ...both('GET', '/tasks/:task_id/result'),
  ...both('GET', '/tasks/answers/export'),
  'POST /v1/tasks/:task_id/cancel',
  'DELETE /api/v1/tasks/:task_id',
  ...both('POST', '/tasks/:task_id/feedback'),
  // tasks: worker side
  ...both('GET', '/worker/tasks/available'),
  ...both('GET', '/worker/tasks/my-tasks'),
  ...both('GET', '/worker/assignments/:assignment_id'),
  ...both('POST', '/worker/tasks/:task_id/accept'),
  ...both('POST', '/worker/assignments/:assignment_id/start'),
  ...both('POST', '/worker/assignments/:assignment_id/submit'),
  ...both('POST', '/worker/assignments/:assignment_id/abandon'),
  ...both('POST', '/worker/assignments/:assignment_id/unable'),
  // messages between an agent and the worker of an assignment (product-decisions §19)
  ...both('GET', '/tasks/:task_id/messages'),
  ...both('POST', '/tasks/:task_id/messages'),
  ...both('GET', '/worker/messages'),
  ...both('GET', '/worker/assignments/:assignment_id/messages'),
  ...both('POST', '/worker/assignments/:assignment_id/messages'),
  'GET /v1/admin/flagged-messages',
  // disputes of rejections (product-decisions §19)
  ...both('POST', '/worker/assignments/:assignment_id/dispute'),
  ...both('GET', '/worker/assignments/:assignment_id/dispute'),
  ...both('GET', '/tasks/:task_id/disputes'),
  ...both('POST', '/tasks/:task_id/disputes/:dispute_id/response'),
  'GET /v1/admin/disputes',
  'POST /v1/admin/disputes/:id/decision',
  // workers' reports of tasks (product-decisions §19, "Also")
  ...both('POST', '/worker/tasks/:task_id/report'),
  'GET /v1/admin/task-reports',
  'GET /v1/admin/task-reports/:id',
  'POST /v1/admin/task-reports/:id/decision',
  // payments: machine-readable surface
  'POST /v1/payment/recharge',
  'POST /v1/payment/create',
  'POST /v1/agent/payments/recharge',
  'GET /v1/payment/query/:order_id',
  'POST /v1/payment/refund',
  'POST /v1/payment/withdraw',
  'GET /v1/payment/providers',
  'GET /v1/payment/health',
  // payments: reference surface (X-API-Secret)
  'POST /api/v1/payment/create',
  'GET /api/v1/payment/query',
  'POST /api/v1/payment/refund',
  // payments: provider notifications
  'POST /v1/payment/alipay/callback',
  'POST /api/webhooks/alipay',
  'POST /webhooks/alipay',
  'POST /api/webhooks/wechat',
  'POST /webhooks/wechat',
  // payments: operators
  'GET /v1/admin/withdrawals',
  'POST /v1/admin/withdrawals/:id/approve',
  'POST /v1/admin/withdrawals/:id/reject',
  'POST /v1/admin/payments/:order_id/confirm-bank-transfer',
  'GET /v1/admin/payments/health',
  // matching and trust: availability, offers, photo proof, ratings, earnings, uploads
  ...both('GET', '/worker/availability'),
  ...both('PUT', '/worker/availability'),
  ...both('GET', '/worker/offers'),
  // offers that reach a closed app: Web Push subscriptions and the worker's notification settings
  ...both('POST', '/worker/push-subscriptions'),
  ...both('DELETE', '/worker/push-subscriptions'),
  ...both('GET', '/worker/notification-settings'),
  ...both('PUT', '/worker/notification-settings'),
  ...both('GET', '/worker/notifications'),
  ...both('POST', '/worker/notifications/read'),
  ...both('POST', '/worker/assignments/:assignment_id/decline'),
  ...both('POST', '/worker/assignments/:assignment_id/submit-with-photo'),
  ...both('POST', '/worker/tasks/:task_id/rate'),
  ...both('GET', '/worker/earnings'),
  ...both('GET', '/worker/withdrawals'),
  ...both('POST', '/upload/task-proof'),
  ...both('POST', '/upload/task-proofs-multiple'),
  'GET /uploads/:category/:date/:filename',
  // events: webhooks, event history, WebSocket statistics
  ...both('POST', '/agent/webhooks'),
  ...both('GET', '/agent/webhooks'),
  ...both('DELETE', '/agent/webhooks/:id'),
  ...both('POST', '/agent/webhooks/:id/test'),
  ...both('GET', '/agent/webhooks/:id/deliveries'),
  ...both('POST', '/agent/webhooks/callback-secret'),
  ...both('GET', '/agent/events'),
  ...both('POST', '/agent/events/:event_id/redeliver'),
  'GET /v1/ws/stats',
  // the sandbox that runs by itself (sandbox mode only; test/simulation/live-mode.e2e-spec.ts checks live mode)
  ...both('POST', '/sandbox/balance'),
  ...both('POST', '/sandbox/workers'),
  ...both('GET', '/sandbox/workers'),
  ...both('GET', '/sandbox/workers/:worker_id'),
  ...both('PATCH', '/sandbox/workers/:worker_id'),
  ...both('DELETE', '/sandbox/workers/:worker_id'),
  ...both('POST', '/sandbox/clocks'),
  ...both('GET', '/sandbox/clocks'),
  ...both('GET', '/sandbox/clocks/:clock_id'),
  ...both('POST', '/sandbox/clocks/:clock_id/advance'),
  ...both('DELETE', '/sandbox/clocks/:clock_id'),
  ...both('GET', '/sandbox/sms'),
  // the MCP server for LLM agents (Streamable HTTP; docs/mcp.md): not a REST operation, kept out of the OpenAPI
  'POST /mcp',
  'GET /mcp',
  'DELETE /mcp',
  // OAuth 2.1 for /mcp (product-decisions §21; docs/mcp.md "Signing in with OAuth"): the protocol endpoints and
  // discovery documents are specified by their RFCs and kept out of the OpenAPI; the console's routes are in it
  'GET /.well-known/oauth-authorization-server',
  'GET /.well-known/oauth-protected-resource/mcp',
  'GET /.well-known/oauth-protected-resource',
  'GET /oauth/authorize',
  'POST /oauth/token',
  'POST /oauth/register',
  'POST /oauth/revoke',
  ...both('GET', '/oauth/consent'),
  ...both('POST', '/oauth/consent'),
  ...both('GET', '/oauth/grants'),
  ...both('DELETE', '/oauth/grants/:grant_id'),
].sort();

describe('route table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves exactly the expected routes', () => {
    const routes = listRoutes(t.app).filter((r) => !/ \/(docs|openapi|app\/|console\/)/.test(r));
    expect(routes).toEqual(EXPECTED);
  });
});
