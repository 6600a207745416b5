import { performance } from 'node:perf_hooks';
import type { BenchContext, ScenarioReport } from '../context';
import { createAgents } from '../fixtures';
import { load } from '../load';
import { judgeAnswers } from '../../../src/task/domain/proof-rules';
import { compiledAnswerSchema } from '../../../src/task/domain/answer-validation';
import { ANSWER_SCHEMA_MAX_FIELDS } from '../../../src/task/domain/answer-schema';
import { creationRequests, taskBody } from './create-task';

const AGENTS = 64;
const PAIRS = 5;
const VALIDATIONS_PER_BATCH = 20_000;

/**
 * A schema at the 30-field limit that fits the 64 KB answer: every kind of field, texts bounded so the largest answer
 * fits, one photo field (its URL is checked under the task lock by the upload lookup, which is not validation).
 */
export function thirtyFieldSchema(): Record<string, unknown> {
  const kinds: Record<string, unknown>[] = [
    { type: 'boolean' },
    { type: 'string', maxLength: 200 },
    { type: 'integer', minimum: 0, maximum: 1000 },
    { type: 'number', minimum: 0 },
    { type: 'string', enum: ['bakery', 'cafe', 'pharmacy', 'other'] },
    { type: 'string', format: 'date' },
    { type: 'string', format: 'time' },
    { type: 'string', format: 'date-time' },
    { type: 'array', items: { type: 'string', enum: ['cash', 'alipay', 'wechat', 'card'] }, maxItems: 4 },
  ];
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < ANSWER_SCHEMA_MAX_FIELDS - 1; i++) {
    properties[`f${i}`] = { ...kinds[i % kinds.length], title: `Question ${i}` };
  }
  properties.storefront = { type: 'string', format: 'photo', title: 'Photo of the storefront' };
  return { type: 'object', properties, required: Object.keys(properties) };
}

/** A valid answer to thirtyFieldSchema (every field answered). */
export function thirtyFieldAnswer(): Record<string, unknown> {
  const values: unknown[] = [
    true,
    'Open from 7 to 19, a short queue at the counter.',
    12,
    8.5,
    'bakery',
    '2030-06-01',
    '07:00:00+08:00',
    '2030-06-01T07:08:09+08:00',
    ['cash', 'wechat'],
  ];
  const answer: Record<string, unknown> = {};
  for (let i = 0; i < ANSWER_SCHEMA_MAX_FIELDS - 1; i++) answer[`f${i}`] = values[i % values.length];
  answer.storefront = 'http://127.0.0.1:8000/uploads/task-proofs/2030-06-01/abcdefghijklmnopqrstuvwx.jpg';
  return answer;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Typed answers (issue 28): what validating a submission costs at the 30-field limit (in this process, the same code
 * the API runs: judgeAnswers, with the compiled validator cached as in the server; five batches, the median batch's
 * cost per validation and the spread), and task creation's throughput with a 30-field schema against none, measured
 * in alternating runs (schema, none, schema, ...) so that the shared machine's drift hits both sides alike: the
 * ratio of each pair, their median and spread.
 */
export async function typedAnswersScenario(ctx: BenchContext): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    id: 'typed_answers',
    title: 'Typed answers: validation at the 30-field limit, and task creation with a 30-field schema',
    status: 'ok',
    runs: [],
    notes: [],
    checks: {},
  };
  const schema = thirtyFieldSchema();
  const answer = thirtyFieldAnswer();
  const task = { task_type: 'photo' as const, answer_schema: schema };
  const compileStart = performance.now();
  compiledAnswerSchema(schema);
  const compileMs = performance.now() - compileStart;
  if (judgeAnswers(task, answer).refusal) throw new Error('the bench answer does not fit its schema');
  const perValidationUs: number[] = [];
  for (let batch = 0; batch < 5; batch++) {
    const start = performance.now();
    for (let i = 0; i < VALIDATIONS_PER_BATCH; i++) judgeAnswers(task, answer);
    perValidationUs.push(((performance.now() - start) * 1000) / VALIDATIONS_PER_BATCH);
  }
  const validationUs = median(perValidationUs);
  report.notes.push(
    `Validation of one submission at the 30-field limit (judgeAnswers: null handling, the cached ajv validator, ` +
      `the size check): median ${round(validationUs, 1)} µs over 5 batches of ${VALIDATIONS_PER_BATCH} ` +
      `(spread ${round(Math.min(...perValidationUs), 1)}-${round(Math.max(...perValidationUs), 1)} µs); ` +
      `the first submission of a schema also compiles it once: ${round(compileMs, 1)} ms.`,
  );
  report.checks['validation under 1 ms per submission'] = validationUs < 1000;

  const agents = await createAgents(ctx.db, AGENTS, 10_000_000_000);
  const withSchema = creationRequests(agents, () => taskBody({ answer_schema: schema }));
  const plain = creationRequests(agents, () => taskBody());
  ctx.log('typed_answers: warm-up');
  await load({ server: ctx.server, connections: 32, seconds: 3, requests: withSchema, expected: [201] });
  await load({ server: ctx.server, connections: 32, seconds: 3, requests: plain, expected: [201] });
  const ratios: number[] = [];
  const seconds = Math.max(3, Math.round(ctx.seconds / 2));
  for (let pair = 0; pair < PAIRS; pair++) {
    const a = await load({
      server: ctx.server,
      connections: 32,
      seconds,
      requests: withSchema,
      expected: [201],
    });
    const b = await load({ server: ctx.server, connections: 32, seconds, requests: plain, expected: [201] });
    ratios.push(a.total.rps / b.total.rps);
    report.runs.push({ label: `pair ${pair + 1}: 30-field schema`, api: a.total });
    report.runs.push({ label: `pair ${pair + 1}: no schema`, api: b.total });
    ctx.log(
      `typed_answers: pair ${pair + 1} ${a.total.rps} vs ${b.total.rps} req/s (${round(ratios[pair])})`,
    );
  }
  const ratio = median(ratios);
  report.notes.push(
    `Task creation with a 30-field answer_schema over creation without one, ${PAIRS} alternating pairs of ` +
      `${seconds} s at 32 connections: median ratio ${round(ratio)} (spread ${round(Math.min(...ratios))}-` +
      `${round(Math.max(...ratios))}; pairs ${ratios.map((r) => round(r)).join(', ')}).`,
  );
  report.checks['creation with a 30-field schema keeps >= 90 % of the throughput (median of pairs)'] =
    ratio >= 0.9;
  report.runs.forEach(
    (r) => (r.extra = { ...(r.extra ?? {}), validation_us: round(validationUs, 2), ratio }),
  );
  return report;
}
