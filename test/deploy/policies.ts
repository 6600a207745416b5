/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are walked as plain JSON */
import {
  containers,
  find,
  legworkConfig,
  ofKind,
  pods,
  portNumber,
  preStopSeconds,
  secretNames,
  selects,
  type Pod,
} from './objects';
import type { K8sObject } from './render';

/**
 * The deployment rules of docs/kubernetes.md as checks over one rendered overlay. Each returns the problems it finds
 * ("Deployment/legwork-api: ..."); an empty list means the overlay keeps the rule. test/deploy/k8s.spec.ts runs them
 * on every overlay and shows each one failing on a broken copy.
 */

/** Secrets each render may refer to, by name only; their keys are listed in docs/kubernetes.md. */
export const BASE_SECRETS = ['legwork-secrets', 'legwork-database', 'legwork-tls', 'legwork-object-storage'];
export const TRIAL_SECRETS = [...BASE_SECRETS, 'legwork-sandbox-credentials'];

const SECRET_LIKE = /SECRET|PASSWORD|PRIVATE_KEY|APIV3_KEY|TOKEN/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** No Secret objects, only references to documented ones, and no secret value in a ConfigMap or a literal env. */
export function secretProblems(objects: K8sObject[], allowed: string[]): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    const id = `${o.kind}/${o.metadata.name}`;
    if (o.kind === 'Secret') problems.push(`${id}: Secret objects are never committed; refer to one by name`);
    for (const name of secretNames(o.spec ?? {})) {
      if (!allowed.includes(name))
        problems.push(`${id}: refers to Secret ${name}, not one of ${allowed.join(', ')}`);
    }
    if (o.kind === 'ConfigMap') {
      for (const key of Object.keys(o.data ?? {}).filter((k) => SECRET_LIKE.test(k))) {
        problems.push(`${id}: ${key} looks secret; it belongs in a Secret`);
      }
    }
  }
  for (const pod of pods(objects)) {
    for (const c of containers(pod.spec)) {
      for (const env of c.env ?? []) {
        const literal = typeof env.value === 'string';
        if (literal && SECRET_LIKE.test(env.name))
          problems.push(`${pod.owner}: ${env.name} is a literal value`);
        const userinfo = literal ? /:\/\/([^/@]*)@/.exec(env.value)?.[1] : undefined;
        if (userinfo !== undefined && !/^\$\([A-Z_]+\):\$\([A-Z_]+\)$/.test(userinfo)) {
          problems.push(`${pod.owner}: ${env.name} carries credentials that are not $(VARIABLE) references`);
        }
      }
    }
  }
  return problems;
}

/** Image pinning, resources, the restricted security context and probes, for every container of every workload. */
export function workloadProblems(objects: K8sObject[], version: string): string[] {
  const problems: string[] = [];
  for (const pod of pods(objects)) {
    if (pod.spec.automountServiceAccountToken !== false) {
      problems.push(`${pod.owner}: automountServiceAccountToken must be false`);
    }
    if (pod.spec.hostNetwork || pod.spec.hostPID || pod.spec.hostIPC)
      problems.push(`${pod.owner}: uses host namespaces`);
    if ((pod.spec.volumes ?? []).some((v: any) => v.hostPath))
      problems.push(`${pod.owner}: mounts a hostPath`);
    for (const c of containers(pod.spec)) {
      const where = `${pod.owner} container ${c.name}`;
      problems.push(...imageProblems(where, c.image, version));
      problems.push(...resourceProblems(where, c.resources));
      problems.push(...securityProblems(where, pod.spec.securityContext ?? {}, c.securityContext ?? {}));
    }
    if (pod.kind !== 'Job') {
      for (const c of pod.spec.containers ?? []) {
        if (!c.livenessProbe || !c.readinessProbe) {
          problems.push(`${pod.owner} container ${c.name}: needs liveness and readiness probes`);
        }
      }
    }
  }
  return problems;
}

function imageProblems(where: string, image: string, version: string): string[] {
  const [ref, digest] = String(image).split('@');
  const tag = /:([^/:]+)$/.exec(ref)?.[1];
  if (/(^|\/)legwork$/.test(ref.replace(/:[^/:]+$/, ''))) {
    if (tag !== version || !DIGEST.test(digest ?? '')) {
      return [`${where}: the Legwork image must be pinned as :${version}@sha256:<digest> (got ${image})`];
    }
    return [];
  }
  if (!tag || tag === 'latest' || !/\d/.test(tag))
    return [`${where}: image ${image} is not pinned to a version`];
  return [];
}

