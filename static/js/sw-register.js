// Registers sw.js (offline cache) and lets the user decide when a new version applies:
// a waiting service worker is announced; it takes over only after the user agrees, and never
// in the middle of a live table without asking (the reload would cut every link of the table):
// while this device follows one, the notice says the update waits until it leaves the table,
// and « Mettre à jour maintenant » asks first.

/** The registration whose new version waits for the user's consent, once one does. */
let waiting = null;
let refreshing = false;

/** Whether a new version of Tablée is installed and waits for the user's consent. */
export const updateWaiting = () => Boolean(waiting?.waiting);

/** Apply the waiting version now (the page reloads once it took over). */
export function applyUpdate() {
  if (!waiting?.waiting) return false;
  refreshing = true;
  waiting.waiting.postMessage({ type: "SKIP_WAITING" });
  return true;
}

/** Whether this device follows a live table (live/connect.js sets the session). */
const atTable = (app) => Boolean(app.liveSession?.());

export function registerServiceWorker(app) {
  if (!("serviceWorker" in navigator)) return;
  const url = new URL("../../sw.js", import.meta.url);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // Reload only when the user asked for the update (not on the very first install).
    if (refreshing) location.reload();
  });
  let shown = null;
  const announce = (registration) => {
    waiting = registration;
    if (shown !== null) return;
    // (said again at each drawing: the words follow the table being left or joined)
    shown = app.notify("status", () => app.t(atTable(app) ? "update.available_live" : "update.available"), [
      {
        label: () => app.t(atTable(app) ? "update.apply_live" : "update.apply"),
        dismiss: false,
        run: () => {
          if (atTable(app) && !confirm(app.t("update.confirm_live"))) return;
          if (applyUpdate()) app.dismiss(shown);
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
