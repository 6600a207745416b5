import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Run in a Node process of its own, like the server: hidden classes are per process, and a jest worker runs other
 * suites' servers before this one. The child compiles the adapter with TypeScript's transpiler (it imports only
 * packages), serves ten pairs of concurrent requests through Express on it, and reports what V8 says of each pair's
 * objects. Compared while both are in flight: a finished response is in dictionary mode, whose map comes from a
 * cache that a GC clears, so two finished responses sometimes differ however they were built (seen in the full
 * suite, and once in six runs of a bare child).
 */
const CHILD = `
const fs = require('node:fs');
const Module = require('node:module');
const ts = require('typescript');
const file = process.env.ADAPTER;
const source = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
  compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
}).outputText;
const adapterModule = new Module(file, module);
adapterModule.filename = file;
adapterModule.paths = Module._nodeModulePaths(require('node:path').dirname(file));
adapterModule._compile(source, file);
const { LegworkExpressAdapter } = adapterModule.exports;
const express = adapterModule.require('express');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)');
(async () => {
  const app = express();
  const prototypes = [];
  const pairs = [];
  let waiting = null;
  // Two requests in flight at once, compared in the handler before either is answered.
  app.get('/seen', (req, res) => {
    prototypes.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
    if (!waiting) {
      waiting = { req, res };
      return;
    }
    pairs.push([sameHiddenClass(waiting.req, req), sameHiddenClass(waiting.res, res)]);
    waiting.res.status(201).json({ pair: pairs.length });
    res.status(201).json({ pair: pairs.length });
    waiting = null;
  });
  const adapter = new LegworkExpressAdapter(app);
  adapter.initHttpServer({});
  const server = adapter.getHttpServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = 'http://127.0.0.1:' + server.address().port + '/seen';
  const statuses = [];
  for (let i = 1; i <= 10; i++) {
    const answers = await Promise.all([fetch(url), fetch(url)]);
    for (const a of answers) statuses.push(a.status, (await a.json()).pair);
  }
  server.close();
  console.log(JSON.stringify({ statuses, prototypes: prototypes.every(Boolean), pairs: pairs.slice(5) }));
})().catch((err) => { console.error(err); process.exit(1); });
`;

describe('LegworkExpressAdapter', () => {
  it("builds requests and responses on Express's prototypes, each like the one in flight beside it", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--allow-natives-syntax', '-e', CHILD], {
      cwd: __dirname,
      env: { ...process.env, ADAPTER: join(__dirname, 'express-adapter.ts') },
    });
    const result = JSON.parse(stdout) as {
      statuses: number[];
      prototypes: boolean;
      pairs: [boolean, boolean][];
    };
    expect(result.statuses).toEqual(Array.from({ length: 10 }, (_, i) => [201, i + 1, 201, i + 1]).flat());
    expect(result.prototypes).toBe(true);
    // Past V8's first constructions, two requests (and two responses) in flight together share a hidden class:
    // none is made per request, which would fill the old generation with garbage hidden classes (the old adapter,
    // Reflect.construct with another new.target, had every pair apart). At most one pair apart: V8 may generalize a
    // field's representation once.
    expect(result.pairs.filter(([req]) => !req).length).toBeLessThanOrEqual(1);
    expect(result.pairs.filter(([, res]) => !res).length).toBeLessThanOrEqual(1);
  });
});
