import { mountCashier } from './cashier';
import { FaultRegistry } from './faults';
import { listen, Router, sendJson } from './http';
import { OrderLifecycle } from './lifecycle';
import { Notifier } from './notifier';
import { type SandboxOrder, type SandboxProvider, SandboxStore } from './store';
import { mountTestApi, type TransferControls } from './test-api';
import { Timers } from './timers';

/**
 * The scaffolding both simulated providers share: their own port, books, clocks, fault registry, notifier, cashier
 * page and test API. A ProviderDefinition adds the protocol (routes, notifications, transfer rules).
 */
export interface ProviderServerOptions {
  readonly host: string;
  readonly port: number;
  readonly autoCompleteMs: number | null;
  readonly timeScale: number;
  readonly deliveryTimeoutMs: number;
  onError(err: unknown): void;
}

export interface ProviderBase {
  readonly store: SandboxStore;
  readonly lifecycle: OrderLifecycle;
  readonly notifier: Notifier;
  readonly faults: FaultRegistry;
  readonly timers: Timers;
  readonly options: ProviderServerOptions;
  baseUrl(): string;
}

export interface ProviderDefinition<Ctx> {
  readonly name: SandboxProvider;
  readonly title: string;
  readonly scheduleMs: readonly number[];
  readonly unsupportedFaults: readonly string[];
  isAck(status: number, body: string): boolean;
  createContext(base: ProviderBase): Ctx;
  /** Called when an order was paid, declined or expired by the buyer or by time. */
  settled(ctx: Ctx, order: SandboxOrder): void;
  transfers(ctx: Ctx): TransferControls;
  returnLink(ctx: Ctx, order: SandboxOrder): string | null;
  mount(router: Router, ctx: Ctx): void;
}

export interface RunningProvider {
  readonly baseUrl: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function startProviderServer<Ctx>(
  def: ProviderDefinition<Ctx>,
  options: ProviderServerOptions,
): Promise<RunningProvider> {
  let baseUrl = '';
  const timers = new Timers(options.onError);
  const faults = new FaultRegistry(def.unsupportedFaults);
  const store = new SandboxStore(def.name);
  const notifier = new Notifier(
    {
      scheduleMs: def.scheduleMs,
      timeScale: options.timeScale,
      deliveryTimeoutMs: options.deliveryTimeoutMs,
      isAck: (status, body) => def.isAck(status, body),
    },
    faults,
    timers,
  );
  const lifecycle = new OrderLifecycle(timers, options.autoCompleteMs, {
    settled: (order) => def.settled(ctx, order),
  });
  const ctx: Ctx = def.createContext({
    store,
    lifecycle,
    notifier,
    faults,
    timers,
    options,
    baseUrl: () => baseUrl,
  });

  const router = new Router();
  def.mount(router, ctx);
  mountCashier(router, {
    title: def.title,
    store,
    lifecycle,
    autoCompleteMs: options.autoCompleteMs,
    returnLink: (order) => def.returnLink(ctx, order),
  });
  mountTestApi(router, {
    provider: def.name,
    store,
    lifecycle,
    faults,
    notifier,
    transfers: def.transfers(ctx),
    baseUrl: () => baseUrl,
  });

  const server = await listen(options.host, options.port, async (req, res) => {
    if (!(await router.handle(req, res)))
      sendJson(res, 404, { code: 'NOT_FOUND', message: `no route ${req.url.pathname}` });
  });
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
  return {
    baseUrl,
    port: server.port,
    stop: async () => {
      timers.stop();
      notifier.stop();
      await server.close();
    },
  };
}
