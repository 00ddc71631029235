// Registers sw.js (offline cache) and lets the user decide when a new version applies:
// a waiting service worker is announced; it takes over only after the user agrees.

export function registerServiceWorker(app) {
  if (!("serviceWorker" in navigator)) return;
  const url = new URL("../../sw.js", import.meta.url);
  let refreshing = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // Reload only when the user asked for the update (not on the very first install).
    if (refreshing) location.reload();
  });
  const announce = (registration) => {
    app.notify("status", () => app.t("update.available"), [
      {
        label: () => app.t("update.apply"),
        run: () => {
          refreshing = true;
          registration.waiting?.postMessage({ type: "SKIP_WAITING" });
        },
      },
    ]);
  };
  navigator.serviceWorker
    .register(url, { scope: new URL("../../", import.meta.url).pathname })
    .then((registration) => {
      if (registration.waiting && navigator.serviceWorker.controller) announce(registration);
      registration.addEventListener("updatefound", () => {
        const installing = registration.installing;
        installing?.addEventListener("statechange", () => {
          if (installing.state === "installed" && navigator.serviceWorker.controller) announce(registration);
        });
      });
      // Look for a new version when the app comes back to the foreground.
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "visible") registration.update().catch(() => {});
      });
    })
    .catch((error) => console.warn("Service worker not registered", error));
}
