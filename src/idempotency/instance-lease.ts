import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Logger } from '../common/logging/logger';

const RECONNECT_MS = 1_000;

/**
 * Proof of life for this process, visible to every other process: a session-level advisory lock on a random key,
 * held on a connection of its own for as long as the process runs. PostgreSQL drops the lock when the process dies
 * (its connection closes), so an Idempotency-Key claim recorded with this key as owner can be told apart from the
 * claim of a crashed process (see IdempotencyStore.claim). If the connection is cut, it reconnects and takes the same
 * key again; until then this instance's claims look abandoned, which token fencing keeps safe.
 */
@Injectable()
export class InstanceLease implements OnModuleInit, OnApplicationShutdown {
  /** A positive 63-bit integer, as text (the pg bigint wire form). */
  readonly key = (BigInt(`0x${randomBytes(8).toString('hex')}`) & 0x7fff_ffff_ffff_ffffn).toString();
  private client: Client | null = null;
  private closing = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const url = (this.ds.options as { url?: string }).url;
    const client = new Client({ connectionString: url, application_name: 'legwork-instance-lease' });
    client.on('error', (err) => {
      this.logger.warn({ err }, 'instance lease connection lost; reconnecting');
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query('SELECT pg_advisory_lock($1)', [this.key]);
    if (this.closing) await client.end();
    else this.client = client;
  }

  private lost(client: Client): void {
    if (this.client === client) this.client = null;
    if (this.closing || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch((err: unknown) => {
        this.logger.warn({ err }, 'instance lease: reconnect failed');
        this.lost(client);
      });
    }, RECONNECT_MS);
    this.retry.unref();
  }
}
