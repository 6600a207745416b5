import { unwrap, type Schemas } from '../shared/api';
import { api } from './session';

/**
 * An offer waiting for the worker's answer, as the banner shows it, whether it came live (assignment.offered on the
 * socket) or was read on load (GET /v1/worker/offers): the expiry is always the server's, so the countdown is the
 * time truly left.
 */
export interface Offer {
  assignmentId: string;
  expiresAt: string;
  task: {
    taskId: string;
    title: string;
    paymentCents: number;
    distanceMeters: number | null;
    deadlineAt: string;
    address: string | null;
  };
}

export function offerFromEvent(e: Schemas['AssignmentOfferedEvent']): Offer {
  const { data } = e;
  return {
    assignmentId: data.assignment_id,
    expiresAt: data.offer_expires_at,
    task: {
      taskId: data.task.task_id,
      title: data.task.title,
      paymentCents: data.task.payment_cents,
      distanceMeters: data.task.distance_meters,
      deadlineAt: data.task.deadline_at,
      address: data.task.location.address,
    },
  };
}

function offerFromListing(o: Schemas['WorkerOffer']): Offer {
  return {
    assignmentId: o.assignment_id,
    expiresAt: o.expires_at,
    task: {
      taskId: o.task.task_id,
      title: o.task.title,
      paymentCents: o.task.payment_cents,
      distanceMeters: o.task.distance_meters,
      deadlineAt: o.task.deadline_at,
      address: o.task.location?.address ?? null,
    },
  };
}

/** The offers still open, the soonest to expire first. */
export async function loadOffers(): Promise<Offer[]> {
  const answer = await unwrap(api.GET('/v1/worker/offers'));
  return answer.offers.map(offerFromListing);
}

/** `list` with `more` added, each offer once (one read on load and the live event may bring the same offer). */
export function withOffers(list: Offer[], more: Offer[]): Offer[] {
  const known = new Set(list.map((o) => o.assignmentId));
  return [...list, ...more.filter((o) => !known.has(o.assignmentId))];
}

/** Why an offer went to the worker, as the server recorded it (GET /v1/worker/offers; product-decisions §19). */
export type OfferWhy = Schemas['OfferWhy'];

/**
 * What the worker weighs before answering a waiting offer, from the list of open offers (GET /v1/worker/offers):
 * why it was made, and the agent's record (rejections and disputes lost). Null once it no longer waits.
 */
export async function loadOfferContext(
  assignmentId: string,
): Promise<{ why: OfferWhy; record: Schemas['AgentRecordView'] } | null> {
  const answer = await unwrap(api.GET('/v1/worker/offers'));
  const offer = answer.offers.find((o) => o.assignment_id === assignmentId);
  return offer ? { why: offer.why, record: offer.task.agent_record } : null;
}

/** An offer read on its own page (GET /v1/worker/assignments/{id}), while it still waits for an answer. */
export function offerFromAssignment(a: Schemas['WorkerAssignmentDetail']): Offer | null {
  if (a.status !== 'pending' || !a.offer_expires_at) return null;
  return {
    assignmentId: a.assignment_id,
    expiresAt: a.offer_expires_at,
    task: {
      taskId: a.task_id,
      title: a.title,
      paymentCents: a.payment_cents,
      distanceMeters: null,
      deadlineAt: a.deadline_at,
      address: a.location.address ?? null,
    },
  };
}
