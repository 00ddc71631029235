// "À propos": the five systems with their authors, licences and summaries, and the app's credits.

import { html, nothing } from "../../vendor/lit-html/lit-html.js";
import { t } from "../i18n.js";

// Shown before the engine answers `describe` (same facts as tablee/systems/__init__.py;
// an e2e test checks they agree once the engine is ready).
export const SYSTEMS = [
  { id: "systmj", name: "SYSTMJ", authors: ["François Dubos", "Marceau Dubos"], licence: "CC BY-SA" },
  { id: "versality", name: "Versality", authors: ["Alban Damien (Tenebos)"], licence: "CC BY-NC-SA" },
  { id: "pointzero", name: "Point Zéro", authors: [], licence: null },
  { id: "theorem", name: "Théorem", authors: [], licence: null },
  { id: "unicreon", name: "Unicreon", authors: ["Amaury Bouchard"], licence: "CC BY 4.0" },
];

export function render(app) {
  const systems = app.engine.describe?.systems ?? SYSTEMS;
  return html`
    <h1>${t("about.title")}</h1>
    <p>${t("about.intro")}</p>
    <div class="systems">
      ${systems.map(
        (s) => html`<article class="card" id=${`about-${s.id}`} aria-labelledby=${`about-${s.id}-name`}>
          <h2 id=${`about-${s.id}-name`}>${s.name}</h2>
          <dl class="facts">
            <dt>${t("about.authors")}</dt><dd>${s.authors.length ? s.authors.join(", ") : t("about.unknown")}</dd>
            <dt>${t("about.licence")}</dt><dd>${s.licence ?? t("about.licence_not_stated")}</dd>
            <dt>${t("about.mechanic")}</dt><dd>${t(`system.${s.id}.mechanic`)}</dd>
            ${s.version ? html`<dt>${t("about.version")}</dt><dd>${s.version}</dd>` : nothing}
          </dl>
          <p>${t(`system.${s.id}.summary`)}</p>
        </article>`,
      )}
    </div>
    <section class="card">
      <h2>${t("about.credits")}</h2>
      <p>${t("about.credits_text")}</p>
    </section>
  `;
}
