// The static site's service worker (matrix-calculator --export-site): it keeps every
// file of the site (files.json lists them, Pyodide's included) in the browser's cache as
// it installs, and answers from the network when it can, else from that cache, so that
// the page works offline once it has been loaded. The --serve page registers none.
"use strict";

const CACHE = "matrix-calculator-site";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const listed = await (await fetch("files.json", { cache: "no-store" })).json();
    const cache = await caches.open(CACHE);
    await cache.addAll(listed);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith((async () => {
    try {
      const response = await fetch(event.request);
      if (response.ok) {
        const copy = response.clone();
        event.waitUntil(caches.open(CACHE).then((cache) => cache.put(event.request, copy)));
      }
      return response;
    } catch (problem) {  // offline: the kept copy (a page address by its path alone)
      const kept = await caches.match(event.request,
        { ignoreSearch: event.request.mode === "navigate" });
      if (kept) return kept;
      throw problem;
    }
  })());
});
