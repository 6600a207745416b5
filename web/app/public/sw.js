// The worker app's service worker (scope /app/). It makes the app installable and lets it open without a network:
// the hashed bundles under /app/assets/ are kept once fetched (their names change with their content), and the
// page itself is fetched from the network first, falling back to the last copy. The API (/v1), the WebSocket (/ws)
// and uploads are never cached: tasks, offers and money are always live. It also shows offers pushed while the app is
// closed (below).
const CACHE = 'legwork-app-v1';
const SHELL = ['/app/', '/app/manifest.webmanifest', '/app/icon.svg', '/app/icon-192.png'];

// The bundles the page names (its script, stylesheet and preloaded chunks: the sign-in screen's among them), kept at
// install with the page, so the app opens offline after one visit, before any of them was fetched through this worker.
const PAGE_BUNDLES = /\/app\/assets\/[\w.-]+\.(?:js|css)/g;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then(async (cache) => {
        await cache.addAll(SHELL);
        const page = await (await cache.match('/app/')).text();
        await cache.addAll([...new Set(page.match(PAGE_BUNDLES))]);
      })
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith('/app/'))
    return;
  if (url.pathname.startsWith('/app/assets/')) {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(
      fetch(request)
        .then((response) => {
          const copy = response.clone();
          if (response.ok) void caches.open(CACHE).then((cache) => cache.put('/app/', copy));
          return response;
        })
        .catch(() => caches.match('/app/').then((hit) => hit || Response.error())),
    );
  }
});

// Offers pushed by the API while the app is closed (product-decisions §16). The payload is the offer itself,
// decrypted by the browser: the notification needs no network. An open app on screen already shows the offer
// (socket.io), so then nothing is shown twice. A tap opens the offer's page, signing in first if needed.
const OFFER_WORDS = {
  'zh-CN': {
    title: (pay) => `新任务邀请 · ${pay}`,
    body: (title) => `${title}\n点击查看并尽快答复`,
    pay: (cents) => `¥${(cents / 100).toFixed(2)}`,
  },
  en: {
    title: (pay) => `New task offer · ${pay}`,
    body: (title) => `${title}\nTap to see it and answer soon`,
    pay: (cents) => `¥${(cents / 100).toFixed(2)}`,
  },
};

self.addEventListener('push', (event) => {
  const message = readPush(event);
  event.waitUntil(message && message.type === 'money' ? showMoney(message) : showOffer(message));
});

function readPush(event) {
  try {
    const message = event.data ? event.data.json() : null;
    const known = message && (message.type === 'offer' || message.type === 'money');
    return known && typeof message.url === 'string' ? message : null;
  } catch {
    return null;
  }
}

// News of the worker's money (product-decisions §19): the API composed the words in the device's language; a tap
// opens the assignment's page. Nothing is shown while the app is on screen: it shows the news itself (its badge).
async function showMoney(news) {
  const windows = await self.clients.matchAll({ type: 'window' });
  if (windows.some((w) => w.visibilityState === 'visible')) return;
  return self.registration.showNotification(String(news.heading), {
    body: String(news.body),
    tag: `money-${news.notification_id}`,
    icon: '/app/icon-192.png',
    data: { url: news.url },
  });
}

async function showOffer(offer) {
  const windows = await self.clients.matchAll({ type: 'window' });
  if (windows.some((w) => w.visibilityState === 'visible')) return;
  const words = OFFER_WORDS[offer && offer.locale] || OFFER_WORDS['zh-CN'];
  // A push the browser cannot read still says something, as every push must: the app, opened on its offers.
  if (!offer) return self.registration.showNotification('Legwork', { data: { url: '/app/' } });
  return self.registration.showNotification(words.title(words.pay(offer.payment_cents)), {
    body: words.body(offer.title),
    tag: `offer-${offer.assignment_id}`,
    icon: '/app/icon-192.png',
    requireInteraction: true,
    data: { url: offer.url, expires_at: offer.expires_at },
  });
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openOffer(event.notification.data && event.notification.data.url));
});

/** The app's page of the offer: in a window of the app already open if there is one, else a new one. */
async function openOffer(url) {
  const target = new URL(url || '/app/', self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window' });
  const open = windows.find((w) => new URL(w.url).pathname.startsWith('/app/'));
  const shown = open ? await open.navigate(target).catch(() => null) : null;
  if (!shown) return self.clients.openWindow(target);
  // Focusing needs the tap's user activation; without it the page is still on the offer.
  return shown.focus().catch(() => undefined);
}
