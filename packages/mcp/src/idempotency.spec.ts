import { idempotencyKeyFor } from './idempotency';

describe('idempotencyKeyFor', () => {
  it('derives one key from the tool and its arguments, whatever their order, and keeps a given key', () => {
    const a = idempotencyKeyFor('create_task', { title: 'x', location: { latitude: 1, longitude: 2 } });
    const b = idempotencyKeyFor('create_task', { location: { longitude: 2, latitude: 1 }, title: 'x' });
    expect(a).toBe(b);
    expect(a).toMatch(/^mcp-create_task-[0-9a-f]{40}$/);
    expect(
      idempotencyKeyFor('create_task', { title: 'y', location: { latitude: 1, longitude: 2 } }),
    ).not.toBe(a);
    expect(
      idempotencyKeyFor('create_top_up', { title: 'x', location: { latitude: 1, longitude: 2 } }),
    ).not.toBe(a);
    expect(idempotencyKeyFor('create_task', { title: 'x' }, 'mine')).toBe('mine');
  });
});
