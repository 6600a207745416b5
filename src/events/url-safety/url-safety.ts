import { Inject, Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { ApiError } from '../../common/errors/api-error';
import { classifyIp, IpClass, parseIp } from './ip-address';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. Replaced in tests so no test depends on real DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;
export const HOST_RESOLVER = Symbol('HOST_RESOLVER');

export const systemResolver: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A destination a webhook may not reach; the message is safe to show to the agent. */
export class UnsafeDestinationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeDestinationError';
  }
}

const LIVE_ALLOWED: ReadonlySet<IpClass> = new Set(['public']);
/**
 * Sandbox lets agents point webhooks at their own machine or LAN. Link-local (cloud metadata at 169.254.169.254),
 * multicast, unspecified and reserved addresses stay refused even there: a hosted sandbox is still on a network.
 */
const SANDBOX_ALLOWED: ReadonlySet<IpClass> = new Set([
  'public',
  'loopback',
  'private',
  'cgnat',
  'unique_local',
]);

const DESCRIPTION: Record<IpClass, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private network address',
  cgnat: 'a carrier-grade NAT address',
  unique_local: 'a unique-local IPv6 address',
  link_local: 'a link-local address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
};

/**
 * SSRF protection for outbound webhooks, applied twice: when an agent registers a URL (so mistakes show at once as
 * 400 validation_error on `url`) and again right before every connection, where the checked addresses are the only
 * ones the socket may connect to (a name that re-resolves to 127.0.0.1 after registration — DNS rebinding — is
 * caught there). Live mode: https only, public addresses only. Sandbox: http and local networks allowed.
 */
@Injectable()
export class UrlSafety {
  private readonly live: boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(HOST_RESOLVER) private readonly resolve: HostResolver,
  ) {
    this.live = config.paymentMode === 'live';
  }

  /** Registration check: throws 400 validation_error on `field`, returns the normalised URL. */
  async assertRegistrable(raw: string, field = 'url'): Promise<string> {
    try {
      const url = this.parse(raw);
      await this.destination(url);
      return url.toString();
    } catch (err) {
      if (err instanceof UnsafeDestinationError) throw ApiError.field(field, err.message);
      throw err;
    }
  }

  /** The syntactic rules alone (scheme, credentials, length); no DNS. */
  parse(raw: string): URL {
    if (raw.length > 2048) throw new UnsafeDestinationError('must be at most 2048 characters');
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UnsafeDestinationError('must be an absolute URL');
    }
    const protocols = this.live ? ['https:'] : ['https:', 'http:'];
    if (!protocols.includes(url.protocol)) {
      throw new UnsafeDestinationError(this.live ? 'must use https' : 'must use http or https');
    }
    if (url.username || url.password) throw new UnsafeDestinationError('must not contain credentials');
    if (!url.hostname) throw new UnsafeDestinationError('must have a host');
    return url;
  }

  /**
   * Connect-time check: resolves the host once and returns the addresses a connection may use. Every address must
   * be allowed: a name that resolves to one public and one private address is refused as a whole.
   */
  async destination(url: URL): Promise<ResolvedAddress[]> {
    const host = url.hostname;
    const literal = parseIp(host);
    if (literal) {
      this.check(classifyIp(literal), host);
      const address = literal.family === 6 ? host.replace(/^\[|\]$/g, '') : dotted(literal.bytes);
      return [{ address, family: literal.family }];
    }
    const name = host.toLowerCase().replace(/\.$/, '');
    if (this.live && (name === 'localhost' || name.endsWith('.localhost'))) {
      throw new UnsafeDestinationError(`host ${host} is a loopback name`);
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolve(name);
    } catch {
      throw new UnsafeDestinationError(`host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new UnsafeDestinationError(`host ${host} does not resolve`);
    for (const a of addresses) {
      const ip = parseIp(a.address);
      this.check(ip ? classifyIp(ip) : 'reserved', `${host} (${a.address})`);
    }
    return addresses;
  }

  private check(cls: IpClass, what: string): void {
    const allowed = this.live ? LIVE_ALLOWED : SANDBOX_ALLOWED;
    if (!allowed.has(cls)) {
      throw new UnsafeDestinationError(
        `${what} is ${DESCRIPTION[cls]}, which the service may not connect to`,
      );
    }
  }
}

function dotted(bytes: Uint8Array): string {
  return Array.from(bytes).join('.');
}
