/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are walked as plain JSON */
import { containers, find, hostOf, legworkConfig, ofKind, pods } from './objects';
import type { K8sObject } from './render';

/**
 * Rules about how the pieces of one overlay fit together: the versioned migrate Job, references that must resolve
 * inside the render, the namespace, and each overlay's database (policies.ts has the per-workload rules).
 */

/** One migrate Job per release: its name and version label follow package.json, like the image tag. */
export function migrateJobProblems(objects: K8sObject[], version: string): string[] {
  const jobs = ofKind(objects, 'Job');
  const expected = `legwork-migrate-v${version.replace(/\./g, '-')}`;
  if (jobs.length !== 1 || jobs[0].metadata.name !== expected) {
    return [
      `expected one Job named ${expected} (got ${jobs.map((j) => j.metadata.name).join(', ') || 'none'})`,
    ];
  }
  const job = jobs[0];
  const problems: string[] = [];
  if (job.metadata.labels?.['app.kubernetes.io/version'] !== version) {
    problems.push(`Job/${expected}: app.kubernetes.io/version must be ${version}`);
  }
  const spec = job.spec.template.spec;
  if (!spec.containers?.[0]?.command?.includes('dist/src/database/migrate.cli.js')) {
    problems.push(`Job/${expected}: must run dist/src/database/migrate.cli.js`);
  }
  if (spec.restartPolicy !== 'Never' || !(job.spec.backoffLimit >= 1)) {
    problems.push(
      `Job/${expected}: restartPolicy Never with a backoffLimit, so a failed attempt is kept for its logs`,
    );
  }
  for (const name of ['legwork-api', 'legwork-jobs']) {
    const labels = find(objects, 'Deployment', name)?.spec.template.metadata.labels ?? {};
    if (labels['app.kubernetes.io/version'] !== version)
      problems.push(`Deployment/${name}: pods must carry version ${version}`);
  }
  return problems;
}

/**
 * References inside the render: ConfigMaps by name, the composed DATABASE_URL in every Legwork container, and (in an
 * overlay, which brings its own database and Redis) the hosts in the configuration name Services that exist.
 */
export function referenceProblems(objects: K8sObject[], overlay: boolean): string[] {
  const problems: string[] = [];
  const configMaps = new Set(ofKind(objects, 'ConfigMap').map((c) => c.metadata.name));
  for (const pod of pods(objects)) {
    for (const c of containers(pod.spec)) {
      const names = [
        ...(c.envFrom ?? []).map((e: any) => e.configMapRef?.name),
        ...(c.env ?? []).map((e: any) => e.valueFrom?.configMapKeyRef?.name),
      ].filter(Boolean);
      for (const name of names)
        if (!configMaps.has(name)) problems.push(`${pod.owner}: ConfigMap ${name} is not rendered`);
      const usesConfig = names.some((n: string) => n.startsWith('legwork-config-'));
      if (usesConfig && !(c.env ?? []).some((e: any) => e.name === 'DATABASE_URL')) {
        problems.push(`${pod.owner} container ${c.name}: DATABASE_URL is not composed`);
      }
    }
  }
  if (!overlay) return problems;
  const config = legworkConfig(objects);
  const services = new Set(ofKind(objects, 'Service').map((s) => s.metadata.name));
  // CloudNativePG creates a Service per Pooler, named after it.
  for (const pooler of ofKind(objects, 'Pooler')) services.add(pooler.metadata.name);
  const hosts: Record<string, string | undefined> = {
    DATABASE_HOST: config.DATABASE_HOST,
    REDIS_URL: hostOf(config.REDIS_URL),
  };
  for (const [key, host] of Object.entries(hosts)) {
    if (!host || !services.has(host))
      problems.push(`legwork-config: ${key} points at ${host}, which is not a Service here`);
  }
  return problems;
}

