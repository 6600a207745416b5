import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The flag must be set before the process allocates its request path (see gc-tuning.ts), so both entry points
 * import it as their first statement, ahead of reflect-metadata and Nest.
 */
describe('gc-tuning', () => {
  it.each(['main.ts', 'jobs.main.ts'])('%s imports it before anything else', (entry) => {
    const source = readFileSync(join(__dirname, '..', entry), 'utf8');
    const firstImport = source.split('\n').find((line) => line.startsWith('import '));
    expect(firstImport).toBe("import './runtime/gc-tuning';");
  });
});
