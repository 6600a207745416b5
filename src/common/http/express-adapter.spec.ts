import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';
import { LegworkExpressAdapter } from './express-adapter';

// V8's own test of whether two objects share a hidden class; the flag must be set before the function is compiled.
setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = runInThisContext('(function (a, b) { return %HaveSameMap(a, b); })') as (
  a: object,
  b: object,
) => boolean;

/** How many distinct hidden classes the objects have. */
function hiddenClasses(objects: object[]): number {
  const representatives: object[] = [];
  for (const o of objects) if (!representatives.some((r) => sameHiddenClass(r, o))) representatives.push(o);
  return representatives.length;
}

describe('LegworkExpressAdapter', () => {
  let server: Server;
  let app: express.Express;
  const seen: [Request, Response][] = [];

  beforeAll(async () => {
    app = express();
    app.get('/seen', (req, res) => {
      seen.push([req, res]);
      res.status(201).json({ n: seen.length });
    });
    const adapter = new LegworkExpressAdapter(app);
    adapter.initHttpServer({});
    server = adapter.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("builds requests and responses on Express's prototypes, each request like the one before it", async () => {
    const { port } = server.address() as AddressInfo;
    for (let i = 1; i <= 20; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/seen`);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ n: i });
    }
    for (const [req, res] of seen) {
      expect(Object.getPrototypeOf(req)).toBe(app.request);
      expect(Object.getPrototypeOf(res)).toBe(app.response);
    }
    // Past V8's first constructions, requests and responses share their hidden classes: none is made per request
    // (which would fill the old generation with garbage hidden classes; the old adapter gave each of the ten its
    // own). At most two: V8 may generalize a field's representation once, which replaces the class for later objects.
    const last = seen.slice(10);
    expect(hiddenClasses(last.map(([req]) => req))).toBeLessThanOrEqual(2);
    expect(hiddenClasses(last.map(([, res]) => res))).toBeLessThanOrEqual(2);
  });
});
