import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Clock } from '../clock';
import { ApiError } from '../errors/api-error';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.store';

export const RATE_LIMIT_BUCKET = 'legwork:rate-limit-bucket';

/** Marks a public route as limited per client IP (register, login, SMS, refresh). */
export const RateLimitByIp = (): MethodDecorator & ClassDecorator => SetMetadata(RATE_LIMIT_BUCKET, 'ip');

interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
}

/**
 * Runs after the AuthGuard. Agents: per-minute and per-day budgets by tier, shared by the API key and the agent's
 * JWT sessions, reported in X-RateLimit-* headers on every response. Workers: a flat per-minute budget. Public auth
 * routes: per-IP. Over a budget the request is 429 rate_limit_exceeded with Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const limits = this.limitsFor(req, context);
    if (limits.length === 0) return true;

    const now = this.clock.now().getTime();
    const hits = await Promise.all(limits.map((l) => this.store.hit(l.key, l.windowSeconds, now)));
    // The first limit is the one reported in headers (per minute); any exceeded limit refuses the request.
    const [first] = limits;
    res.setHeader('X-RateLimit-Limit', String(first.max));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, first.max - hits[0].count)));
    res.setHeader('X-RateLimit-Reset', String(Math.ceil(hits[0].resetAt / 1000)));
    const exceeded = limits.findIndex((l, i) => hits[i].count > l.max);
    if (exceeded >= 0) {
      const retryAfter = Math.max(1, Math.ceil((hits[exceeded].resetAt - now) / 1000));
      throw new ApiError(
        'rate_limit_exceeded',
        `Rate limit of ${limits[exceeded].max} requests per ${limits[exceeded].windowSeconds === 60 ? 'minute' : 'day'} exceeded.`,
        { retry_after: retryAfter },
        { 'Retry-After': String(retryAfter) },
      );
    }
    return true;
  }

  private limitsFor(req: Request, context: ExecutionContext): Limit[] {
    const actor = req.actor;
    if (actor?.kind === 'agent') {
      return [
        { key: `agent:${actor.id}:m`, max: actor.limits.perMinute, windowSeconds: 60 },
        { key: `agent:${actor.id}:d`, max: actor.limits.perDay, windowSeconds: 86_400 },
      ];
    }
    if (actor?.kind === 'worker') {
      return [
        { key: `worker:${actor.id}:m`, max: this.config.rateLimits.workerPerMinute, windowSeconds: 60 },
      ];
    }
    const bucket = this.reflector.getAllAndOverride<string | undefined>(RATE_LIMIT_BUCKET, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (bucket === 'ip') {
      return [
        {
          key: `ip:${req.ip ?? 'unknown'}:m`,
          max: this.config.rateLimits.authPerMinutePerIp,
          windowSeconds: 60,
        },
      ];
    }
    return [];
  }
}
