/**
 * Typed answers with @legwork/sdk (product-decisions §17): the agent declares what it wants back as an answer schema
 * written `as const`, the worker is asked for exactly those fields, the API checks every answer, and the SDK types
 * them: `result.data.open` is a `boolean`, `result.data.payment` a list of the declared choices.
 *
 *   LEGWORK_API_KEY=lw_test_... LEGWORK_BASE_URL=http://localhost:8000 node dist/examples/typed-answers.js
 *
 * test/examples/typed-answers.e2e-spec.ts type-checks this file as an SDK user's project would, and fails when
 * `result.data.open` stops being a boolean.
 */
import { Legwork } from '@legwork/sdk';

const legwork = new Legwork(); // LEGWORK_API_KEY and LEGWORK_BASE_URL from the environment

const print = (step: string, fields: object) => console.log(JSON.stringify({ step, ...fields }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What we want to know about the bakery: written `as const`, so the SDK can type the answers from it. */
const bakery = {
  type: 'object',
  properties: {
    open: { type: 'boolean', title: 'Is the bakery open now?' },
    opens_at: { type: 'string', format: 'time', title: 'Opening time on the sign' },
    queue: { type: 'integer', minimum: 0, maximum: 200, title: 'People queueing' },
    payment: {
      type: 'array',
      title: 'Payment accepted',
      items: { type: 'string', enum: ['cash', 'alipay', 'wechat', 'card'] },
    },
    storefront: { type: 'string', format: 'photo', title: 'Photo of the storefront' },
  },
  required: ['open', 'payment', 'storefront'],
} as const;

/** True only when A and B are the same type (`any` and `unknown` included), checked by the compiler. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

async function main(): Promise<void> {
  await legwork.sandbox.balance.fund({ amount_cents: 3000 });
  const created = await legwork.tasks.create({
    title: 'Is the bakery on Nanjing East Road open?',
    description: 'Check the door and the sign; photograph the storefront.',
    location: { latitude: 31.2352, longitude: 121.4747, address: 'Nanjing East Rd 300' },
    budget_cents: 3000,
    deadline_at: new Date(Date.now() + 2 * 3600_000).toISOString(),
    task_type: 'photo',
    answer_schema: bakery,
  });
  print('created', { task_id: created.task_id });

  // A simulated worker answers every field with a plausible value (a generated photo for the photo field).
  await legwork.sandbox.workers.create({
    name: 'Reliable Li',
    persona: 'reliable',
    near_task: { task_id: created.task_id, distance_m: 40 },
  });
  for (let i = 0; i < 60; i++) {
    const { status } = await legwork.tasks.get(created.task_id);
    if (status === 'submitted') break;
    await sleep(1000);
  }

  const { result } = await legwork.tasks.typedResult(created.task_id, bakery);
  if (!result) throw new Error('no result');
  const open = result.data.open;
  const openIsBoolean: Same<typeof open, boolean> = true;
  const payment: ('cash' | 'alipay' | 'wechat' | 'card')[] = result.data.payment;
  const queue: number | undefined = result.data.queue;
  const storefront = result.photos.find((p) => p.field === 'storefront');
  print('answers', { open, payment, queue, openIsBoolean, photo_distance_m: storefront?.distance_meters });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
