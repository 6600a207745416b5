import { createTestApp, TestApp } from '../support/app';
import { listRoutes } from '../support/routes';

/**
 * The exact set of (method, path) pairs the service serves. A route added, removed or renamed fails this test until
 * the list (and the spec mapping in docs/api-surfaces.md) is updated on purpose. Grows with each capability.
 */
const EXPECTED = ['GET /', 'GET /health'].sort();

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
