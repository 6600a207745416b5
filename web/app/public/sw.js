// The worker app's service worker (scope /app/). It makes the app installable and lets it open without a network:
// the hashed bundles under /app/assets/ are kept once fetched (their names change with their content), and the
// page itself is fetched from the network first, falling back to the last copy. The API (/v1), the WebSocket (/ws)
// and uploads are never cached: tasks, offers and money are always live.
const CACHE = 'legwork-app-v1';
const SHELL = ['/app/', '/app/manifest.webmanifest', '/app/icon.svg', '/app/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
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
