export type AgentTier = 'standard' | 'verified' | 'enterprise';

/**
 * Rate limits by agent tier (product-decisions §9): standard is the free tier, verified and enterprise are paid tiers.
 * The agents table stores the limits so that an operator change applies on the next request; the migration's
 * column defaults equal the standard tier.
 */
export const TIER_RATE_LIMITS: Record<AgentTier, { perMinute: number; perDay: number }> = {
  standard: { perMinute: 100, perDay: 10_000 },
  verified: { perMinute: 1_000, perDay: 100_000 },
  enterprise: { perMinute: 1_000, perDay: 100_000 },
};

export const AGENT_TIERS = Object.keys(TIER_RATE_LIMITS) as AgentTier[];
