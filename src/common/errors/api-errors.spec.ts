import { Controller, Get } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from './api-error';
import { ApiErrors, documentedErrors, ERROR_DOCS_URL } from './api-errors.decorator';
import { codesCarrying, ERROR_CODE_LIST, ERRORS } from './error-catalog';
import { ERROR_FIELDS, ErrorField } from './error-fields';
import { errorReferenceMarkdown } from './error-reference';

const SRC = join(__dirname, '..', '..');

@ApiErrors({ 429: ['rate_limit_exceeded'] })
@Controller('example')
class ExampleController {
  @Get('a')
  @ApiErrors({ 404: ['task_not_found'], 429: ['concurrent_task_limit'] })
  @ApiErrors({ 404: ['result_not_available'] }, { result_not_available: 'Until it is approved.' })
  a(): void {}

  @Get('b')
  b(): void {}
}

function responses(handler: object): Record<string, { description: string }> {
  return Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) as Record<string, { description: string }>;
}

describe('@ApiErrors', () => {
  it("adds up a route's codes with its controller's, one response per status, in catalogue order", () => {
    const a = ExampleController.prototype.a;
    expect(documentedErrors(a)).toEqual([
      'task_not_found',
      'result_not_available',
      'rate_limit_exceeded',
      'concurrent_task_limit',
    ]);
    expect(Object.keys(responses(a)).sort()).toEqual(['404', '429']);
    expect(responses(a)['404'].description).toBe(
      `- [\`task_not_found\`](${ERROR_DOCS_URL}#task_not_found): ${ERRORS.task_not_found.summary}\n` +
        `- [\`result_not_available\`](${ERROR_DOCS_URL}#result_not_available): ` +
        `${ERRORS.result_not_available.summary} Until it is approved.`,
    );
    expect(documentedErrors(ExampleController.prototype.b)).toEqual(['rate_limit_exceeded']);
  });

  it('does not compile with a code under a status it is not answered with', () => {
    // @ts-expect-error task_not_found is a 404
    const wrongStatus = ApiErrors({ 400: ['task_not_found'] });
    // @ts-expect-error no code is answered with 418
    const noSuchStatus = ApiErrors({ 418: ['validation_error'] });
    // @ts-expect-error not a code
    const noSuchCode = ApiErrors({ 404: ['task_not_fund'] });
    expect([wrongStatus, noSuchStatus, noSuchCode]).toHaveLength(3);
  });
});

describe('ApiError', () => {
  it('takes only the context fields its code carries, typed by their schema', () => {
    // @ts-expect-error task_full carries max_workers, not balance_cents
    const wrongField = new ApiError('task_full', 'x', { balance_cents: 1 });
    // @ts-expect-error balance_cents is an integer
    const wrongType = new ApiError('insufficient_balance', 'x', { balance_cents: '1' });
    // @ts-expect-error task_not_found carries no context
    const noContext = new ApiError('task_not_found', 'x', { task_id: 'x' });
    const right = new ApiError('insufficient_balance', 'x', { balance_cents: 1, required_cents: 2 });
    expect([wrongField, wrongType, noContext].map((e) => e.status)).toEqual([409, 402, 404]);
    expect(right.extra).toEqual({ balance_cents: 1, required_cents: 2 });
  });
});

describe('the error catalogue', () => {
  const sources = listSources(SRC).map((f) => readFileSync(f, 'utf8'));

  it('lists only codes the code raises', () => {
    // `new ApiError('code', ...)`, or the filter's map from an HTTP status (`[HttpStatus.X]: 'code'`).
    const raised = (code: string) => new RegExp(`(ApiError\\(\\s*|\\]: )'${code}'`);
    const unused = ERROR_CODE_LIST.filter((code) => !sources.some((s) => raised(code).test(s)));
    expect(unused).toEqual([]);
  });

  it('lists only context fields some code carries', () => {
    const orphans = (Object.keys(ERROR_FIELDS) as ErrorField[]).filter((f) => codesCarrying(f).length === 0);
    expect(orphans).toEqual([]);
  });

  it('is what docs/errors.md says: one entry per code, nothing else', () => {
    const committed = readFileSync(join(SRC, '..', 'docs', 'errors.md'), 'utf8');
    const headings = [...committed.matchAll(/^### `([a-z_]+)`$/gm)].map((m) => m[1]);
    expect(headings).toEqual(ERROR_CODE_LIST);
    expect(committed).toBe(errorReferenceMarkdown()); // else: npm run build && npm run openapi
  });
});

/** Source files outside the catalogue and the specs: where codes are raised. */
function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return listSources(path);
    const raises = e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && e.name !== 'error-catalog.ts';
    return raises ? [path] : [];
  });
}
