import type { PushLocale } from './dtos/push-subscription.dto';
import type { LadderOffer } from './offer-ladder.rows';

/**
 * What an offer's push carries, encrypted end to end to the device (the push service sees only ciphertext): enough
 * for the service worker to show the offer without a network round trip, and the page that opens it. The link is
 * a path: the service worker opens it on its own origin.
 */
export interface OfferPushPayload {
  type: 'offer';
  assignment_id: string;
  task_id: string;
  title: string;
  payment_cents: number;
  expires_at: string;
  url: string;
  locale: PushLocale;
}

export function offerPushPayload(offer: LadderOffer, locale: PushLocale): OfferPushPayload {
  return {
    type: 'offer',
    assignment_id: offer.id,
    task_id: offer.task_id,
    title: offer.title,
    payment_cents: offer.payout_cents,
    expires_at: offer.offer_expires_at.toISOString(),
    url: offerPath(offer.id),
    locale,
  };
}

/** The app's page of an offer (product-decisions §16), the same for Web Push and SMS. */
export function offerPath(assignmentId: string): string {
  return `/app/offers/${assignmentId}`;
}
