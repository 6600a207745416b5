import { Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { Clock } from '../../common/clock';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../../common/rate-limit/rate-limit.store';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

/** A refused handshake: what the client is told before the server disconnects it. */
export interface HandshakeRefusal {
  code: 'rate_limited';
  message: string;
  /** Seconds until this address may connect again. */
  retry_after: number;
}

/**
 * The client's address as Express gives it as `req.ip` with the same TRUST_PROXY setting: with it, the left-most
 * X-Forwarded-For entry (the client as the first proxy saw it); without it, the peer address.
 */
export function clientIp(peer: string, headers: IncomingHttpHeaders, trustProxy: boolean): string {
  const forwarded = headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return trustProxy && first ? first : peer;
}

/**
 * Handshakes per client address per minute (WS_HANDSHAKES_PER_MINUTE_PER_IP), counted before any credential is
 * looked at: a refused handshake costs one counter increment and no database or authentication work. The counters
 * are the HTTP rate limits' store (Redis when REDIS_URL is set, so the limit holds across instances) and clock.
 */
@Injectable()
export class HandshakeLimit {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Null when the handshake may go on. */
  async check(peer: string, headers: IncomingHttpHeaders): Promise<HandshakeRefusal | null> {
    const max = this.config.rateLimits.wsHandshakesPerMinutePerIp;
    const ip = clientIp(peer, headers, this.config.trustProxy);
    const now = this.clock.now().getTime();
    const hit = await this.store.hit(`ws-ip:${ip}:m`, 60, now);
    if (hit.count <= max) return null;
    return {
      code: 'rate_limited',
      message: `Too many connections from this address: at most ${max} a minute. Connect again after retry_after seconds.`,
      retry_after: Math.max(1, Math.ceil((hit.resetAt - now) / 1000)),
    };
  }
}
