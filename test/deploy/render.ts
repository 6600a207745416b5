import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';
import { Namespace, ConfigMap, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { CLUSTER_SCHEMA, OBJECT_STORE_SCHEMA, POOLER_SCHEMA, SCHEDULED_BACKUP_SCHEMA } from './cnpg-schemas';
import { POD_MONITOR_SCHEMA, PROMETHEUS_RULE_SCHEMA } from './monitoring-schemas';

export const K8S_DIR = join(__dirname, '..', '..', 'deploy', 'k8s');

/** A rendered object, read loosely: the policies walk it as plain JSON. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  data?: Record<string, string>;
  [field: string]: unknown;
}

/**
 * Fails with what to do when kubectl is missing: the manifests are only known to be right once Kustomize (built into
 * kubectl since 1.14) has rendered them.
 */
export function requireKubectl(command = 'kubectl'): void {
  const probe = spawnSync(command, ['version', '--client'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'kubectl is not installed (or does not run): test/deploy renders deploy/k8s with `kubectl kustomize`. ' +
        'Install kubectl 1.27 or later (its built-in Kustomize renders the overlays) and run the tests again. ' +
        `(${probe.error?.message ?? probe.stderr.trim()})`,
    );
  }
}

/** `kubectl kustomize deploy/k8s/<dir>`, parsed. */
export function render(dir: string): K8sObject[] {
  const yaml = execFileSync('kubectl', ['kustomize', join(K8S_DIR, dir)], { encoding: 'utf8' });
  return parseAllDocuments(yaml)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`kubectl kustomize ${dir}: ${doc.errors[0].message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ModelClass = new (data: any) => { validate(): void };

/** The kubernetes-models class for each built-in kind the manifests use; anything else has no validator. */
const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ServiceAccount': ServiceAccount,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

const ajv = new Ajv({ allErrors: true, strict: true });
const CNPG: Record<string, ReturnType<typeof ajv.compile>> = {
  'postgresql.cnpg.io/v1/Cluster': ajv.compile(CLUSTER_SCHEMA),
  'postgresql.cnpg.io/v1/Pooler': ajv.compile(POOLER_SCHEMA),
  'postgresql.cnpg.io/v1/ScheduledBackup': ajv.compile(SCHEDULED_BACKUP_SCHEMA),
  'barmancloud.cnpg.io/v1/ObjectStore': ajv.compile(OBJECT_STORE_SCHEMA),
  'monitoring.coreos.com/v1/PodMonitor': ajv.compile(POD_MONITOR_SCHEMA),
  'monitoring.coreos.com/v1/PrometheusRule': ajv.compile(PROMETHEUS_RULE_SCHEMA),
};

/**
 * Schema problems of one object: Kubernetes kinds through kubernetes-models' `validate()` (the Kubernetes OpenAPI
 * schemas it ships, 1.32 in 4.5.x), CloudNativePG kinds through cnpg-schemas.ts. An unknown kind is a problem too.
 */
export function schemaProblems(o: K8sObject): string[] {
  const id = `${o.kind}/${o.metadata?.name}`;
  const key = `${o.apiVersion}/${o.kind}`;
  const Model = MODELS[key];
  if (Model) {
    try {
      new Model(o).validate();
      return [];
    } catch (err) {
      const errors = (err as { errors?: { instancePath: string; message?: string }[] }).errors;
      if (!errors) return [`${id}: ${(err as Error).message}`];
      return errors.map((e) => `${id}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    }
  }
  const check = CNPG[key];
  if (!check) return [`${id}: no schema for ${key}: add it to test/deploy/render.ts`];
  if (check(o)) return [];
  return (check.errors ?? []).map(
    (e) =>
      `${id}: ${e.instancePath || '/'} ${e.message ?? 'is invalid'}` +
      (e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : ''),
  );
}
