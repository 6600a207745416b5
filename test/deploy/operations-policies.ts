/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are walked as plain JSON */
import { find, legworkConfig, ofKind, pods, portNumber, selects } from './objects';
import type { K8sObject } from './render';

/** The process each PodMonitor scrapes, and the setting that names its metrics port. */
const SCRAPED = [
  { monitor: 'legwork-api', workload: 'Deployment/legwork-api', setting: 'METRICS_PORT' },
  { monitor: 'legwork-jobs', workload: 'Deployment/legwork-jobs', setting: 'JOBS_METRICS_PORT' },
];

/**
 * components/monitoring: one PodMonitor per Legwork process selects exactly that process's pods and scrapes a port its
 * container declares, the same number the process is told to serve /metrics on; the PrometheusRule exists; no
 * Service routes the metrics ports (they stay off the public path).
 */
export function monitoringProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const config = legworkConfig(objects);
  for (const { monitor, workload, setting } of SCRAPED) {
    const pm = find(objects, 'PodMonitor', monitor);
    if (!pm) {
      problems.push(`PodMonitor/${monitor}: missing`);
      continue;
    }
    const selected = pods(objects).filter((p) => selects(pm.spec.selector?.matchLabels, p.labels));
    if (selected.length !== 1 || selected[0].owner !== workload) {
      problems.push(
        `PodMonitor/${monitor}: must select the pods of ${workload} only (selects ${selected.map((p) => p.owner).join(', ') || 'none'})`,
      );
      continue;
    }
    for (const endpoint of pm.spec.podMetricsEndpoints as { port: string; path?: string }[]) {
      const container = selected[0].spec.containers.find(
        (c: any) => portNumber(c, endpoint.port) !== undefined,
      );
      const port = container ? portNumber(container, endpoint.port) : undefined;
      if (port === undefined)
        problems.push(`PodMonitor/${monitor}: no container of ${workload} has port ${endpoint.port}`);
      else if (String(port) !== config[setting])
        problems.push(
          `PodMonitor/${monitor}: port ${endpoint.port} is ${port}, but ${setting} is ${config[setting]}`,
        );
      if ((endpoint.path ?? '/metrics') !== '/metrics')
        problems.push(`PodMonitor/${monitor}: path must be /metrics`);
    }
  }
  for (const service of ofKind(objects, 'Service')) {
    for (const p of service.spec.ports ?? []) {
      if (p.targetPort === 'metrics' || ['9464', '9465'].includes(String(p.targetPort ?? p.port)))
        problems.push(
          `Service/${service.metadata.name}: routes a metrics port (metrics are scraped from pods only)`,
        );
    }
  }
  if (ofKind(objects, 'PrometheusRule').length !== 1) problems.push('expected one PrometheusRule');
  const dashboard = find(objects, 'ConfigMap', 'legwork-dashboard');
  if (dashboard?.metadata.labels?.grafana_dashboard !== '1')
    problems.push('ConfigMap/legwork-dashboard: needs the grafana_dashboard: "1" label (Grafana sidecar)');
  return problems;
}

export const BARMAN_PLUGIN = 'barman-cloud.cloudnative-pg.io';

/**
 * components/backup: the Cluster archives WAL through the Barman Cloud plugin to the ObjectStore, which uses the
 * uploads' object-storage Secret; a ScheduledBackup of that Cluster with `method: plugin`; never the deprecated
 * in-tree `spec.backup.barmanObjectStore`.
 */
export function backupProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const [cluster] = ofKind(objects, 'Cluster');
  const stores = ofKind(objects, 'ObjectStore');
  const backups = ofKind(objects, 'ScheduledBackup');
  if (!cluster || stores.length !== 1 || backups.length !== 1)
    return ['expected one Cluster, one ObjectStore and one ScheduledBackup'];
  const store = stores[0];
  if (cluster.spec.backup?.barmanObjectStore)
    problems.push(
      `Cluster/${cluster.metadata.name}: spec.backup.barmanObjectStore is deprecated; use the plugin`,
    );
  const plugin = (cluster.spec.plugins ?? []).find((p: any) => p.name === BARMAN_PLUGIN);
  if (!plugin?.isWALArchiver)
    problems.push(`Cluster/${cluster.metadata.name}: the Barman Cloud plugin must archive WAL`);
  if (plugin?.parameters?.barmanObjectName !== store.metadata.name)
    problems.push(
      `Cluster/${cluster.metadata.name}: barmanObjectName must name ObjectStore/${store.metadata.name}`,
    );
  const creds = store.spec.configuration.s3Credentials ?? {};
  for (const key of ['accessKeyId', 'secretAccessKey']) {
    if (creds[key]?.name !== 'legwork-object-storage')
      problems.push(
        `ObjectStore/${store.metadata.name}: ${key} must come from the legwork-object-storage Secret`,
      );
  }
  if (!store.spec.retentionPolicy)
    problems.push(`ObjectStore/${store.metadata.name}: needs a retentionPolicy`);
  const backup = backups[0];
  if (backup.spec.method !== 'plugin' || backup.spec.pluginConfiguration?.name !== BARMAN_PLUGIN)
    problems.push(`ScheduledBackup/${backup.metadata.name}: must use method: plugin with ${BARMAN_PLUGIN}`);
  if (backup.spec.cluster?.name !== cluster.metadata.name)
    problems.push(`ScheduledBackup/${backup.metadata.name}: must back up Cluster/${cluster.metadata.name}`);
  return problems;
}
