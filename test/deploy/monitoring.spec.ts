import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import '../../src/observability/database-gauges';
import { collectProcessMetrics, registry } from '../../src/observability/metrics';
import '../../src/observability/pool-metrics';
import { find } from './objects';
import { K8S_DIR, render, requireKubectl } from './render';

const MONITORING = join(K8S_DIR, 'components', 'monitoring');

/** Whether promtool (Debian's `prometheus` package; .ci/run installs it) is on the PATH. */
const PROMTOOL = spawnSync('promtool', ['--version']).status === 0;
const withPromtool = PROMTOOL ? describe : describe.skip;
if (!PROMTOOL) {
  console.warn(
    'test/deploy/monitoring.spec.ts: promtool is not installed, so the alert rules and the dashboard are not checked. ' +
      "Install Debian's `prometheus` package (apt-get install prometheus; .ci/run does) and run the tests again.",
  );
}

interface Dashboard {
  panels: { id: number; title: string; targets: { refId: string; expr: string }[] }[];
}
const dashboard = JSON.parse(readFileSync(join(MONITORING, 'dashboard.json'), 'utf8')) as Dashboard;

/** Every metric name an expression reads (the identifiers of our and Kubernetes' metric families). */
function metricNames(expr: string): string[] {
  return [
    ...expr.matchAll(/\b((?:legwork|http|nodejs|process|kube)_[a-z0-9_]+|up)\b(?=\s*[{[)]|\s*(?:$|[=!<>]))/g),
  ].map((m) => m[1]);
}

/** The names this service's processes export: each family of the registry, histograms with their series. */
function exportedNames(): Set<string> {
  collectProcessMetrics();
  const names = new Set<string>();
  for (const { name } of registry.getMetricsAsArray() as unknown as { name: string }[]) {
    names.add(name);
    for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

/** Metrics of Kubernetes itself (kube-state-metrics, Prometheus's own `up`). */
const KUBERNETES = new Set(['kube_pod_container_status_restarts_total', 'up']);

describe('monitoring: alerts and dashboard (components/monitoring)', () => {
  let rules: { groups: { name: string; rules: { alert?: string; expr: string }[] }[] };
  let dir: string;

  beforeAll(() => {
    requireKubectl();
    const objects = render('overlays/production');
    rules = find(objects, 'PrometheusRule', 'legwork')!.spec;
    dir = mkdtempSync(join(tmpdir(), 'legwork-rules-'));
    // The rendered rule's spec is a Prometheus rule file as it is; the rule tests sit beside it.
    writeFileSync(join(dir, 'legwork.rules.yaml'), stringify(rules));
    copyFileSync(join(MONITORING, 'alerts.test.yaml'), join(dir, 'alerts.test.yaml'));
    // The dashboard's expressions as recording rules: promtool parses each one.
    const recorded = dashboard.panels.flatMap((p) =>
      p.targets.map((t) => ({
        record: `legwork_dashboard:panel_${p.id}_${t.refId.toLowerCase()}`,
        expr: t.expr,
      })),
    );
    writeFileSync(
      join(dir, 'dashboard.rules.yaml'),
      stringify({ groups: [{ name: 'dashboard', rules: recorded }] }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has the alerts that matter', () => {
    const alerts = rules.groups.flatMap((g) => g.rules.map((r) => r.alert));
    expect(alerts).toEqual(
      expect.arrayContaining([
        'LegworkHigh5xxRate',
        'LegworkWebhookLagHigh',
        'LegworkOutboxBacklog',
        'LegworkPaymentNotificationsFailing',
        'LegworkLedgerCheckFailing',
        'LegworkPodsRestarting',
      ]),
    );
  });

  it('reads only metrics the processes export (or Kubernetes has)', () => {
    const exported = exportedNames();
    const used = [
      ...rules.groups.flatMap((g) => g.rules.map((r) => r.expr)),
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
    ].flatMap(metricNames);
    expect(used.length).toBeGreaterThan(20);
    expect([...new Set(used)].filter((n) => !exported.has(n) && !KUBERNETES.has(n))).toEqual([]);
  });

  withPromtool('promtool', () => {
    const promtool = (...args: string[]) =>
      execFileSync('promtool', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

    it('`promtool check rules` accepts the alert rules and the dashboard expressions', () => {
      expect(promtool('check', 'rules', 'legwork.rules.yaml')).toMatch(/SUCCESS: 9 rules found/);
      const panels = dashboard.panels.reduce((n, p) => n + p.targets.length, 0);
      expect(promtool('check', 'rules', 'dashboard.rules.yaml')).toContain(`SUCCESS: ${panels} rules found`);
    });

    it('`promtool test rules`: each alert fires on what should fire it, and not before', () => {
      expect(promtool('test', 'rules', 'alerts.test.yaml')).toContain('SUCCESS');
    });

    it('fails on a broken expression (the check can fail)', () => {
      writeFileSync(
        join(dir, 'broken.rules.yaml'),
        stringify({
          groups: [{ name: 'x', rules: [{ alert: 'Broken', expr: 'sum(rate(http_requests_total[5m])' }] }],
        }),
      );
      const run = spawnSync('promtool', ['check', 'rules', 'broken.rules.yaml'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(run.status).not.toBe(0);
    });
  });
});
