import { registerAgent } from '../support/agents';
import {
  CONFORMANCE_VERSION,
  conformanceTools,
  keyedProxy,
  runServerScenario,
  type ConformanceTools,
} from '../support/mcp-conformance';
import { startPaymentRig, type PaymentRig } from '../support/payment-rig';

/**
 * The server scenarios of the official suite that apply to /mcp: the lifecycle, ping, tool listing (every tool's
 * schemas and metadata checked by the suite) and resource listing (the review card). The rest test features /mcp
 * does not offer or fixtures of the suite's reference server, and are listed in docs/mcp.md ("Conformance") with
 * why: tools, resources and prompts named `test_*` / `test://...`, logging, completion, subscriptions, sessions
 * and SSE resumption (the endpoint is stateless), and DNS-rebinding checks scoped to unauthenticated localhost
 * servers (every /mcp request carries a key).
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list'];

describe(`MCP conformance suite ${CONFORMANCE_VERSION} against /mcp`, () => {
  let rig: PaymentRig;
  let tools: ConformanceTools;
  beforeAll(async () => {
    // First run on a machine: fetches Node 22 and the suite from the npm registry (test/support/mcp-conformance.ts).
    tools = conformanceTools();
    rig = await startPaymentRig({});
  }, 600_000);
  afterAll(() => rig?.close());

  it.each(SCENARIOS)(
    '%s passes, every check a success',
    async (scenario) => {
      const agent = await registerAgent(rig.t);
      // The suite connects without credentials: this stands for a host configured with the agent's key.
      const proxy = await keyedProxy(rig.baseUrl, agent.apiKey);
      try {
        const outcome = await runServerScenario(tools, `${proxy.url}/mcp`, scenario);
        const checks = outcome.checks.map((c) => [c.id, c.status, c.errorMessage ?? null]);
        expect([outcome.exitCode, checks.length > 0 ? 'checks' : outcome.output]).toEqual([0, 'checks']);
        expect(checks.filter(([, status]) => status !== 'SUCCESS' && status !== 'INFO')).toEqual([]);
      } finally {
        await proxy.close();
      }
    },
    120_000,
  );
});
