import { unwrap } from '../shared/api';
import type { Locale } from '../shared/i18n';
import { api } from './session';

/**
 * Offers by Web Push (product-decisions §16): the browser's subscription, registered with the API so an offer reaches
 * the phone while the app is closed (the service worker shows it, public/sw.js). Permission is asked only when the
 * worker chooses to, from an explanation shown when going on call (NotifyPrompt). Where the browser cannot
 * subscribe (no Push API, a private window, Chrome in mainland China without FCM), offers still come by SMS after
 * 30 s unanswered.
 */
export type PushState =
  /** The browser has no Push API or no service worker. */
  | 'unsupported'
  /** Not asked yet. */
  | 'ask'
  | 'denied'
  /** Subscribed, and the API has the subscription. */
  | 'on'
  /** Permission granted, but the browser could not subscribe (no push service reachable). */
  | 'failed';

const DISMISSED = 'legwork.app.push-prompt-dismissed';

export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** Where things stand, without asking anything. */
export function pushState(): PushState {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return Notification.permission === 'granted' ? 'on' : 'ask';
}

/** The worker said "not now" to the explanation: it is not shown again on this phone (the profile still offers it). */
export function promptDismissed(): boolean {
  return localStorage.getItem(DISMISSED) === '1';
}

export function dismissPrompt(): void {
  localStorage.setItem(DISMISSED, '1');
}

/** The locale this page load registered the subscription with: registering again is needed only when it changes. */
let registeredWith: Locale | null = null;

/**
 * Asks for the permission (this must run from the worker's tap), subscribes with the API's VAPID key and registers
 * the subscription. Also what keeps the API's copy current when permission was granted before (a new locale, a
 * renewed subscription): then nothing is asked.
 */
export async function enableOfferPush(locale: Locale): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission =
    Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'ask';
  const settings = await unwrap(api.GET('/v1/worker/notification-settings'));
  const registration = await navigator.serviceWorker.ready;
  let subscription: PushSubscription;
  try {
    subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlToBytes(settings.push.vapid_public_key),
      }));
  } catch {
    return 'failed';
  }
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await unwrap(
    api.POST('/v1/worker/push-subscriptions', {
      body: {
        endpoint: json.endpoint,
        expirationTime: subscription.expirationTime,
        keys: json.keys,
        locale,
      },
    }),
  );
  registeredWith = locale;
  return 'on';
}

/**
 * With permission granted before: registers this phone's subscription again, once a page load (and when the app's
 * language changes), so the API's copy stays current (a renewed subscription, another worker on this phone before).
 */
export async function refreshOfferPush(locale: Locale): Promise<PushState> {
  if (pushState() !== 'on' || registeredWith === locale) return pushState();
  return enableOfferPush(locale);
}

/**
 * On sign-out: the API forgets this phone's subscription, so the next person signed in on it does not get the
 * previous worker's offers (best effort, like the logout itself).
 */
export async function forgetOfferPush(): Promise<void> {
  registeredWith = null;
  if (!pushSupported() || Notification.permission !== 'granted') return;
  try {
    const registration = await navigator.serviceWorker.getRegistration('/app/');
    const subscription = await registration?.pushManager.getSubscription();
    if (!subscription) return;
    await api.DELETE('/v1/worker/push-subscriptions', {
      params: { query: { endpoint: subscription.endpoint } },
    });
  } catch {
    // Offline or signed out already: the push service's next answer for a stale subscription removes it anyway.
  }
}

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
