import type { BenchContext, ScenarioReport } from '../context';
import { BASELINE_SCHEMA, cloneSchema } from './events-schema';
import { WEBHOOKS_TITLE, webhooksScenario } from './webhooks';
import { WEBSOCKET_TITLE, websocketScenario } from './websocket';

/** Webhook delivery throughput and lag, and socket.io fan-out to 2,000 clients; each with its DB-only baseline. */
export async function eventsScenarios(
  ctx: BenchContext,
  want: (id: string) => boolean,
): Promise<ScenarioReport[]> {
  const baseline = await cloneSchema(ctx);
  const out: ScenarioReport[] = [];
  const guarded = async (id: string, title: string, run: () => Promise<ScenarioReport>): Promise<void> => {
    if (!want(id)) return;
    try {
      out.push(await run());
    } catch (err) {
      // One failing scenario must not hide the other's figures.
      ctx.log(`${id} failed: ${(err as Error).stack ?? String(err)}`);
      out.push({
        id,
        title,
        status: 'failed',
        reason: (err as Error).message,
        runs: [],
        notes: [],
        checks: {},
      });
    }
  };
  try {
    await guarded('webhooks', WEBHOOKS_TITLE, () => webhooksScenario(ctx, baseline));
    await guarded('websocket', WEBSOCKET_TITLE, () => websocketScenario(ctx, baseline));
  } finally {
    await baseline.end();
    await ctx.db.query(`DROP SCHEMA IF EXISTS ${BASELINE_SCHEMA} CASCADE`);
  }
  return out;
}
