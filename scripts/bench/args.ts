/**
 * `--name <number>` from the command line of a bench or soak script, or `fallback` when absent. A value that is not
 * a number stops the script, rather than running minutes with NaN in its settings.
 */
export function numberArg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(process.argv[i + 1]);
  if (!Number.isFinite(value)) {
    console.error(`--${name} needs a number (got ${process.argv[i + 1] ?? 'nothing'})`);
    process.exit(2);
  }
  return value;
}
