import { estimateCompletion } from './task-policy';

describe('task policy', () => {
  const created = new Date('2030-01-01T00:00:00Z');

  it('estimated completion is created_at + the typical time for the type', () => {
    const far = new Date('2030-02-01T00:00:00Z');
    expect(estimateCompletion(created, far, 'photo').toISOString()).toBe('2030-01-01T02:00:00.000Z');
    expect(estimateCompletion(created, far, 'delivery').toISOString()).toBe('2030-01-01T03:00:00.000Z');
    expect(estimateCompletion(created, far, 'data_collection').toISOString()).toBe(
      '2030-01-01T04:00:00.000Z',
    );
  });

  it('is never later than the deadline', () => {
    const deadline = new Date('2030-01-01T00:45:00Z');
    expect(estimateCompletion(created, deadline, 'other')).toEqual(deadline);
  });
});
