import request, { type Response } from 'supertest';
import type SuperAgent from 'supertest/lib/agent';
import type { TestApp } from '../support/app';
import { buildOpenApiDocument } from '../../src/openapi/openapi';
import { loadOpenApi, OpenApiDoc, Operation, resolve, Schema } from '../support/openapi-schemas';
import { PaymentRig, startPaymentRig } from '../support/payment-rig';
import { jpeg } from '../support/photos';
import { credentials, problems, truncate } from './answers';
import { BodyCase, BodyContext, bodyText, fieldPaths, jsonCases, pathName } from './field-paths';
import { baseForm, FilePart, Form, formCases } from './form-fields';
import { Scene } from './scene';

/**
 * The deterministic pass (the random pass, openapi-fuzz, changes one top-level key at a time). For every route of
 * openapi/openapi.json that takes a body, and every field path of its request schema, nested objects and array
 * items included, a valid body with that one path set to null, to each wrong type, to a huge string, to a string
 * with a NUL byte, to an array as deep as a body may nest and, for numbers, to values out of every range (forms:
 * form-fields.ts). Each route runs in its own scene (its own accounts, real ids in its path and body, the right
 * credentials), so validation passes the valid part of the body on and the service runs; the valid body itself
 * must pass.
 *
 * Every answer: no 5xx (documented ones included), and what the reference documents (answers.ts). A value the
 * reference does not allow is refused with 400 validation_error naming the field; null in an optional field that
 * is not nullable is read as absent (product-decisions §16); a refused request moves no money of the scene's
 * accounts (their balances and postings are as before), and the ledger invariants hold after the file
 * (after-file.ts).
 */
const doc = loadOpenApi();
const METHODS = ['post', 'put', 'patch'] as const;
/** Routes at a time; a route's requests go one after another, so each refusal is checked against the ledger. */
const CONCURRENCY = 4;

interface Route {
  name: string;
  method: (typeof METHODS)[number];
  path: string;
  op: Operation;
  type: 'application/json' | 'multipart/form-data';
  schema: Schema;
}

const routes: Route[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.flatMap((method) => {
    const op = item[method];
    const content = op?.requestBody?.content ?? {};
    const type = 'application/json' in content ? 'application/json' : 'multipart/form-data';
    const schema = content[type]?.schema;
    return schema ? [{ name: `${method.toUpperCase()} ${path}`, method, path, op, type, schema }] : [];
  }),
);