function resourceProblems(where: string, resources: any): string[] {
  const missing = ['requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'].filter(
    (path) => path.split('.').reduce((v, k) => v?.[k], resources) === undefined,
  );
  return missing.length > 0 ? [`${where}: resources ${missing.join(', ')} not set`] : [];
}

function securityProblems(where: string, pod: any, container: any): string[] {
  const problems: string[] = [];
  if (container.allowPrivilegeEscalation !== false)
    problems.push(`${where}: allowPrivilegeEscalation must be false`);
  if (container.readOnlyRootFilesystem !== true)
    problems.push(`${where}: readOnlyRootFilesystem must be true`);
  if (container.privileged) problems.push(`${where}: must not be privileged`);
  if (!(container.capabilities?.drop ?? []).includes('ALL'))
    problems.push(`${where}: must drop ALL capabilities`);
  if ((container.capabilities?.add ?? []).length > 0) problems.push(`${where}: must not add capabilities`);
  if ((container.runAsNonRoot ?? pod.runAsNonRoot) !== true)
    problems.push(`${where}: runAsNonRoot must be true`);
  const user = container.runAsUser ?? pod.runAsUser;
  if (!(Number.isInteger(user) && user > 0)) problems.push(`${where}: runAsUser must be a non-zero uid`);
  const seccomp = container.seccompProfile?.type ?? pod.seccompProfile?.type;
  if (seccomp !== 'RuntimeDefault') problems.push(`${where}: seccompProfile must be RuntimeDefault`);
  return problems;
}

function httpProbe(where: string, container: any, probe: string, path: string, port: number): string[] {
  const get = container[probe]?.httpGet;
  if (get?.path !== path) return [`${where}: ${probe} must GET ${path} (got ${get?.path ?? 'none'})`];
  if (portNumber(container, get.port) !== port) return [`${where}: ${probe} must use port ${port}`];
  return [];
}

/** The API Deployment: replicas, probes, drain timing, rollout, spread and the migrations initContainer. */
export function apiProblems(objects: K8sObject[]): string[] {
  const api = find(objects, 'Deployment', 'legwork-api');
  if (!api) return ['Deployment/legwork-api is missing'];
  const config = legworkConfig(objects);
  const spec = api.spec.template.spec;
  const c = (spec.containers ?? []).find((x: any) => x.name === 'api') ?? {};
  const where = 'Deployment/legwork-api';
  const port = Number(config.PORT);
  const problems = [
    ...httpProbe(where, c, 'startupProbe', '/livez', port),
    ...httpProbe(where, c, 'livenessProbe', '/livez', port),
    ...httpProbe(where, c, 'readinessProbe', '/readyz', port),
    ...drainProblems(where, spec, c, Number(config.SHUTDOWN_DRAIN_SECONDS)),
  ];
  if (!(api.spec.replicas >= 2))
    problems.push(`${where}: needs at least 2 replicas (got ${api.spec.replicas})`);
  if (api.spec.strategy?.rollingUpdate?.maxUnavailable !== 0)
    problems.push(`${where}: maxUnavailable must be 0`);
  if (config.JOBS_IN_PROCESS !== 'false')
    problems.push(`${where}: JOBS_IN_PROCESS must be false (jobs run apart)`);
  const labels = api.spec.template.metadata.labels;
  const spread = (spec.topologySpreadConstraints ?? []).filter((t: any) =>
    selects(t.labelSelector?.matchLabels, labels),
  );
  if (!spread.some((t: any) => t.topologyKey === 'kubernetes.io/hostname')) {
    problems.push(
      `${where}: needs a topologySpreadConstraint over kubernetes.io/hostname selecting its pods`,
    );
  }
  const migrate = (spec.initContainers ?? []).some((x: any) =>
    x.command?.includes('dist/src/database/migrate.cli.js'),
  );
  if (!migrate) problems.push(`${where}: needs the migrate initContainer (dist/src/database/migrate.cli.js)`);
  return problems;
}