/** An overlay deploys into its own namespace, which enforces the restricted Pod Security Standard. */
export function namespaceProblems(objects: K8sObject[]): string[] {
  const namespaces = ofKind(objects, 'Namespace');
  if (namespaces.length !== 1) return [`expected one Namespace (got ${namespaces.length})`];
  const ns = namespaces[0].metadata;
  const problems: string[] = [];
  if (ns.labels?.['pod-security.kubernetes.io/enforce'] !== 'restricted') {
    problems.push(`Namespace/${ns.name}: must enforce the restricted Pod Security Standard`);
  }
  for (const o of objects.filter((x) => x.kind !== 'Namespace')) {
    if (o.metadata.namespace !== ns.name)
      problems.push(`${o.kind}/${o.metadata.name}: not in namespace ${ns.name}`);
  }
  return problems;
}

/** CloudNativePG: three instances, a session-mode pooler in front of the primary, sized to fit PostgreSQL. */
export function cnpgProblems(objects: K8sObject[]): string[] {
  const clusters = ofKind(objects, 'Cluster');
  const poolers = ofKind(objects, 'Pooler');
  if (clusters.length !== 1 || poolers.length !== 1)
    return ['expected one CloudNativePG Cluster and one Pooler'];
  const [cluster, pooler] = [clusters[0], poolers[0]];
  const config = legworkConfig(objects);
  const problems: string[] = [];
  if (cluster.spec.instances !== 3) problems.push(`Cluster/${cluster.metadata.name}: needs 3 instances`);
  const initdb = cluster.spec.bootstrap?.initdb ?? {};
  if (initdb.secret?.name !== 'legwork-database' || initdb.database !== config.DATABASE_NAME) {
    problems.push(
      `Cluster/${cluster.metadata.name}: must create ${config.DATABASE_NAME} owned by the legwork-database user`,
    );
  }
  // LISTEN/NOTIFY and session advisory locks need the same server session across transactions.
  if (pooler.spec.pgbouncer?.poolMode !== 'session')
    problems.push(`Pooler/${pooler.metadata.name}: poolMode must be session`);
  if (pooler.spec.cluster?.name !== cluster.metadata.name || pooler.spec.type !== 'rw') {
    problems.push(
      `Pooler/${pooler.metadata.name}: must pool the read-write service of ${cluster.metadata.name}`,
    );
  }
  if (config.DATABASE_HOST !== pooler.metadata.name)
    problems.push('legwork-config: DATABASE_HOST must be the pooler');
  const serverConnections =
    pooler.spec.instances * Number(pooler.spec.pgbouncer?.parameters?.default_pool_size ?? 20);
  if (!(Number(cluster.spec.postgresql?.parameters?.max_connections) >= serverConnections + 10)) {
    problems.push(
      `Cluster/${cluster.metadata.name}: max_connections must fit ${serverConnections} pooler connections`,
    );
  }
  if (ofKind(objects, 'StatefulSet').length > 0)
    problems.push('the cnpg overlay runs no database StatefulSet of its own');
  return problems;
}

/** trial: one PostgreSQL, Redis and the provider sandbox, payments in sandbox mode against it. */
export function trialProblems(objects: K8sObject[]): string[] {
  const config = legworkConfig(objects);
  const problems: string[] = [];
  const postgres = find(objects, 'StatefulSet', config.DATABASE_HOST);
  if (postgres?.spec.replicas !== 1)
    problems.push(`trial: DATABASE_HOST must be a one-replica PostgreSQL StatefulSet`);
  if (config.PAYMENT_MODE !== 'sandbox' || config.SANDBOX_SPAWN !== 'false') {
    problems.push(
      'trial: PAYMENT_MODE must be sandbox, with the sandbox as its own Deployment (SANDBOX_SPAWN=false)',
    );
  }
  for (const key of ['ALIPAY_GATEWAY_URL', 'WECHATPAY_BASE_URL', 'PAYMENT_NOTIFY_BASE_URL']) {
    const host = hostOf(config[key]);
    if (!host || !find(objects, 'Service', host)) problems.push(`trial: ${key} must point at a Service here`);
  }
  return problems;
}
