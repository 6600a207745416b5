import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

/**
 * Whether this process is shutting down. From SIGTERM on, /readyz answers 503 so load balancers and Kubernetes stop
 * sending new requests, while the listener keeps serving whatever still arrives until the drain window ends
 * (SHUTDOWN_DRAIN_SECONDS; see main.ts).
 */
@Injectable()
export class Drain {
  private since: Date | null = null;
  private readonly stopping = new AbortController();

  get draining(): boolean {
    return this.since !== null;
  }

  /**
   * Aborted when the drain begins: long waits (the MCP wait_for_task) answer early, so their clients call again
   * through an instance that is not leaving instead of holding this one open to the end of the window.
   */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  begin(): void {
    this.since ??= new Date();
    this.stopping.abort();
  }
}

/**
 * While draining, every response carries `Connection: close`, so a client's keep-alive connection is not reused for a
 * next request that could reach this instance just as its listener closes (a reset the client cannot retry safely).
 */
export function closeConnectionsWhileDraining(drain: Drain) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (drain.draining) res.setHeader('Connection', 'close');
    next();
  };
}
