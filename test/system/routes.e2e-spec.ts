import { createTestApp, TestApp } from '../support/app';
import { listRoutes } from '../support/routes';

/**
 * The exact set of (method, path) pairs the service serves. A route added, removed or renamed fails this test until
 * the list (and the spec mapping in docs/api-surfaces.md) is updated on purpose. Grows with each capability.
 */
/** An operation served identically on both surfaces. */
const both = (method: string, path: string) => [`${method} /v1${path}`, `${method} /api/v1${path}`];

const EXPECTED = [
  // system
  'GET /',
  'GET /health',
  // worker accounts
  ...both('POST', '/worker/send-sms'),
  ...both('POST', '/worker/verify-sms'),
  ...both('POST', '/worker/reset-password'),
  ...both('POST', '/worker/register'),
  ...both('POST', '/worker/login'),
  ...both('POST', '/worker/refresh'),
  ...both('GET', '/worker/profile'),
  ...both('PATCH', '/worker/profile'),
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
].sort();

describe('route table', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves exactly the expected routes', () => {
    const routes = listRoutes(t.app).filter((r) => !/ \/(docs|openapi)/.test(r));
    expect(routes).toEqual(EXPECTED);
  });
});
