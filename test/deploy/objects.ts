/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are walked as plain JSON */
import type { K8sObject } from './render';

/** Reading helpers over one rendered overlay, shared by the policies. */

export interface Pod {
  /** "Deployment/legwork-api" */
  owner: string;
  kind: string;
  name: string;
  spec: any;
  labels: Record<string, string>;
}

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'Job'];

export function find(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

export function ofKind(objects: K8sObject[], kind: string): K8sObject[] {
  return objects.filter((o) => o.kind === kind);
}

export function pods(objects: K8sObject[]): Pod[] {
  return objects
    .filter((o) => WORKLOAD_KINDS.includes(o.kind))
    .map((o) => ({
      owner: `${o.kind}/${o.metadata.name}`,
      kind: o.kind,
      name: o.metadata.name,
      spec: o.spec?.template?.spec ?? {},
      labels: o.spec?.template?.metadata?.labels ?? {},
    }));
}

export function containers(spec: any): any[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

/** The data of the generated legwork-config ConfigMap (its name carries a content hash). */
export function legworkConfig(objects: K8sObject[]): Record<string, string> {
  const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('legwork-config-'));
  return config?.data ?? {};
}

/** Whether every label of `selector` is on `labels` (a selector with no labels selects nothing here). */
export function selects(
  selector: Record<string, string> | undefined,
  labels: Record<string, string>,
): boolean {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}

/** The seconds a preStop hook pauses (`exec: sleep N` or the native `sleep` action); 0 without one. */
export function preStopSeconds(container: any): number {
  const hook = container.lifecycle?.preStop;
  if (hook?.sleep) return Number(hook.sleep.seconds);
  const command: string[] = hook?.exec?.command ?? [];
  return command[0] === 'sleep' ? Number(command[1]) : 0;
}

/** The container port a probe or Service names (by name or number), if the container declares it. */
export function portNumber(container: any, port: string | number | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p: any) => p.name === port)?.containerPort;
}

/** Every Secret name an object refers to, wherever it does (env, envFrom, volumes, TLS, operator references). */
export function secretNames(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const v of value) secretNames(v, out);
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value as Record<string, any>)) {
      if (key === 'secretName' && typeof v === 'string') out.add(v);
      else if (['secretKeyRef', 'secretRef', 'secret'].includes(key) && typeof v?.name === 'string')
        out.add(v.name);
      else if (key === 'imagePullSecrets') for (const s of v ?? []) out.add(s.name);
      secretNames(v, out);
    }
  }
  return out;
}

/** The host part of a URL-valued setting, or undefined. */
export function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}
