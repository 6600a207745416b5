import { useEffect, useState } from 'react';
import { NavLink, Outlet, useMatch } from 'react-router';
import type { Schemas } from '../../shared/api';
import { useWords } from '../messages';
import { useLive } from '../../shared/live';
import { availability } from '../availability';
import { loadOffers, type Offer, offerFromEvent, withOffers } from '../offers';
import { useSignedIn } from '../../shared/session-hooks';
import { session } from '../session';
import { OfferBanner } from './OfferBanner';
import { unread, useUnread } from '../threads';
import { MONEY_EVENTS, unreadNotices, useUnreadNotices } from '../notices';

/** Live events other screens listen to (a verdict, a cancellation): they reload when one arrives. */
export const liveEvents = new EventTarget();

/** Events after which an offer no longer waits for an answer. */
const OFFER_ENDS = [
  'assignment.expired',
  'assignment.cancelled',
  'assignment.declined',
  'assignment.accepted',
];

/**
 * The signed-in frame: the screen, the bottom tab bar (thumb reach on a phone) and the live connection. It reads
 * the server's on-call state and the offers waiting for the worker when the app opens (and when it comes back on
 * screen: a phone in a pocket may have missed live events), then follows the socket: offers appear above the tab
 * bar on any screen, on-call changes made on another device are read again, and every event is re-dispatched on
 * liveEvents. When the server closed this window's socket for a newer one (too many open), it says so in words.
 */
export function Frame() {
  const { t } = useWords();
  const signedIn = useSignedIn(session);
  const [offers, setOffers] = useState<Offer[]>([]);
  useEffect(() => {
    const refresh = () => {
      loadOffers().then(
        // The server's list, and any live offer it crossed on the way that has not ended.
        (waiting) =>
          setOffers((list) =>
            withOffers(
              waiting,
              list.filter((o) => Date.parse(o.expiresAt) > Date.now()),
            ),
          ),
        () => undefined, // The live ones still arrive; the next time the app opens reads them again.
      );
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') {
        refresh();
        void unread.load().catch(() => undefined);
        void unreadNotices.load().catch(() => undefined);
      }
    };
    void availability.load();
    refresh();
    void unread.load().catch(() => undefined); // the badge is read again with the next message or visit
    void unreadNotices.load().catch(() => undefined); // and the pay news badge with the next money event
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);
  const live = useLive(session, signedIn, (name, payload) => {
    if (name === 'assignment.offered') {
      setOffers((list) => withOffers(list, [offerFromEvent(payload as Schemas['AssignmentOfferedEvent'])]));
    }
    if (OFFER_ENDS.includes(name)) {
      const id = (payload as { data?: { assignment_id?: string } }).data?.assignment_id;
      setOffers((list) => list.filter((o) => o.assignmentId !== id));
    }
    if (name === 'worker.on_call' || name === 'worker.off_call') void availability.load();
    if (name === 'message.created') void unread.load().catch(() => undefined);
    if (MONEY_EVENTS.includes(name)) void unreadNotices.load().catch(() => undefined);
    liveEvents.dispatchEvent(new CustomEvent('event', { detail: { name, payload } }));
  });
  // The offer whose own page is open is answered there (OfferPage), not twice.
  const page = useMatch('/offers/:assignmentId')?.params.assignmentId;
  const banner = offers.find((o) => o.assignmentId !== page);
  const messages = useUnread();
  const notices = useUnreadNotices();
  const tabs = [
    ['/tasks', 'nav.tasks'],
    ['/mine', 'nav.mine'],
    ['/notices', 'nav.notices'],
    ['/earnings', 'nav.earnings'],
    ['/profile', 'nav.profile'],
  ] as const;
  return (
    <>
      {live.state === 'replaced' && (
        <div className="notice live-stopped" role="status">
          <p>{t('live.replaced')}</p>
          <button type="button" className="secondary" onClick={() => window.location.reload()}>
            {t('live.reconnect')}
          </button>
        </div>
      )}
      <Outlet />
      {banner && (
        <OfferBanner
          key={banner.assignmentId}
          offer={banner}
          onDone={() => setOffers((list) => list.filter((o) => o !== banner))}
        />
      )}
      <nav className="tabbar" aria-label={t('app.name')}>
        {tabs.map(([to, key]) => (
          <NavLink key={to} to={to}>
            {t(key)}
            {to === '/mine' && messages.total > 0 && (
              <span className="badge">
                <span aria-hidden="true">{messages.total}</span>
                <span className="visually-hidden">{t('msg.unread', { count: messages.total })}</span>
              </span>
            )}
            {to === '/notices' && notices > 0 && (
              <span className="badge" data-testid="notices-badge">
                <span aria-hidden="true">{notices}</span>
                <span className="visually-hidden">{t('notice.unread', { count: notices })}</span>
              </span>
            )}
          </NavLink>
        ))}
      </nav>
    </>
  );
}
