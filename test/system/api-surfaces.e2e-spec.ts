import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenApiPaths, renderApiSurfaces } from '../../scripts/api-surfaces';

/**
 * docs/api-surfaces.md is the OpenAPI document's operations as a page: rendered again here, it must equal the
 * committed page, so a route added, removed, renamed or re-described without `npm run api-surfaces` fails CI.
 * (The document itself equals the running routes: `npm run openapi:check`.)
 */
const root = join(__dirname, '..', '..');

describe('docs/api-surfaces.md', () => {
  it('lists exactly the operations of openapi/openapi.json, with their handlers and summaries', () => {
    const doc = JSON.parse(readFileSync(join(root, 'openapi', 'openapi.json'), 'utf8')) as OpenApiPaths;
    const committed = readFileSync(join(root, 'docs', 'api-surfaces.md'), 'utf8');
    // A line-by-line diff reads better in a failure than two 200-line strings.
    expect(committed.split('\n')).toEqual(renderApiSurfaces(doc).split('\n'));
  });

  it('fails on a page that lost an operation (the check can fail)', () => {
    const doc = JSON.parse(readFileSync(join(root, 'openapi', 'openapi.json'), 'utf8')) as OpenApiPaths;
    const page = renderApiSurfaces(doc);
    const fewer = structuredClone(doc);
    delete fewer.paths['/v1/payment/withdraw'];
    expect(renderApiSurfaces(fewer)).not.toEqual(page);
    expect(page).toContain('| POST | `/v1/payment/withdraw` | `WithdrawalController.withdraw` |');
  });
});
