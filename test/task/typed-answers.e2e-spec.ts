import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import { createUploadTestApp, jpeg, offset, spot, uploadProof, type Point } from '../support/photos';
import type { TestApp } from '../support/app';
import { agentBalance, escrowOf, platformFees, workerBalance } from '../support/balances';
import { expectError } from '../support/errors';
import { accept, createTask, submit, SURFACES, taskBody } from '../support/tasks';
import { pump, registerWebhook, startReceiver } from '../events/events-helpers';
import { EVERY_KIND } from '../support/answer-schemas';
import { binary, parseCsv } from '../support/csv';
import { Workbook } from 'exceljs';

/**
 * Typed answers (product-decisions §17): the agent's answer_schema on both surfaces, the quote, the task and the
 * worker's views; schemas outside the subset refused naming their path; answers checked at submission (400
 * answer_invalid with a detail per field, nothing changed); the typed answers in the result, the task and the
 * webhook; photo fields checked like proof photos.
 */

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('typed answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createUploadTestApp();
  });
  afterAll(() => t.close());

  async function photoUrl(worker: TestWorker, at: Point): Promise<string> {
    const bytes = await jpeg({ gps: offset(at, 30), takenAt: '2030:05:06 07:08:09' });
    return (await uploadProof(t, worker, bytes).expect(201)).body.url as string;
  }

  describe.each(Object.values(SURFACES))('on $name', (surface) => {
    it('a schema with every field kind: quoted, created, shown to the agent and to the worker', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const here = spot();
      const body = taskBody(t, { location: here, task_type: 'photo', answer_schema: EVERY_KIND });
      const quote = await t.http.post(`${surface.base}/quote`).set('Authorization', agent.key).send(body);
      expect(quote.status).toBe(200);
      expect(quote.body.answer_schema).toEqual(EVERY_KIND);
      expect(quote.body.review_policy).toBeNull();

      const created = await surface.create(t).set('Authorization', agent.key).send(body).expect(201);
      const taskId = created.body.task_id as string;
      const detail = await t.http
        .get(`${surface.base}/${taskId}`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(detail.body).toMatchObject({
        answer_schema: EVERY_KIND,
        review_policy: null,
        agreement_reached_at: null,
      });

      const worker = await createWorker(t);
      const nearby = await t.http
        .get(`/v1/worker/tasks/available?latitude=${here.latitude}&longitude=${here.longitude}`)
        .set('Authorization', worker.bearer)
        .expect(200);
      expect(nearby.body.tasks.find((x: { task_id: string }) => x.task_id === taskId).answer_schema).toEqual(
        EVERY_KIND,
      );
      const assignmentId = await accept(t, worker, taskId);
      const mine = await t.http
        .get(`/v1/worker/assignments/${assignmentId}`)
        .set('Authorization', worker.bearer)
        .expect(200);
      expect(mine.body.answer_schema).toEqual(EVERY_KIND);
    });
  });

  describe('schemas outside the subset are refused, each naming its path, and nothing is created', () => {
    type Schema = Record<string, unknown> & { properties: Record<string, unknown> };
    const withField = (name: string, field: unknown) => {
      const s = clone(EVERY_KIND) as Schema;
      s.properties[name] = field;
      return s;
    };
    const edit = (f: (s: Schema) => void) => {
      const s = clone(EVERY_KIND) as Schema;
      f(s);
      return s;
    };
    const fields = (n: number, field: (i: number) => unknown) => ({
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, field(i)])),
    });
    const longEnum = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(200, 'x'));
    const cases: [string, unknown, string][] = [
      ['not an object', 'open?', 'answer_schema'],
      ['an unsupported keyword', edit((s) => (s.oneOf = [])), 'answer_schema.oneOf'],
      [
        'another draft',
        edit((s) => (s.$schema = 'http://json-schema.org/draft-07/schema#')),
        'answer_schema.$schema',
      ],
      ['not of type object', edit((s) => (s.type = 'array')), 'answer_schema.type'],
      [
        'additionalProperties true',
        edit((s) => (s.additionalProperties = true)),
        'answer_schema.additionalProperties',
      ],
      ['no properties', { type: 'object', properties: {} }, 'answer_schema.properties'],
      ['31 fields', fields(31, () => ({ type: 'boolean', title: 'x' })), 'answer_schema.properties'],
      [
        'a field name that is no identifier',
        withField('1st', { type: 'boolean', title: 'x' }),
        'answer_schema.properties.1st',
      ],
      ['required naming no field', edit((s) => (s.required = ['nope'])), 'answer_schema.required[0]'],
      ['a field without a title', withField('x', { type: 'boolean' }), 'answer_schema.properties.x.title'],
      [
        'a title over 100',
        withField('x', { type: 'boolean', title: 't'.repeat(101) }),
        'answer_schema.properties.x.title',
      ],
      [
        'a description over 500',
        withField('x', { type: 'boolean', title: 'x', description: 'd'.repeat(501) }),
        'answer_schema.properties.x.description',
      ],
      ['an object field', withField('x', { type: 'object', title: 'x' }), 'answer_schema.properties.x.type'],
      [
        'a pattern',
        withField('x', { type: 'string', title: 'x', pattern: '^a' }),
        'answer_schema.properties.x.pattern',
      ],
      [
        'maxLength over 2000',
        withField('x', { type: 'string', title: 'x', maxLength: 2001 }),
        'answer_schema.properties.x.maxLength',
      ],
      [
        '51 choices',
        withField('x', { type: 'string', title: 'x', enum: Array.from({ length: 51 }, (_, i) => `c${i}`) }),
        'answer_schema.properties.x.enum',
      ],
      [
        'a choice over 200',
        withField('x', { type: 'string', title: 'x', enum: ['c'.repeat(201)] }),
        'answer_schema.properties.x.enum[0]',
      ],
      [
        'an unknown format',
        withField('x', { type: 'string', title: 'x', format: 'email' }),
        'answer_schema.properties.x.format',
      ],
      [
        'minimum above maximum',
        withField('x', { type: 'integer', title: 'x', minimum: 5, maximum: 1 }),
        'answer_schema.properties.x.maximum',
      ],
      [
        'an array of free text',
        withField('x', { type: 'array', title: 'x', items: { type: 'string' } }),
        'answer_schema.properties.x.items',
      ],
      [
        'maxItems 0',
        withField('x', { type: 'array', title: 'x', items: { type: 'string', enum: ['a'] }, maxItems: 0 }),
        'answer_schema.properties.x.maxItems',
      ],
      [
        'six photo fields',
        fields(6, () => ({ type: 'string', title: 'p', format: 'photo' })),
        'answer_schema.properties',
      ],
      ['over 16 KB', fields(2, () => ({ type: 'string', title: 'x', enum: longEnum })), 'answer_schema'],
      [
        'a largest answer over 64 KB',
        fields(12, () => ({ type: 'string', title: 'x', maxLength: 2000 })),
        'answer_schema.properties',
      ],
    ];
    it.each(cases)('%s', async (_name, schema, path) => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const res = await SURFACES.v1
        .create(t)
        .set('Authorization', agent.key)
        .send(taskBody(t, { answer_schema: schema }));
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(path);
      const quote = await t.http
        .post('/v1/tasks/quote')
        .set('Authorization', agent.key)
        .send(taskBody(t, { answer_schema: schema }));
      expectError(quote, 400, 'validation_error');
      expect(await agentBalance(t, agent.id)).toBe(5000);
      expect(await t.db.query(`SELECT 1 FROM tasks WHERE agent_id = $1`, [agent.id])).toHaveLength(0);
    });

    const policy = { type: 'agreement', fields: ['open', 'kind'], min_agreeing: 2 };
    const policies: [string, Record<string, unknown>, string][] = [
      ['without a schema', { review_policy: policy, max_workers: 3 }, 'review_policy'],
      [
        'another type',
        { answer_schema: EVERY_KIND, review_policy: { ...policy, type: 'majority' }, max_workers: 3 },
        'review_policy.type',
      ],
      [
        'min_agreeing 1',
        { answer_schema: EVERY_KIND, review_policy: { ...policy, min_agreeing: 1 }, max_workers: 3 },
        'review_policy.min_agreeing',
      ],
      [
        'min_agreeing over max_workers',
        { answer_schema: EVERY_KIND, review_policy: policy, max_workers: 1 },
        'review_policy.min_agreeing',
      ],
      [
        'a text field',
        { answer_schema: EVERY_KIND, review_policy: { ...policy, fields: ['hours'] }, max_workers: 3 },
        'review_policy.fields[0]',
      ],
      [
        'an optional field',
        { answer_schema: EVERY_KIND, review_policy: { ...policy, fields: ['queue'] }, max_workers: 3 },
        'review_policy.fields[0]',
      ],
      [
        'an unknown field',
        { answer_schema: EVERY_KIND, review_policy: { ...policy, fields: ['nope'] }, max_workers: 3 },
        'review_policy.fields[0]',
      ],
    ];
    it.each(policies)('a review_policy %s', async (_name, over, path) => {
      const agent = await createAgent(t, { balanceCents: 15_000 });
      const res = await SURFACES.api.create(t).set('Authorization', agent.key).send(taskBody(t, over));
      expectError(res, 400, 'validation_error');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(path);
      expect(await agentBalance(t, agent.id)).toBe(15_000);
    });
  });

  describe('answers at submission', () => {
    async function schemaTask(agent: TestAgent, over: Record<string, unknown> = {}) {
      const here = spot();
      const taskId = await createTask(t, agent, {
        location: here,
        task_type: 'photo',
        answer_schema: EVERY_KIND,
        ...over,
      });
      const worker = await createWorker(t);
      const assignmentId = await accept(t, worker, taskId);
      return { here, taskId, worker, assignmentId };
    }

    it('wrong answers are refused with one detail per field, and nothing changes', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { here, taskId, worker, assignmentId } = await schemaTask(agent);
      const otherWorker = await createWorker(t);
      const foreign = await photoUrl(otherWorker, here);
      const res = await submit(t, worker, assignmentId, {
        result_data: {
          open: 'yes',
          hours: 'h'.repeat(101),
          queue: 3.5,
          price: -1,
          kind: 'shop',
          seen_on: '2030-13-01',
          opens_at: '9am',
          checked_at: 'yesterday',
          payment: ['cash', 'cash'],
          storefront: 'not a url',
          colour: 'red',
        },
      });
      expectError(res, 400, 'answer_invalid');
      expect(res.body.error.details).toEqual([
        { field: 'result_data.open', message: 'must be true or false' },
        { field: 'result_data.hours', message: 'must be text of at most 100 characters' },
        { field: 'result_data.queue', message: 'must be a whole number from 0 to 500' },
        { field: 'result_data.price', message: 'must be a number of at least 0' },
        { field: 'result_data.kind', message: 'must be one of: bakery, cafe, other' },
        { field: 'result_data.seen_on', message: 'must be a date, YYYY-MM-DD' },
        { field: 'result_data.opens_at', message: expect.stringContaining('must be a time') },
        { field: 'result_data.checked_at', message: expect.stringContaining('must be a date and time') },
        {
          field: 'result_data.payment',
          message: expect.stringContaining('must be a list of different choices'),
        },
        { field: 'result_data.storefront', message: 'must be the URL of a photo you uploaded' },
        { field: 'result_data.colour', message: 'is not a field of the answer schema' },
      ]);

      // Required fields missing, and null on a required one.
      const missing = await submit(t, worker, assignmentId, { result_data: { open: null } });
      expectError(missing, 400, 'answer_invalid');
      expect(missing.body.error.details).toEqual([
        { field: 'result_data.open', message: 'is required (null is no answer)' },
        { field: 'result_data.kind', message: 'is required' },
        { field: 'result_data.storefront', message: 'is required' },
      ]);

      // A photo field naming another worker's upload.
      const stolen = await submit(t, worker, assignmentId, {
        result_data: { open: true, kind: 'bakery', storefront: foreign },
      });
      expectError(stolen, 400, 'answer_invalid');
      expect(stolen.body.error.details).toEqual([
        { field: 'result_data.storefront', message: 'is not the URL of one of your uploads' },
      ]);

      const [a] = await t.db.query(`SELECT status, result_data, photos FROM assignments WHERE id = $1`, [
        assignmentId,
      ]);
      expect(a).toEqual({ status: 'accepted', result_data: null, photos: [] });
      expect(await escrowOf(t, taskId)).toBe(5000);
      expect(await agentBalance(t, agent.id)).toBe(0);
      expect(await workerBalance(t, worker.id)).toBe(0);
    });

    it('typed answers reach the result, the task, the worker and the webhook; the photo field is checked and listed', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const receiver = await startReceiver();
      try {
        await registerWebhook(t, agent, receiver.url, ['task.submitted']);
        const { here, taskId, worker, assignmentId } = await schemaTask(agent);
        const url = await photoUrl(worker, here);
        const answers = {
          open: true,
          hours: '07:00-19:00',
          queue: 4,
          price: 12.5,
          kind: 'bakery',
          seen_on: '2030-05-06',
          opens_at: '07:00:00+08:00',
          checked_at: '2030-05-06T07:08:09+08:00',
          payment: ['wechat', 'cash'],
          storefront: url,
        };
        await submit(t, worker, assignmentId, { result_data: { ...answers, price: null, queue: 4 } }).expect(
          200,
        );
        const stored = { ...answers } as Record<string, unknown>;
        delete stored.price; // null on an optional field is no answer
        const photo = {
          url,
          taken_at: '2030-05-06T07:08:09.000Z',
          distance_meters: 30,
          field: 'storefront',
          verification: expect.objectContaining({ location_source: 'exif', distance_meters: 30 }),
        };

        const result = await t.http
          .get(`/api/v1/tasks/${taskId}/result`)
          .set('Authorization', agent.key)
          .expect(200);
        expect(result.body.answer_schema).toEqual(EVERY_KIND);
        expect(result.body.result).toMatchObject({ data: stored, photos: [photo] });
        expect(result.body.submissions[0]).toMatchObject({
          assignment_id: assignmentId,
          data: stored,
          photos: [photo],
        });

        const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
        expect(detail.body.assignments[0].submission).toMatchObject({ data: stored, photos: [photo] });
        const mine = await t.http
          .get(`/v1/worker/assignments/${assignmentId}`)
          .set('Authorization', worker.bearer);
        expect(mine.body.submission).toMatchObject({ result_data: stored, photos: [photo] });

        await pump(t);
        const hook = receiver.received.find((r) => (r.json.data as { task_id?: string })?.task_id === taskId);
        expect(hook?.json).toMatchObject({
          event: 'task.submitted',
          data: {
            answer_schema: EVERY_KIND,
            submissions: [{ assignment_id: assignmentId, data: stored, photos: [photo] }],
          },
        });
      } finally {
        await receiver.close();
      }
    });

    it('submit-with-photo checks the answers too; a photo task is satisfied by a photo field alone', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const { here, worker, assignmentId } = await schemaTask(agent);
      const bytes = await jpeg({ gps: offset(here, 20) });
      const bad = await t.http
        .post(`/v1/worker/assignments/${assignmentId}/submit-with-photo`)
        .set('Authorization', worker.bearer)
        .field('result_data', JSON.stringify({ open: 1 }))
        .attach('photo', bytes, { filename: 'p.jpg', contentType: 'image/jpeg' });
      expectError(bad, 400, 'answer_invalid');
      const url = await photoUrl(worker, here);
      const ok = await submit(t, worker, assignmentId, {
        result_data: { open: false, kind: 'cafe', storefront: url },
      });
      expect(ok.status).toBe(200);
    });

    it('a task without a schema behaves as before: free-form data up to 16 KB', async () => {
      const agent = await createAgent(t, { balanceCents: 5000 });
      const taskId = await createTask(t, agent);
      const worker = await createWorker(t);
      const assignmentId = await accept(t, worker, taskId);
      const big = await submit(t, worker, assignmentId, { result_data: { text: 'x'.repeat(17_000) } });
      expectError(big, 400, 'validation_error');
      expect(big.body.error.details).toEqual([
        { field: 'result_data', message: 'must be at most 16384 bytes as JSON' },
      ]);
      await submit(t, worker, assignmentId, { result_data: { anything: { goes: [1, 'two'] } } }).expect(200);
      const result = await t.http
        .get(`/v1/tasks/${taskId}/result`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(result.body.answer_schema).toBeNull();
      expect(result.body.result.data).toEqual({ anything: { goes: [1, 'two'] } });
    });
  });

  describe('the answers export', () => {
    /** A schema task with one valid submission (photo field included) and a schema-less task with one. */
    async function twoTasks(agent: TestAgent) {
      const here = spot();
      const typed = await createTask(t, agent, {
        location: here,
        task_type: 'photo',
        answer_schema: EVERY_KIND,
      });
      const plain = await createTask(t, agent, { title: '=HYPERLINK("http://evil")' });
      const worker = await createWorker(t);
      const a1 = await accept(t, worker, typed);
      const url = await photoUrl(worker, here);
      await submit(t, worker, a1, {
        result_data: {
          open: true,
          kind: 'bakery',
          hours: '-1 早上七点',
          payment: ['cash', 'wechat'],
          queue: 4,
          storefront: url,
        },
      }).expect(200);
      const a2 = await accept(t, worker, plain);
      await submit(t, worker, a2, { result_data: { note: '@SUM(A1)' } }).expect(200);
      return { typed, plain, worker, a1, a2, url };
    }

    it('CSV: one row per submission, one column per field, photo links and verification, safe cells, BOM', async () => {
      const agent = await createAgent(t, { balanceCents: 10_000 });
      const { typed, plain, worker, a1, a2, url } = await twoTasks(agent);
      for (const path of ['/v1/tasks/answers/export', '/api/v1/tasks/answers/export']) {
        const res = await t.http
          .get(`${path}?format=csv&task_ids=${typed},${plain}`)
          .set('Authorization', agent.key)
          .expect(200);
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
        expect(res.headers['content-disposition']).toMatch(
          /^attachment; filename="legwork-answers-.*\.csv"$/,
        );
        expect(res.text.startsWith('\uFEFF')).toBe(true);
        const [header, ...rows] = parseCsv(res.text.slice(1));
        expect(header).toEqual([
          'task_id',
          'task_title',
          'assignment_id',
          'worker_id',
          'status',
          'submitted_at',
          'reviewed_at',
          ...Object.keys(EVERY_KIND.properties),
          'data',
          'photos',
          'verification',
        ]);
        const byName = (row: string[]) => Object.fromEntries(header.map((h, i) => [h, row[i]]));
        expect(rows.map(byName)).toEqual([
          expect.objectContaining({
            task_id: typed,
            assignment_id: a1,
            worker_id: worker.id,
            status: 'submitted',
            open: 'true',
            kind: 'bakery',
            hours: "'-1 早上七点",
            payment: 'cash, wechat',
            queue: '4',
            price: '',
            storefront: url,
            data: '',
            photos: url,
            verification: expect.stringMatching(
              /^storefront: exif 30 m, .*, first use, risk (low|medium) \((capture_outside_window, )?no_camera_metadata\)$/,
            ),
          }),
          expect.objectContaining({
            task_id: plain,
            task_title: `'=HYPERLINK("http://evil")`,
            assignment_id: a2,
            open: '',
            kind: '',
            data: '{"note":"@SUM(A1)"}',
            photos: '',
            verification: '',
          }),
        ]);
      }
    });

    it('XLSX and JSON lines carry the same rows; filters as the task list; foreign or malformed task_ids are refused', async () => {
      const agent = await createAgent(t, { balanceCents: 10_000 });
      const { typed, a1, a2 } = await twoTasks(agent);
      const xlsx = await t.http
        .get(`/v1/tasks/answers/export?format=xlsx&status=submitted`)
        .set('Authorization', agent.key)
        .buffer(true)
        .parse(binary)
        .expect(200);
      const wb = new Workbook();
      const file = xlsx.body as Buffer;
      await wb.xlsx.load(
        file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
      );
      const sheet = wb.getWorksheet('Answers')!;
      expect(sheet.rowCount).toBe(3);
      expect(sheet.getRow(2).getCell(3).value).toBe(a1);
      expect(sheet.getRow(3).getCell(3).value).toBe(a2);

      const jsonl = await t.http
        .get(`/api/v1/tasks/answers/export?format=jsonl&task_ids=${typed}`)
        .set('Authorization', agent.key)
        .expect(200);
      const lines = jsonl.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { photos: unknown[] } & Record<string, unknown>);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        assignment_id: a1,
        data: { open: true, queue: 4, payment: ['cash', 'wechat'] },
      });
      expect(lines[0].photos[0]).toMatchObject({
        field: 'storefront',
        verification: { distance_meters: 30 },
      });

      const none = await t.http
        .get(`/v1/tasks/answers/export?status=completed`)
        .set('Authorization', agent.key)
        .expect(200);
      expect(parseCsv(none.text.slice(1))).toHaveLength(1);

      const stranger = await createAgent(t);
      const foreign = await t.http
        .get(`/v1/tasks/answers/export?task_ids=${typed}`)
        .set('Authorization', stranger.key);
      expectError(foreign, 400, 'validation_error');
      const malformed = await t.http
        .get(`/v1/tasks/answers/export?task_ids=a,b`)
        .set('Authorization', agent.key);
      expectError(malformed, 400, 'validation_error');
      const tooMany = Array.from({ length: 101 }, () => typed).join(',');
      expectError(
        await t.http.get(`/v1/tasks/answers/export?task_ids=${tooMany}`).set('Authorization', agent.key),
        400,
        'validation_error',
      );
    });
  });

  describe('agreement review', () => {
    const SCHEMA = {
      type: 'object',
      properties: {
        open: { type: 'boolean', title: 'Open?' },
        payment: {
          type: 'array',
          title: 'Payment',
          items: { type: 'string', enum: ['cash', 'alipay', 'wechat'] },
        },
        note: { type: 'string', title: 'Anything else', maxLength: 200 },
      },
      required: ['open', 'payment'],
    };
    const POLICY = { type: 'agreement', fields: ['open', 'payment'], min_agreeing: 2 };

    async function threeWorkers(agent: TestAgent) {
      const taskId = await createTask(t, agent, {
        answer_schema: SCHEMA,
        review_policy: POLICY,
        max_workers: 3,
      });
      const workers = [await createWorker(t), await createWorker(t), await createWorker(t)];
      const assignments: string[] = [];
      for (const w of workers) assignments.push(await accept(t, w, taskId));
      return { taskId, workers, assignments };
    }

    const statuses = async (ids: string[]) => {
      const rows: { id: string; status: string }[] = await t.db.query(
        `SELECT id, status FROM assignments WHERE id = ANY($1)`,
        [ids],
      );
      return ids.map((id) => rows.find((r) => r.id === id)!.status);
    };

    it('two of three agree: both are approved and paid automatically, the third waits for the agent', async () => {
      const agent = await createAgent(t, { balanceCents: 15_000 });
      const fees = await platformFees(t);
      const { taskId, workers, assignments } = await threeWorkers(agent);
      await submit(t, workers[0], assignments[0], {
        result_data: { open: true, payment: ['cash', 'wechat'] },
      }).expect(200);
      await submit(t, workers[1], assignments[1], { result_data: { open: false, payment: ['cash'] } }).expect(
        200,
      );
      expect(await statuses(assignments)).toEqual(['submitted', 'submitted', 'accepted']);
      // Multi-selects agree as sets: the order of the choices does not matter.
      await submit(t, workers[2], assignments[2], {
        result_data: { open: true, payment: ['wechat', 'cash'], note: 'busy' },
      }).expect(200);
      expect(await statuses(assignments)).toEqual(['approved', 'submitted', 'approved']);
      expect(await workerBalance(t, workers[0].id)).toBe(4500);
      expect(await workerBalance(t, workers[2].id)).toBe(4500);
      expect(await workerBalance(t, workers[1].id)).toBe(0);
      expect((await platformFees(t)) - fees).toBe(1000);
      expect(await escrowOf(t, taskId)).toBe(5000);
      const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
      expect(detail.body.agreement_reached_at).not.toBeNull();
      expect(detail.body.status).toBe('submitted');

      // The disagreeing one is the agent's to decide; approving it pays it like any other.
      await t.http
        .post(`/v1/tasks/${taskId}/feedback`)
        .set('Authorization', agent.key)
        .send({ accept_result: false, assignment_id: assignments[1], reason_code: 'poor_quality' })
        .expect(200);
      expect(await statuses(assignments)).toEqual(['approved', 'rejected', 'approved']);
      expect(await escrowOf(t, taskId)).toBe(0);
      expect(await agentBalance(t, agent.id)).toBe(5000);
      expect(await taskStatusOf(taskId, agent)).toBe('completed');
    });

    it('agreement stops new workers: the open slots are neither offered nor taken, and stay in escrow for the deadline', async () => {
      const agent = await createAgent(t, { balanceCents: 20_000 });
      const taskId = await createTask(t, agent, {
        answer_schema: SCHEMA,
        review_policy: POLICY,
        max_workers: 4,
      });
      const workers = [await createWorker(t), await createWorker(t)];
      const a = [await accept(t, workers[0], taskId), await accept(t, workers[1], taskId)];
      for (const [i, w] of workers.entries()) {
        await submit(t, w, a[i], { result_data: { open: true, payment: [] } }).expect(200);
      }
      const late = await createWorker(t);
      const res = await t.http.post(`/v1/worker/tasks/${taskId}/accept`).set('Authorization', late.bearer);
      expectError(res, 409, 'invalid_state');
      const detail = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
      expect(detail.body.progress.open_slots).toBe(0);
      expect(await escrowOf(t, taskId)).toBe(10_000);
    });

    it('racing submissions give the same outcome every time', async () => {
      for (let round = 0; round < 3; round++) {
        const agent = await createAgent(t, { balanceCents: 15_000 });
        const { taskId, workers, assignments } = await threeWorkers(agent);
        const answers = [
          { open: true, payment: ['alipay'] },
          { open: false, payment: ['alipay'] },
          { open: true, payment: ['alipay'] },
        ];
        const results = await Promise.all(
          workers.map((w, i) => submit(t, w, assignments[i], { result_data: answers[i] })),
        );
        expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
        expect(await statuses(assignments)).toEqual(['approved', 'submitted', 'approved']);
        expect(await escrowOf(t, taskId)).toBe(5000);
        expect((await workerBalance(t, workers[0].id)) + (await workerBalance(t, workers[2].id))).toBe(9000);
      }
    });
  });

  async function taskStatusOf(taskId: string, agent: TestAgent): Promise<string> {
    const res = await t.http.get(`/v1/tasks/${taskId}`).set('Authorization', agent.key).expect(200);
    return res.body.status as string;
  }
});
