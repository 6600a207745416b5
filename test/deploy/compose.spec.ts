import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * docker-compose.yml as `docker compose` would read it (the YAML parsed, anchors merged; the docker CLI is not
 * needed), against what docs/scaling.md promises of it: `docker compose up --scale api=3` works, because only the
 * load balancer publishes a host port, and the balancer passes WebSockets on to every replica without stickiness.
 */
interface Service {
  image?: string;
  build?: unknown;
  ports?: string[];
  expose?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
}

const ROOT = join(__dirname, '..', '..');
const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;

describe('docker-compose.yml', () => {
  it('has the documented services, each depending only on services it defines, on named volumes it declares', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'jobs', 'migrate', 'postgres', 'proxy', 'redis']);
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        expect({ name, dependency, defined: dependency in services }).toEqual({
          name,
          dependency,
          defined: true,
        });
      }
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0];
        if (source.startsWith('.')) expect(existsSync(join(ROOT, source))).toBe(true);
        else expect(Object.keys(compose.volumes)).toContain(source);
      }
    }
  });

  it('publishes one host port, the load balancer’s, so the api service scales', () => {
    const publishing = Object.entries(services).filter(([, s]) => (s.ports ?? []).length > 0);
    expect(publishing.map(([name]) => name)).toEqual(['proxy']);
    expect(services.proxy.ports).toEqual(['8000:8000']);
    expect(services.api.expose).toEqual(['8000']);
    // Behind the balancer the API reads the client's address from X-Forwarded-For for its per-IP limits.
    expect(services.api.environment?.TRUST_PROXY).toBe('true');
  });

  it('balances over every api replica, passing WebSockets on /ws, with a client address the client cannot forge', () => {
    const mount = services.proxy.volumes?.find((v) => v.endsWith(':/etc/nginx/conf.d/default.conf:ro'));
    expect(mount).toBeDefined();
    const nginx = readFileSync(join(ROOT, mount!.split(':')[0]), 'utf8').replace(/#.*$/gm, '');
    // Docker's DNS names every replica of `api`; nginx asks it again as replicas come and go.
    expect(nginx).toMatch(/resolver 127\.0\.0\.11 valid=\d+s/);
    expect(nginx).toMatch(/upstream api \{[^}]*zone api [^;]+;[^}]*server api:8000 resolve;/);
    expect(services.proxy.image).toMatch(/^nginx:1\.(2[89]|[3-9]\d)/); // `resolve` in open-source nginx: 1.27.3+
    const ws = /location \/ws \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    expect(ws).toContain('proxy_pass http://api;');
    expect(ws).toContain('proxy_set_header Upgrade $http_upgrade;');
    expect(ws).toContain('proxy_set_header Connection $connection_upgrade;');
    // Above socket.io's 25 s ping interval, or idle sockets would be cut.
    expect(Number(/proxy_read_timeout (\d+)s;/.exec(ws)?.[1])).toBeGreaterThan(25);
    expect(nginx).toContain('proxy_http_version 1.1;');
    expect(nginx).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
    expect(nginx).not.toMatch(/\bip_hash\b|\bsticky\b/);
  });
});
