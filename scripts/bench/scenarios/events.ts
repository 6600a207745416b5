import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BenchContext, ScenarioReport } from '../context';

/** Webhook delivery and socket.io fan-out need the events module (branch events). */
export async function eventsScenarios(
  ctx: BenchContext,
  want: (id: string) => boolean,
): Promise<ScenarioReport[]> {
  const hasEvents = existsSync(resolve(__dirname, '..', '..', '..', 'src', 'events'));
  const pending = (id: string, title: string): ScenarioReport => ({
    id,
    title,
    status: 'pending',
    reason: hasEvents
      ? 'not measured yet'
      : 'the events module (webhooks and the socket.io gateway) is not on main yet; the scenario runs once it is merged',
    runs: [],
    notes: [],
    checks: {},
  });
  ctx.log(`events: ${hasEvents ? 'present' : 'not merged yet'}`);
  const out: ScenarioReport[] = [];
  if (want('webhooks'))
    out.push(pending('webhooks', 'Webhook delivery throughput and lag to a local receiver'));
  if (want('websocket'))
    out.push(pending('websocket', 'socket.io fan-out to 2,000 clients (task change to receipt)'));
  return out;
}
