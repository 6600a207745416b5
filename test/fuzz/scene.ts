import { randomUUID } from 'node:crypto';
import { Tokens } from '../../src/auth/tokens';
import { createAdmin } from '../support/admins';
import { createAgent, createWorker, TestAgent, TestWorker } from '../support/actors';
import type { TestApp } from '../support/app';
import { accept, act, createTask, feedback, submit } from '../support/tasks';
import type { Callers } from './answers';

/** What createTask's default body costs (one worker at 5,000 cents). */
const TASK_COST = 5000;
/** The results of tasks the worker earns from: 60,000 cents, so the worker can ask for a reviewed withdrawal. */
const EARNING_BUDGET = 60_000;
const REVIEWED_WITHDRAWAL = 50_000;

/**
 * The world one route of the deterministic pass runs in: its own agents, worker and operator (so one route's
 * requests cannot change another's, and the ledger of its actors is its alone), and the real things its path
 * parameters and body fields name, built on first use: a started assignment for submit, a submitted one for
 * feedback, a completed task to rate, a withdrawal waiting for review, a bank-transfer order to confirm, a paid
 * order to refund, a test clock, a simulated worker. Ids are real, so the body validation passes on to the
 * service, which runs to its own checks.
 */
export class Scene implements Callers {
  private readonly built = new Map<string, Promise<unknown>>();

  private constructor(
    private readonly t: TestApp,
    readonly agent: TestAgent,
    readonly other: TestAgent,
    readonly worker: TestWorker,
    readonly adminBearer: string,
    private readonly refresh: Record<'agent' | 'worker' | 'admin', string>,
  ) {}

  static async create(t: TestApp): Promise<Scene> {
    const tokens = t.app.get(Tokens);
    const agent = await createAgent(t, { balanceCents: 10_000_000 });
    const other = await createAgent(t, { balanceCents: 1_000 });
    const worker = await createWorker(t, { skills: ['photography'] });
    const admin = await createAdmin(t);
    const refresh = {
      agent: (await tokens.issuePair('agent', agent.id)).refresh_token,
      worker: (await tokens.issuePair('worker', worker.id)).refresh_token,
      admin: (await tokens.issuePair('admin', admin.id)).refresh_token,
    };
    return new Scene(t, agent, other, worker, admin.bearer, refresh);
  }

  /** Whose ledger accounts a refused request must leave as they were. */
  get actorIds(): string[] {
    return [this.agent.id, this.other.id, this.worker.id];
  }

  /** What a route's valid body needs beyond ids: a withdrawal needs earnings. */
  async prepare(route: string): Promise<void> {
    if (route.endsWith('/withdraw')) await this.completed();
  }

  /** A path parameter's real value for this route. */
  async param(route: string, name: string): Promise<string> {
    switch (name) {
      case 'task_id':
        if (route.endsWith('/feedback')) return (await this.submitted()).task;
        if (route.endsWith('/rate')) return (await this.completed()).task;
        return this.once('open task', () => createTask(this.t, this.agent));
      case 'assignment_id':
        return this.started();
      case 'key_id':
        return this.agent.keyId;
      case 'id':
        return route.includes('/withdrawals/') ? this.withdrawal() : this.agent.id;
      case 'order_id':
        return this.bankOrder();
      case 'clock_id':
        return this.clock();
      case 'worker_id':
        return this.sandboxWorker();
      default:
        return randomUUID();
    }
  }

  /** A body field's real value for this route, where one is needed for the service to go past a lookup. */
  async field(route: string, name: string): Promise<unknown> {
    switch (name) {
      case 'task_id':
        return this.param('/v1/tasks/{task_id}', 'task_id');
      case 'amount':
        // A payment for the open task must be its cost; a refund takes at most what was paid.
        return route.endsWith('/create') ? TASK_COST : undefined;
      case 'order_id':
        return this.paidOrder();
      case 'url':
      case 'callback_url':
      case 'return_url':
        // Sandbox mode allows a local receiver, and a literal address needs no DNS.
        return 'http://127.0.0.1:9/fuzz';
      case 'assignment_id':
        return route.endsWith('/feedback') ? (await this.submitted()).assignment : undefined;
      case 'test_clock':
        return this.clock();
      case 'refresh_token':
        return this.refresh[
          route.includes('/admin/') ? 'admin' : route.includes('/worker/') ? 'worker' : 'agent'
        ];
      case 'email':
        // A new address (registration runs to the end); login with it runs to the password check.
        return `fuzz-${randomUUID()}@example.com`;
      default:
        return undefined;
    }
  }

