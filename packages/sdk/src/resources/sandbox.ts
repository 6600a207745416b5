import { Resource } from '../resource';

class SandboxBalance extends Resource {
  /** Adds test money at once (a real sandbox recharge, paid and credited). */
  readonly fund = this.method({ verb: 'POST', path: '/v1/sandbox/balance', body: true });
}

class SandboxWorkers extends Resource {
  /** Adds a simulated worker that accepts and does your sandbox tasks by itself (`near_task` puts it beside one). */
  readonly create = this.method({ verb: 'POST', path: '/v1/sandbox/workers', body: true });
  readonly list = this.method({ verb: 'GET', path: '/v1/sandbox/workers' });
  /** A simulated worker, with its latest steps (activity). */
  readonly get = this.method({ verb: 'GET', path: '/v1/sandbox/workers/{worker_id}' });
  readonly update = this.method({ verb: 'PATCH', path: '/v1/sandbox/workers/{worker_id}', body: true });
  readonly remove = this.method({ verb: 'DELETE', path: '/v1/sandbox/workers/{worker_id}' });
}

class SandboxClocks extends Resource {
  /** A test clock (the body may be omitted: it then starts now, unnamed). */
  readonly create = this.method({ verb: 'POST', path: '/v1/sandbox/clocks', body: true });
  readonly list = this.method({ verb: 'GET', path: '/v1/sandbox/clocks' });
  readonly get = this.method({ verb: 'GET', path: '/v1/sandbox/clocks/{clock_id}' });
  /** Moves the clock forward (`by_seconds` or `to`), running everything due on its tasks in time order. */
  readonly advance = this.method({ verb: 'POST', path: '/v1/sandbox/clocks/{clock_id}/advance', body: true });
  /** Deletes the clock, ending its tasks with refunds. */
  readonly remove = this.method({ verb: 'DELETE', path: '/v1/sandbox/clocks/{clock_id}' });
}

/** Sandbox mode only (`lw_test_` keys): test money, simulated workers, test clocks. */
export class Sandbox extends Resource {
  readonly balance = new SandboxBalance(this.requester);
  readonly workers = new SandboxWorkers(this.requester);
  readonly clocks = new SandboxClocks(this.requester);
}
