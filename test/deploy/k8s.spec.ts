import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { find } from './objects';
import {
  cnpgProblems,
  migrateJobProblems,
  namespaceProblems,
  referenceProblems,
  trialProblems,
} from './overlay-policies';
import {
  apiProblems,
  BASE_SECRETS,
  jobsProblems,
  routingProblems,
  secretProblems,
  TRIAL_SECRETS,
  workloadProblems,
} from './policies';
import { backupProblems, monitoringProblems } from './operations-policies';
import { K8sObject, render, requireKubectl, schemaProblems } from './render';

const ROOT = join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const DOCS = readFileSync(join(ROOT, 'docs', 'kubernetes.md'), 'utf8');

type Render = 'base' | 'overlays/trial' | 'overlays/cnpg' | 'overlays/production';
const RENDERS: Render[] = ['base', 'overlays/trial', 'overlays/cnpg', 'overlays/production'];

/** Every rule of docs/kubernetes.md that applies to one render. */
function problems(objects: K8sObject[], which: Render): string[] {
  const overlay = which !== 'base';
  return [
    ...objects.flatMap(schemaProblems),
    ...secretProblems(objects, which === 'overlays/trial' ? TRIAL_SECRETS : BASE_SECRETS),
    ...workloadProblems(objects, VERSION),
    ...apiProblems(objects),
    ...jobsProblems(objects),
    ...routingProblems(objects),
    ...migrateJobProblems(objects, VERSION),
    ...referenceProblems(objects, overlay),
    ...(overlay ? namespaceProblems(objects) : []),
    ...(which === 'overlays/cnpg' || which === 'overlays/production' ? cnpgProblems(objects) : []),
    ...(which === 'overlays/production' ? [...monitoringProblems(objects), ...backupProblems(objects)] : []),
    ...(which === 'overlays/trial' ? trialProblems(objects) : []),
  ];
}

const clone = (objects: K8sObject[]): K8sObject[] => structuredClone(objects);

