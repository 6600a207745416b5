import type { OpenAPIObject } from '@nestjs/swagger';

type Doc = OpenAPIObject & { 'x-tagGroups'?: { name: string; tags: string[] }[] };
type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;
type Parameter = { $ref?: string; name?: string; in?: string };
type Response = { description: string; headers?: Record<string, unknown>; content?: unknown };

/** Where the reference form of an operation lives: its tags get this suffix and their own group. */
export const REFERENCE_FORM = '(/api/v1)';

/** The tags in the order a reader meets them, each with what it is for, by group (Redoc's and Scalar's x-tagGroups). */
const GROUPS: { name: string; tags: [string, string][] }[] = [
  {
    name: 'Agent API',
    tags: [
      [
        'tasks',
        'Post a paid real-world task, follow it, review the results, cancel it. Creation holds the whole cost in escrow; a quote prices a task without creating it.',
      ],
      [
        'messages',
        'Write to the worker of an assignment and read their questions: one thread per assignment, with unread counts.',
      ],
      [
        'disputes',
        'A worker’s dispute of your rejection: read it, answer within 48 hours; an operator decides.',
      ],
      ['agent account', 'Register, log in, refresh the session, read your profile.'],
      [
        'agent api keys',
        'Your API key and secret: rotate, narrow the permissions, set spend caps, disable (JWT only).',
      ],
      [
        'spend approvals',
        "A person's approval of one task over the key's spend cap: the agent asks, the person decides in the console.",
      ],
      [
        'oauth',
        "Apps signed in to /mcp with OAuth (claude.ai, ChatGPT): the consent page's request and answer, the grants in force, revocation (JWT only).",
      ],
      [
        'payments',
        'Fund your balance through Alipay or WeChat Pay, query orders, refunds; worker withdrawals.',
      ],
      [
        'webhooks',
        'Signed event deliveries to your endpoints, the event list, redelivery. See the guide for payloads and signatures.',
      ],
      ['statistics', 'Your transactions, dashboard and usage (JWT only).'],
      [
        'sandbox',
        'Sandbox keys only (404 in live mode): instant test funding, simulated workers, test clocks. See the sandbox guide.',
      ],
    ],
  },
  {
    name: 'Workers (mobile app)',
    tags: [
      ['worker', 'Sign up by SMS code, log in, profile, earnings and balance.'],
      ['worker tasks', 'Find tasks, accept, start, submit results with photo proof, decline or abandon.'],
      ['worker messages', 'Ask the agent about an assignment and read their answers.'],
      ['worker disputes', 'Dispute a rejection within 72 hours and follow the decision.'],
      ['worker matching', 'Availability and position for push offers; rating agents.'],
      ['uploads', 'Proof files for submissions.'],
    ],
  },
  {
    name: 'Provider callbacks',
    tags: [
      [
        'provider callbacks',
        'Called by Alipay and WeChat Pay, authenticated by their signatures, never by a bearer credential.',
      ],
    ],
  },
  {
    name: 'Operators',
    tags: [['operator', 'Operator accounts, agent administration, ledger checks, payouts.']],
  },
  { name: 'System', tags: [['system', 'Health, probes and connection statistics. Public.']] },
];

const HEADERS = {
  'X-Request-ID': {
    description:
      'The id of this request (yours when you sent a sane one); every error body carries it as request_id.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the current window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'When the window resets, in epoch seconds.',
    schema: { type: 'integer' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer of an earlier request with the same idempotency key.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a repeat within 24 hours answers the stored status and body with `Idempotent-Replayed: true`; the same key with another request is 409 idempotency_conflict. 1 to 255 characters.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const WRITES = new Set(['post', 'put', 'patch', 'delete']);
const ref = (kind: 'headers' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * Shapes the generated document into a reference that reads well: servers and licence, `security: []` on public
 * routes (routes without @Auth are public: the guard denies everything else), the headers every response carries
 * (request id, rate limits on authenticated routes, Retry-After on 429 and 503, Idempotent-Replayed on agent
 * writes), Idempotency-Key on every agent write (the interceptor honours it on all of them), tags in the reader's
 * order with descriptions, and the /api/v1 twins grouped apart from the /v1 agent API.
 */
export function layoutReference(doc: Doc): void {
  doc.servers = [{ url: '/', description: 'This service (the origin serving this document).' }];
  doc.info.license = { name: 'MIT', url: 'https://opensource.org/licenses/MIT' };
  const components = (doc.components ??= {});
  components.headers = { ...(components.headers ?? {}), ...HEADERS };
  components.parameters = { ...(components.parameters ?? {}), IdempotencyKey: IDEMPOTENCY_KEY } as never;
  const twinTags = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item) as [string, Operation][]) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      op.security ??= [];
      const authenticated = op.security.length > 0;
      const agentWrite = WRITES.has(method) && op.security.some((s) => 'api_key' in s || 'agent_jwt' in s);
      if (agentWrite) addIdempotencyKey(op);
      for (const [status, response] of Object.entries(op.responses) as [string, Response][]) {
        response.headers = { ...(response.headers ?? {}), 'X-Request-ID': ref('headers', 'X-Request-ID') };
        if (authenticated) {
          for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
            response.headers[h] = ref('headers', h);
          }
        }
        if (status === '429' || status === '503')
          response.headers['Retry-After'] = ref('headers', 'Retry-After');
        if (agentWrite && /^[24]/.test(status)) {
          response.headers['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
        }
      }
      if (path.startsWith('/api/v1/')) {
        op.tags = (op.tags ?? []).map((t) => `${t} ${REFERENCE_FORM}`);
        op.tags.forEach((t) => twinTags.add(t));
      }
    }
  }
  const ordered = GROUPS.flatMap((g) => g.tags.map(([name, description]) => ({ name, description })));
  const twins = ordered
    .map((t) => ({
      name: `${t.name} ${REFERENCE_FORM}`,
      description: `${t.description} Served under /api/v1.`,
    }))
    .filter((t) => twinTags.has(t.name));
  doc.tags = [...ordered, ...twins];
  const names = (g: (typeof GROUPS)[number]) => ({ name: g.name, tags: g.tags.map(([name]) => name) });
  // The agent API first, then the worker app's; the /api/v1 twins, callbacks, operators and probes after them.
  doc['x-tagGroups'] = [
    names(GROUPS[0]),
    names(GROUPS[1]),
    { name: 'Reference form (/api/v1)', tags: twins.map((t) => t.name) },
    ...GROUPS.slice(2).map(names),
  ];
  const declared = new Set(doc.tags.map((t) => t.name));
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item) as Operation[]) {
      for (const t of op?.tags ?? []) {
        if (!declared.has(t)) throw new Error(`OpenAPI tag "${t}" is not declared in reference-layout.ts`);
      }
    }
  }
}

function addIdempotencyKey(op: Operation): void {
  const params = (op.parameters ?? []) as Parameter[];
  const kept = params.filter((p) => !(p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key'));
  op.parameters = [...kept, ref('parameters', 'IdempotencyKey')] as Operation['parameters'];
}
