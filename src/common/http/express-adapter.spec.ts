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
    for (let i = 1; i <= 12; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/seen`);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ n: i });
    }
    for (const [req, res] of seen) {
      expect(Object.getPrototypeOf(req)).toBe(app.request);
      expect(Object.getPrototypeOf(res)).toBe(app.response);
    }
    // Past V8's first constructions, every request and response has the hidden class of the one before: none is
    // made per request (which would fill the old generation with garbage hidden classes).
    const [[req10, res10], [req11, res11]] = seen.slice(10);
    expect(sameHiddenClass(req10, req11)).toBe(true);
    expect(sameHiddenClass(res10, res11)).toBe(true);
  });
});