describe('deterministic pass over every field path of every request body', () => {
  let rig: PaymentRig;
  let t: TestApp;
  /** To the listening app (supertest would otherwise listen on a new port for each request). */
  let http: SuperAgent;
  let photo: FilePart;
  let sent = 0;
  let paths = 0;

  beforeAll(async () => {
    // The provider sandbox too: payments, refunds and sandbox top-ups run to the provider and back.
    rig = await startPaymentRig({
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      WORKER_RATE_LIMIT_PER_MINUTE: '100000',
      // A quote route gets some 200 requests from its one agent.
      QUOTE_RATE_LIMIT_PER_MINUTE: '100000',
      QUOTE_RATE_LIMIT_PER_DAY: '10000000',
      // A report route gets some 60 requests from its one worker.
      REPORT_RATE_LIMIT_PER_MINUTE: '100000',
    });
    t = rig.t;
    http = request(rig.baseUrl);
    // Taken where the scene's tasks are, when they are: a photo a submission accepts.
    const bytes = await jpeg({ gps: { latitude: 31.2304, longitude: 121.4737 }, gpsTime: t.clock.now() });
    photo = { bytes, filename: 'proof.jpg', contentType: 'image/jpeg' };
  });
  afterAll(async () => {
    await rig.close();
    console.log(`field-path pass: ${sent} requests, ${paths} field paths of ${routes.length} routes`);
  });

  /** The balances and the number of postings of the scene's ledger accounts. */
  async function ledgerOf(scene: Scene): Promise<string> {
    const [row]: { postings: string; balances: string | null }[] = await t.db.query(
      `SELECT (SELECT count(*) FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
                WHERE a.agent_id = ANY($1) OR a.owner_id = ANY($1)) AS postings,
              (SELECT string_agg(code || '=' || balance, ',' ORDER BY code) FROM ledger_accounts
                WHERE agent_id = ANY($1) OR owner_id = ANY($1)) AS balances`,
      [scene.actorIds],
    );
    return `${row.postings} postings; ${row.balances ?? ''}`;
  }

  async function runRoute(route: Route): Promise<string[]> {
    const scene = await Scene.create(t);
    await scene.prepare(route.path);
    let url = route.path;
    for (const [, name] of route.path.matchAll(/\{([^}]+)\}/g)) {
      url = url.replace(`{${name}}`, encodeURIComponent(await scene.param(route.path, name)));
    }
    const headers = credentials(route.op, 'valid', scene);
    const start = () => {
      sent++;
      let req = http[route.method](url);
      for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
      return req;
    };
    const ctx = await contextFor(route, scene);
    const send = (body: unknown): Promise<Response> =>
      route.type === 'application/json'
        ? start().set('Content-Type', 'application/json').send(bodyText(body))
        : attach(start(), body as Form);
    const { base, cases, fields } = bodiesOf(route, ctx);
    paths += fields;
    const found: string[] = [];
    const first = await send(base);
    if (isValidationError(first) || first.status >= 500)
      found.push(`the valid body is refused: ${first.status} ${truncate(first.body)}`);
    let ledger = await ledgerOf(scene);
    for (const c of cases) {
      const res = await send(c.body);
      const wrong = [...problems(doc, route.op, res), ...(await verdict(c, res, send))];
      if (res.status >= 400) {
        const after = await ledgerOf(scene);
        if (after !== ledger) wrong.push(`a refused request moved money: ${ledger} -> ${after}`);
      } else {
        ledger = await ledgerOf(scene);
      }
      if (wrong.length)
        found.push(`${c.label} -> ${res.status}: ${wrong.join('; ')}\n    ${truncate(res.text)}`);
    }
    return found.map((f) => `${route.name}: ${f}`);
  }

  /** The valid body of a route and its changes: a JSON body's (field-paths.ts) or a form's (form-fields.ts). */
  function bodiesOf(
    route: Route,
    ctx: BodyContext,
  ): { base: unknown; cases: BodyCase<unknown>[]; fields: number } {
    if (route.type === 'application/json') return jsonCases(doc, route.schema, ctx);
    const form = baseForm(doc, route.schema, photo, ctx);
    return { base: form, cases: formCases(doc, route.schema, form, photo), fields: Object.keys(form).length };
  }

  /** Real values for the body's fields by name (ids of the scene's things), and the clock. */
  async function contextFor(route: Route, scene: Scene): Promise<BodyContext> {
    const fields = fieldPaths(doc, route.schema);
    const names = new Set(fields.flatMap((f) => f.path.filter((k): k is string => typeof k === 'string')));
    const named = new Map<string, unknown>();
    for (const n of names) named.set(n, await scene.field(route.path, n));
    return { now: t.clock.now(), named: (n) => named.get(n) };
  }

  /** What §16 and the reference say the answer to this one change must be. */
  async function verdict(
    c: BodyCase<unknown>,
    res: Response,
    send: (body: unknown) => Promise<Response>,
  ): Promise<string[]> {
    const out: string[] = [];
    if (res.status >= 500) out.push('a 5xx');
    if (c.refusedAs !== null && !named(res, c.refusedAs, false).length)
      out.push(`not refused naming ${c.refusedAs}`);
    if (c.absent) {
      const asNull = named(res, c.absent.field, true);
      // Refused naming the field: the body without the field must be refused alike.
      const asAbsent = asNull.length ? named(await send(c.absent.body), c.absent.field, true) : [];
      if (JSON.stringify(asAbsent) !== JSON.stringify(asNull)) out.push('null refused where absent is not');
    }
    return out;
  }

  it('reads null by the optional and nullable fields the reference shows (declared, not only inferred by the build)', () => {
    // The pipe reads the decorators; the committed reference also has what the swagger CLI plugin infers from the
    // types at build time (ts-jest runs without it). Where they differ, null would mean one thing under test and
    // another in production: the field must declare it.
    const runtime = buildOpenApiDocument(t.app) as unknown as OpenApiDoc;
    const differences: string[] = [];
    const seen = new Set<string>();
    const compare = (raw: Schema | undefined, at: string): void => {
      const name = raw?.$ref?.split('/').pop();
      if (!name || seen.has(name)) return;
      seen.add(name);
      const [committed, served] = [resolve(doc, raw), resolve(runtime, raw)];
      for (const [key, prop] of Object.entries(committed.properties ?? {})) {
        const other = served.properties?.[key];
        const state = (d: OpenApiDoc, s: Schema, p: Schema | undefined) =>
          `${(s.required ?? []).includes(key) ? 'required' : 'optional'}${resolve(d, p).nullable ? ', nullable' : ''}`;
        const [documented, read] = [state(doc, committed, prop), state(runtime, served, other)];
        if (documented !== read)
          differences.push(`${at}.${key}: ${documented} in the reference, ${read} at run time`);
        compare(prop.items ?? prop.allOf?.[0] ?? prop, `${at}.${key}`);
      }
    };
    for (const route of routes) if (route.type === 'application/json') compare(route.schema, route.name);
    expect(differences).toEqual([]);
  });

  it('bounds every string, number and array of every request body in the reference', () => {
    // Then a huge string or number never conforms, and the pass requires its refusal naming the field: nothing
    // unbounded reaches the database.
    const unbounded = routes
      .filter((r) => r.type === 'application/json')
      .flatMap((r) =>
        fieldPaths(doc, r.schema).map((f) => ({ at: `${r.name}: ${pathName(f.path)}`, s: f.schema })),
      )
      .filter(({ s }) => !s.enum && !isBounded(s))
      .map(({ at, s }) => `${at} (${s.type})`);
    expect([...new Set(unbounded)]).toEqual([]);
  });

  it('answers every change of every field path without a 5xx, refusing what the reference does not allow', async () => {
    const found: string[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < routes.length) {
        const route = routes[next++];
        found.push(...(await runRoute(route).catch((err: Error) => [`${route.name}: ${err.stack}`])));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(found).toEqual([]);
  }, 600_000);
});

