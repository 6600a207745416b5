import { useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import type { Schemas } from '../../shared/api';
import { useI18n } from '../../shared/i18n';
import { useLive } from '../../shared/live';
import { useSignedIn } from '../App';
import { session } from '../session';
import { OfferBanner } from './OfferBanner';

type Offer = Schemas['AssignmentOfferedEvent'];

/** Live events other screens listen to (a verdict, a cancellation): they reload when one arrives. */
export const liveEvents = new EventTarget();

/**
 * The signed-in frame: the screen, the bottom tab bar (thumb reach on a phone) and the live connection. Offers
 * pushed over socket.io appear above the tab bar on any screen; every other event is re-dispatched on liveEvents.
 */
export function Frame() {
  const { t } = useI18n();
  const signedIn = useSignedIn();
  const [offers, setOffers] = useState<Offer[]>([]);
  useLive(session, signedIn, (name, payload) => {
    if (name === 'assignment.offered') setOffers((list) => [...list, payload as Offer]);
    if (name === 'assignment.expired' || name === 'assignment.cancelled' || name === 'assignment.declined') {
      const id = (payload as { data?: { assignment_id?: string } }).data?.assignment_id;
      setOffers((list) => list.filter((o) => o.data.assignment_id !== id));
    }
    liveEvents.dispatchEvent(new CustomEvent('event', { detail: { name, payload } }));
  });
  const tabs = [
    ['/tasks', 'nav.tasks'],
    ['/mine', 'nav.mine'],
    ['/earnings', 'nav.earnings'],
    ['/profile', 'nav.profile'],
  ] as const;
  return (
    <>
      <Outlet />
      {offers[0] && (
        <OfferBanner
          key={offers[0].data.assignment_id}
          offer={offers[0]}
          onDone={() => setOffers((list) => list.slice(1))}
        />
      )}
      <nav className="tabbar" aria-label={t('app.name')}>
        {tabs.map(([to, key]) => (
          <NavLink key={to} to={to}>
            {t(key)}
          </NavLink>
        ))}
      </nav>
    </>
  );
}
