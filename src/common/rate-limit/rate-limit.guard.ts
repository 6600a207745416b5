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

/**
 * Gives an agent route a budget of its own on top of the agent's (the quote: product-decisions §16), reported in the
 * route's X-RateLimit-* headers since it is the tighter one.
 */
export const RateLimitAgentRoute = (route: AgentRouteBudget): MethodDecorator =>
  SetMetadata(RATE_LIMIT_BUCKET, route);
export type AgentRouteBudget = 'quote';

/**
 * Gives a write route of agents and workers a budget of its own per caller, on top of their general one (messages:
 * product-decisions §19), reported in the route's X-RateLimit-* headers since it is the tighter one.
 */
export const RateLimitWriteRoute = (route: WriteRouteBudget): MethodDecorator =>
  SetMetadata(RATE_LIMIT_BUCKET, route);
export type WriteRouteBudget = 'message' | 'report';

interface Limit {
  key: string;
  max: number;
  windowSeconds: number;
  /** Names the budget in the 429's message when it is not the agent's general one. */
  label?: string;
}

/**
 * Runs after the AuthGuard. Agents: per-minute and per-day budgets by tier, shared by the API key and the agent's
 * JWT sessions, reported in X-RateLimit-* headers on every response; a route with a budget of its own (the quote)
 * counts against both and reports its own. Workers: a flat per-minute budget. Public auth routes: per-IP. Over a
 * budget the request is 429 rate_limit_exceeded with Retry-After.
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
      const limit = limits[exceeded];
      throw new ApiError(
        'rate_limit_exceeded',
        `${limit.label ?? 'Rate'} limit of ${limit.max} requests per ${limit.windowSeconds === 60 ? 'minute' : 'day'} exceeded.`,
        { retry_after: retryAfter },
        { 'Retry-After': String(retryAfter) },
      );
    }
    return true;
  }

  private limitsFor(req: Request, context: ExecutionContext): Limit[] {
    const actor = req.actor;
    const bucket = this.reflector.getAllAndOverride<string | undefined>(RATE_LIMIT_BUCKET, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (actor?.kind === 'agent') {
      return [
        ...(bucket === 'quote' ? this.quoteLimits(actor.id) : []),
        ...(bucket === 'message' ? this.messageLimits('agent', actor.id) : []),
        { key: `agent:${actor.id}:m`, max: actor.limits.perMinute, windowSeconds: 60 },
        { key: `agent:${actor.id}:d`, max: actor.limits.perDay, windowSeconds: 86_400 },
      ];
    }
    if (actor?.kind === 'worker') {
      return [
        ...(bucket === 'message' ? this.messageLimits('worker', actor.id) : []),
        ...(bucket === 'report' ? this.reportLimits(actor.id) : []),
        { key: `worker:${actor.id}:m`, max: this.config.rateLimits.workerPerMinute, windowSeconds: 60 },
      ];
    }
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

  /** Messages count against the sender's general budget too; their own comes first, so the headers report it. */
  private messageLimits(kind: 'agent' | 'worker', id: string): Limit[] {
    const max = this.config.rateLimits.messagesPerMinute;
    return [{ key: `${kind}:${id}:message:m`, max, windowSeconds: 60, label: 'Message rate' }];
  }

  /**
   * Reports of tasks (product-decisions §19, "Also") wake an operator each: a worker files a few at most, so a tight
   * budget of its own stops a flood without touching honest use.
   */
  private reportLimits(workerId: string): Limit[] {
    return [
      {
        key: `worker:${workerId}:report:m`,
        max: this.config.rateLimits.reportsPerMinute,
        windowSeconds: 60,
        label: 'Report rate',
      },
    ];
  }

  /** Quotes count against the agent's budget too; their own comes first, so the headers report it. */
  private quoteLimits(agentId: string): Limit[] {
    const { quotePerMinute, quotePerDay } = this.config.rateLimits;
    return [
      { key: `agent:${agentId}:quote:m`, max: quotePerMinute, windowSeconds: 60, label: 'Quote rate' },
      { key: `agent:${agentId}:quote:d`, max: quotePerDay, windowSeconds: 86_400, label: 'Quote rate' },
    ];
  }
}