describe('Kubernetes manifests (deploy/k8s)', () => {
  const rendered = {} as Record<Render, K8sObject[]>;

  beforeAll(() => {
    requireKubectl();
    for (const which of RENDERS) rendered[which] = render(which);
  });

  it.each(RENDERS)(
    '`kubectl kustomize deploy/k8s/%s` renders valid objects that keep every rule',
    (which) => {
      expect(rendered[which].length).toBeGreaterThan(5);
      expect(problems(rendered[which], which)).toEqual([]);
    },
  );

  it('documents every Secret the manifests refer to, with its keys', () => {
    for (const name of TRIAL_SECRETS) expect(DOCS).toContain(`\`${name}\``);
    for (const key of [
      'JWT_ACCESS_SECRET',
      'JWT_REFRESH_SECRET',
      'WEBHOOK_SECRET_KEY',
      'username',
      'password',
    ]) {
      expect(DOCS).toContain(`\`${key}\``);
    }
    expect(DOCS).toContain('`credentials.json`');
  });

  it('runs Node with one heap budget everywhere: npm start, the image and both Deployments', () => {
    const budget = (text: string) => /--max-old-space-size=(\d+)/.exec(text)?.[1];
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts;
    const cmd = /^CMD (.*)$/m.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))?.[1] ?? '';
    const nodeOptions = ['legwork-api', 'legwork-jobs'].map((name) => {
      const deployment = find(rendered.base, 'Deployment', name)!;
      const container = deployment.spec.template.spec.containers[0];
      return (container.env as { name: string; value?: string }[]).find((e) => e.name === 'NODE_OPTIONS')
        ?.value;
    });
    const found = [scripts.start, scripts['start:jobs'], cmd, ...nodeOptions].map((t) => budget(t ?? ''));
    expect(found[0]).toMatch(/^\d+$/);
    expect(found).toEqual(found.map(() => found[0]));
  });

  it('fails with a clear message when kubectl is missing', () => {
    expect(() => requireKubectl('kubectl-that-is-not-installed')).toThrow(/kubectl is not installed/);
  });

  describe('each rule fails on a broken copy', () => {
    const broken = (which: Render, edit: (objects: K8sObject[]) => void): string[] => {
      const objects = clone(rendered[which]);
      edit(objects);
      return problems(objects, which);
    };
    const api = (objects: K8sObject[]) => find(objects, 'Deployment', 'legwork-api')!;
    const apiContainer = (objects: K8sObject[]) => api(objects).spec.template.spec.containers[0];

    it('schemas: a wrong type (kubernetes-models) and a misspelt CloudNativePG field', () => {
      expect(broken('overlays/cnpg', (o) => (api(o).spec.replicas = 'two'))).toContainEqual(
        'Deployment/legwork-api: /spec/replicas must be integer',
      );
      const typo = broken('overlays/cnpg', (o) => (find(o, 'Cluster', 'legwork-db')!.spec.instance = 3));
      expect(typo).toContainEqual(
        expect.stringMatching(
          /^Cluster\/legwork-db: \/spec must NOT have additional properties \(instance\)/,
        ),
      );
      expect(
        broken('base', (o) => o.push({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } })),
      ).toContainEqual('Pod/x: no schema for v1/Pod: add it to test/deploy/render.ts');
    });

    it('secrets: no Secret objects, only documented names, nothing literal', () => {
      const secret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'leak', namespace: 'legwork' },
        data: {},
      };
      expect(broken('overlays/cnpg', (o) => o.push(secret))).toContainEqual(
        'Secret/leak: Secret objects are never committed; refer to one by name',
      );
      const other = broken('base', (o) => (apiContainer(o).envFrom[1].secretRef.name = 'my-secrets'));
      expect(other).toContainEqual(expect.stringMatching(/refers to Secret my-secrets/));
      const literal = broken('base', (o) =>
        apiContainer(o).env.push({ name: 'JWT_ACCESS_SECRET', value: 'x'.repeat(40) }),
      );
      expect(literal).toContainEqual('Deployment/legwork-api: JWT_ACCESS_SECRET is a literal value');
    });

    it('workloads: pinned images, resources, a restricted security context', () => {
      const latest = broken(
        'base',
        (o) => (apiContainer(o).image = 'registry.example.com/legwork/legwork:latest'),
      );
      expect(latest).toContainEqual(expect.stringMatching(/must be pinned as :0\.1\.0@sha256/));
      const redis = broken(
        'overlays/trial',
        (o) => (find(o, 'Deployment', 'legwork-redis')!.spec.template.spec.containers[0].image = 'redis'),
      );
      expect(redis).toContainEqual(expect.stringMatching(/image redis is not pinned/));
      const root = broken('base', (o) => {
        delete apiContainer(o).securityContext.readOnlyRootFilesystem;
        delete apiContainer(o).resources.limits;
      });
      expect(root).toContainEqual(
        'Deployment/legwork-api container api: readOnlyRootFilesystem must be true',
      );
      expect(root).toContainEqual(
        'Deployment/legwork-api container api: resources limits.cpu, limits.memory not set',
      );
    });

    it('API: replicas, probe paths, drain timing, migrations', () => {
      const found = broken('base', (o) => {
        api(o).spec.replicas = 1;
        apiContainer(o).readinessProbe.httpGet.path = '/health';
        api(o).spec.template.spec.terminationGracePeriodSeconds = 10;
        api(o).spec.template.spec.initContainers = [];
      });
      expect(found).toEqual(
        expect.arrayContaining([
          'Deployment/legwork-api: needs at least 2 replicas (got 1)',
          'Deployment/legwork-api: readinessProbe must GET /readyz (got /health)',
          'Deployment/legwork-api: terminationGracePeriodSeconds must be at least preStop + drain + 20 s',
          'Deployment/legwork-api: needs the migrate initContainer (dist/src/database/migrate.cli.js)',
        ]),
      );
    });

    it('routing: the /ws idle timeout and the PodDisruptionBudgets', () => {
      const found = broken('base', (o) => {
        find(o, 'Ingress', 'legwork-ws')!.metadata.annotations![
          'nginx.ingress.kubernetes.io/proxy-read-timeout'
        ] = '20';
        o.splice(o.indexOf(find(o, 'PodDisruptionBudget', 'legwork-jobs')!), 1);
      });
      expect(found).toEqual(
        expect.arrayContaining([
          "Ingress for /ws: proxy-read-timeout must exceed socket.io's 25 s ping interval",
          'Deployment/legwork-jobs: no PodDisruptionBudget selects its pods',
        ]),
      );
    });

    it('monitoring and backups: scraped ports, the plugin, the object store', () => {
      const found = broken('overlays/production', (o) => {
        find(o, 'PodMonitor', 'legwork-jobs')!.spec.podMetricsEndpoints[0].port = 'health';
        find(o, 'PodMonitor', 'legwork-api')!.spec.selector.matchLabels = {
          'app.kubernetes.io/name': 'legwork',
        };
        find(o, 'ScheduledBackup', 'legwork-db-nightly')!.spec.method = 'barmanObjectStore';
        find(o, 'Cluster', 'legwork-db')!.spec.plugins[0].isWALArchiver = false;
        find(o, 'ObjectStore', 'legwork-backups')!.spec.configuration.s3Credentials.accessKeyId.name =
          'other';
      });
      expect(found).toEqual(
        expect.arrayContaining([
          'PodMonitor/legwork-jobs: port health is 8001, but JOBS_METRICS_PORT is 9465',
          expect.stringMatching(
            /^PodMonitor\/legwork-api: must select the pods of Deployment\/legwork-api only/,
          ),
          'ScheduledBackup/legwork-db-nightly: must use method: plugin with barman-cloud.cloudnative-pg.io',
          'Cluster/legwork-db: the Barman Cloud plugin must archive WAL',
          'ObjectStore/legwork-backups: accessKeyId must come from the legwork-object-storage Secret',
        ]),
      );
    });

    it('migrate Job: its name follows the version', () => {
      const found = broken(
        'base',
        (o) => (find(o, 'Job', 'legwork-migrate-v0-1-0')!.metadata.name = 'legwork-migrate'),
      );
      expect(found).toContainEqual(expect.stringMatching(/^expected one Job named legwork-migrate-v/));
    });

    it('cnpg: the pooler must stay in session mode and fit max_connections', () => {
      const found = broken('overlays/cnpg', (o) => {
        const pooler = find(o, 'Pooler', 'legwork-db-pooler-rw')!;
        pooler.spec.pgbouncer.poolMode = 'transaction';
        pooler.spec.instances = 3;
      });
      expect(found).toEqual(
        expect.arrayContaining([
          'Pooler/legwork-db-pooler-rw: poolMode must be session',
          'Cluster/legwork-db: max_connections must fit 300 pooler connections',
        ]),
      );
    });

    it('trial: hosts in the configuration must be Services of the overlay', () => {
      const found = broken('overlays/trial', (o) =>
        o.splice(o.indexOf(find(o, 'Service', 'legwork-redis')!), 1),
      );
      expect(found).toContainEqual(
        'legwork-config: REDIS_URL points at legwork-redis, which is not a Service here',
      );
    });
  });
});