  /** Builds a thing once per scene, however many requests ask for it at the same time. */
  private once<T>(what: string, build: () => Promise<T>): Promise<T> {
    let p = this.built.get(what) as Promise<T> | undefined;
    if (!p) {
      p = build();
      this.built.set(what, p);
    }
    return p;
  }

  /** An accepted and started assignment: its submit runs. */
  private started(): Promise<string> {
    return this.once('started', async () => {
      const task = await createTask(this.t, this.agent);
      const a = await accept(this.t, this.worker, task);
      await act(this.t, this.worker, a, 'start').expect(200);
      return a;
    });
  }

  private async submittedAssignment(budget: number): Promise<{ task: string; assignment: string }> {
    const task = await createTask(this.t, this.agent, { budget_cents: budget });
    const assignment = await accept(this.t, this.worker, task);
    await act(this.t, this.worker, assignment, 'start').expect(200);
    await submit(this.t, this.worker, assignment).expect(200);
    return { task, assignment };
  }

  /** A result waiting for the agent's verdict: feedback runs. */
  private submitted(): Promise<{ task: string; assignment: string }> {
    return this.once('submitted', () => this.submittedAssignment(5000));
  }

  /** An approved result: the worker may rate the agent, and has earned enough for a reviewed withdrawal. */
  private completed(): Promise<{ task: string }> {
    return this.once('completed', async () => {
      const done = await this.submittedAssignment(EARNING_BUDGET);
      await feedback(this.t, this.agent, done.task, { accept_result: true }).expect(200);
      return done;
    });
  }

  private withdrawal(): Promise<string> {
    return this.once('withdrawal', async () => {
      await this.completed();
      const res = await this.t.http
        .post('/v1/payment/withdraw')
        .set('Authorization', this.worker.bearer)
        .send({ amount_cents: REVIEWED_WITHDRAWAL, alipay_account: 'worker@example.com', real_name: '张三' })
        .expect(200);
      return res.body.withdrawal_id as string;
    });
  }

  private bankOrder(): Promise<string> {
    return this.once('bank order', async () => {
      await this.t.db.query(`UPDATE agents SET tier = 'enterprise' WHERE id = $1`, [this.agent.id]);
      const task = await createTask(this.t, this.agent, { budget_cents: 100_000 });
      const res = await this.t.http
        .post('/api/v1/payment/create')
        .set('Authorization', this.agent.key)
        .set('X-API-Secret', this.agent.apiSecret)
        .send({
          task_id: task,
          amount: 100_000,
          currency: 'CNY',
          payment_method: 'bank_transfer',
          return_url: 'https://example.com/fuzz',
        })
        .expect(201);
      return res.body.order_id as string;
    });
  }

  /** A completed top-up through the provider sandbox: refunds of it run to the provider. */
  private paidOrder(): Promise<string> {
    return this.posted('/v1/sandbox/balance', { amount_cents: 100_000 }, 200, 'order_id');
  }

  private clock(): Promise<string> {
    return this.posted('/v1/sandbox/clocks', {}, 201, 'clock_id');
  }

  private sandboxWorker(): Promise<string> {
    const location = { latitude: 31.2304, longitude: 121.4737 };
    return this.posted('/v1/sandbox/workers', { location }, 201, 'worker_id');
  }

  /** Something the agent creates through the API, once per scene: the id its answer names. */
  private posted(path: string, body: object, status: number, id: string): Promise<string> {
    return this.once(path, async () => {
      const res = await this.t.http.post(path).set('Authorization', this.agent.key).send(body).expect(status);
      return (res.body as Record<string, string>)[id];
    });
  }
}
