import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { ActorKind } from '../../common/actor';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { WsStatsResponse } from '../dtos/ws.dto';
import { RedisBus } from './redis-bus';

type Counts = Record<ActorKind, number>;

/** How often each instance refreshes its entry, and after how long without one an entry is ignored. */
export const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 20_000;

interface InstanceEntry {
  by_kind: Counts;
  updated_at: number;
}

/**
 * WebSocket connection counts by kind and instance. Each instance counts its own sockets and, with Redis, writes
 * them to one hash (field = INSTANCE_ID) on every change (debounced) and every few seconds; the statistics read
 * that hash and skip entries that stopped refreshing (a crashed instance). Reading is one HGETALL, so the public
 * statistics endpoint cannot make instances talk to each other. Without Redis it reports this instance only.
 * Heartbeats use real time, not the business clock: they describe processes, not business state.
 */
@Injectable()
export class WsStats implements OnApplicationShutdown {
  private readonly counts: Counts = { agent: 0, worker: 0, admin: 0 };
  private heartbeat: NodeJS.Timeout | null = null;
  private pending: NodeJS.Timeout | null = null;
  private active = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly bus: RedisBus,
  ) {}

  /** Called by the gateway: only processes that serve sockets report. */
  start(): void {
    this.active = true;
    if (!this.bus.enabled || this.heartbeat) return;
    this.heartbeat = setInterval(() => void this.write(), HEARTBEAT_MS);
    this.heartbeat.unref();
    void this.write();
  }

  connected(kind: ActorKind): void {
    this.counts[kind]++;
    this.schedule();
  }

  disconnected(kind: ActorKind): void {
    this.counts[kind] = Math.max(0, this.counts[kind] - 1);
    this.schedule();
  }

  async snapshot(): Promise<WsStatsResponse> {
    const entries = new Map<string, InstanceEntry>();
    if (this.bus.pub) {
      const all: Record<string, string> = await this.bus.pub.hgetall(this.key()).catch(() => ({}));
      const now = Date.now();
      const dead: string[] = [];
      for (const [id, raw] of Object.entries(all)) {
        const entry = parse(raw);
        if (entry && now - entry.updated_at < STALE_AFTER_MS) entries.set(id, entry);
        else if (!entry || now - entry.updated_at > 3_600_000) dead.push(id);
      }
      // Entries of instances that died without saying goodbye are dropped after an hour.
      if (dead.length > 0) void this.bus.pub.hdel(this.key(), ...dead).catch(() => undefined);
    }
    if (this.active) entries.set(this.config.instanceId, this.local());
    const instances = [...entries.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([instance_id, e]) => ({
        instance_id,
        connections: total(e.by_kind),
        by_kind: e.by_kind,
        updated_at: new Date(e.updated_at).toISOString(),
      }));
    const byKind: Counts = { agent: 0, worker: 0, admin: 0 };
    for (const i of instances)
      for (const k of Object.keys(byKind) as ActorKind[]) byKind[k] += i.by_kind[k] ?? 0;
    return {
      instance_id: this.config.instanceId,
      scope: this.bus.pub?.status === 'ready' ? 'cluster' : 'instance',
      total_connections: total(byKind),
      by_kind: byKind,
      instances,
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.pending) clearTimeout(this.pending);
    if (this.active) await this.bus.pub?.hdel(this.key(), this.config.instanceId).catch(() => undefined);
  }

  private local(): InstanceEntry {
    return { by_kind: { ...this.counts }, updated_at: Date.now() };
  }

  private schedule(): void {
    if (!this.bus.enabled || this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      void this.write();
    }, 100);
    this.pending.unref();
  }

  private async write(): Promise<void> {
    await this.bus.pub
      ?.hset(this.key(), this.config.instanceId, JSON.stringify(this.local()))
      .catch(() => undefined);
  }

  private key(): string {
    return this.bus.key('ws:instances');
  }
}

function total(c: Counts): number {
  return c.agent + c.worker + c.admin;
}

function parse(raw: string): InstanceEntry | null {
  try {
    const v = JSON.parse(raw) as InstanceEntry;
    return typeof v.updated_at === 'number' && v.by_kind ? v : null;
  } catch {
    return null;
  }
}