/** preStop pause + drain window + in-flight requests and the jobs' graceful stop (10 s each) fit before SIGKILL. */
function drainProblems(where: string, spec: any, container: any, drain: number): string[] {
  const pause = preStopSeconds(container);
  const problems: string[] = [];
  if (!(pause > 0)) problems.push(`${where}: needs a preStop pause`);
  if (!(drain > 0)) problems.push(`${where}: SHUTDOWN_DRAIN_SECONDS must be above 0`);
  if (!(spec.terminationGracePeriodSeconds >= pause + drain + 20)) {
    problems.push(`${where}: terminationGracePeriodSeconds must be at least preStop + drain + 20 s`);
  }
  return problems;
}

/** The job runner Deployment: its own process and its health listener on JOBS_HEALTH_PORT. */
export function jobsProblems(objects: K8sObject[]): string[] {
  const jobs = find(objects, 'Deployment', 'legwork-jobs');
  if (!jobs) return ['Deployment/legwork-jobs is missing'];
  const where = 'Deployment/legwork-jobs';
  const spec = jobs.spec.template.spec;
  const c = spec.containers?.[0] ?? {};
  const port = Number(legworkConfig(objects).JOBS_HEALTH_PORT);
  const problems = [
    ...httpProbe(where, c, 'startupProbe', '/livez', port),
    ...httpProbe(where, c, 'livenessProbe', '/livez', port),
    ...httpProbe(where, c, 'readinessProbe', '/readyz', port),
  ];
  if (!c.command?.includes('dist/src/jobs.main.js'))
    problems.push(`${where}: must run dist/src/jobs.main.js`);
  if (!(jobs.spec.replicas >= 1)) problems.push(`${where}: needs at least one replica`);
  if (!(spec.terminationGracePeriodSeconds >= 30))
    problems.push(`${where}: terminationGracePeriodSeconds below 30`);
  return problems;
}

/** Service, Ingress (WebSocket idle timeout on /ws) and the PodDisruptionBudgets. */
export function routingProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const svc = find(objects, 'Service', 'legwork-api');
  const apiPod: Pod | undefined = pods(objects).find((p) => p.owner === 'Deployment/legwork-api');
  if (!svc || !apiPod || !selects(svc.spec.selector, apiPod.labels))
    problems.push('Service/legwork-api must select the API pods');
  const paths = ofKind(objects, 'Ingress').flatMap((ing) =>
    (ing.spec.rules ?? []).flatMap((r: any) => (r.http?.paths ?? []).map((p: any) => ({ ing, p }))),
  );
  for (const { ing, p } of paths) {
    if (!find(objects, 'Service', p.backend?.service?.name)) {
      problems.push(
        `Ingress/${ing.metadata.name}: backend ${p.backend?.service?.name} is not a Service here`,
      );
    }
  }
  if (!paths.some(({ p }) => p.path === '/' && p.backend?.service?.name === 'legwork-api')) {
    problems.push('Ingress: / must route to legwork-api');
  }
  const ws = paths.find(({ p }) => p.path === '/ws' && p.backend?.service?.name === 'legwork-api');
  if (!ws) problems.push('Ingress: /ws must route to legwork-api');
  for (const key of ['proxy-read-timeout', 'proxy-send-timeout']) {
    const value = Number(ws?.ing.metadata.annotations?.[`nginx.ingress.kubernetes.io/${key}`]);
    if (!(value > 25)) problems.push(`Ingress for /ws: ${key} must exceed socket.io's 25 s ping interval`);
  }
  for (const name of ['legwork-api', 'legwork-jobs']) {
    const deployment = find(objects, 'Deployment', name);
    const labels = deployment?.spec.template.metadata.labels ?? {};
    const pdb = ofKind(objects, 'PodDisruptionBudget').find((b) =>
      selects(b.spec.selector?.matchLabels, labels),
    );
    if (!pdb) problems.push(`Deployment/${name}: no PodDisruptionBudget selects its pods`);
    else if (!(pdb.spec.maxUnavailable >= 1 || pdb.spec.minAvailable < deployment?.spec.replicas)) {
      problems.push(
        `PodDisruptionBudget/${pdb.metadata.name}: allows no disruption, so nodes could never drain`,
      );
    }
  }
  return problems;
}
