import { describe, expect, it } from 'vitest';
import { type Offer, offerFromEvent, withOffers } from './offers';

const offer = (assignmentId: string, expiresAt = '2030-01-01T12:02:00.000Z'): Offer => ({
  assignmentId,
  expiresAt,
  task: {
    taskId: `task-${assignmentId}`,
    title: 'Photograph the storefront',
    paymentCents: 4500,
    distanceMeters: 120,
    deadlineAt: '2030-01-02T12:00:00.000Z',
    address: null,
  },
});

describe('offers', () => {
  it('the read on load and the live events hold each offer once, in arrival order', () => {
    const loaded = [offer('a'), offer('b')];
    expect(withOffers(loaded, [offer('b'), offer('c')]).map((o) => o.assignmentId)).toEqual(['a', 'b', 'c']);
    expect(withOffers([], loaded)).toEqual(loaded);
  });

  it('a live offer counts down to the expiry the server set', () => {
    const live = offerFromEvent({
      event: 'assignment.offered',
      event_id: 'e1',
      task_id: 't1',
      timestamp: '2030-01-01T12:00:00.000Z',
      data: {
        assignment_id: 'a1',
        task_id: 't1',
        status: 'pending',
        offer_expires_at: '2030-01-01T12:02:00.000Z',
        task: {
          task_id: 't1',
          title: 'Check the opening hours',
          description: 'Photo of the sign',
          task_type: 'photo',
          payment_cents: 4500,
          deadline_at: '2030-01-02T12:00:00.000Z',
          required_skills: [],
          location: {
            latitude: 31.23,
            longitude: 121.47,
            address: 'Fuzhou Road 88',
            max_distance_meters: 1000,
          },
          distance_meters: 30,
          answer_schema: null,
        },
      },
    });
    expect(live).toEqual({
      assignmentId: 'a1',
      expiresAt: '2030-01-01T12:02:00.000Z',
      task: {
        taskId: 't1',
        title: 'Check the opening hours',
        paymentCents: 4500,
        distanceMeters: 30,
        deadlineAt: '2030-01-02T12:00:00.000Z',
        address: 'Fuzhou Road 88',
      },
    });
  });
});