function attach(req: request.Test, form: Form): request.Test {
  for (const [name, parts] of Object.entries(form)) {
    for (const p of parts) {
      req =
        typeof p === 'string'
          ? req.field(name, p)
          : req.attach(name, p.bytes, { filename: p.filename, contentType: p.contentType });
    }
  }
  return req;
}

function isValidationError(res: Response): boolean {
  return res.status === 400 && (res.body as { error?: { code?: string } }).error?.code === 'validation_error';
}

function details(res: Response): { field: string; message: string }[] {
  const d = (res.body as { error?: { details?: unknown } }).error?.details;
  return Array.isArray(d) ? (d as { field: string; message: string }[]) : [];
}

/** The validation details naming `field` (exactly, or also the fields inside it). */
function named(res: Response, field: string, exact: boolean): { field: string; message: string }[] {
  if (!isValidationError(res)) return [];
  // A check that names an item (`answer_schema.required[0]`) names the array too.
  return details(res).filter(
    (d) =>
      d.field === field || (!exact && (d.field.startsWith(`${field}.`) || d.field.startsWith(`${field}[`))),
  );
}

function isBounded(s: Schema): boolean {
  switch (s.type) {
    case 'string':
      return (
        s.maxLength !== undefined ||
        s.format === 'uuid' ||
        s.format === 'date-time' ||
        !!s.pattern?.endsWith('$')
      );
    case 'integer':
    case 'number':
      return s.minimum !== undefined && s.maximum !== undefined;
    case 'array':
      return s.maxItems !== undefined;
    default:
      return true;
  }
}
