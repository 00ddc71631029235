// The header's progress bar while the rules engine loads: a row under the header and its
// « Moteur de règles : chargement… », with a bar and what is loading (the interpreter's download, the Python library,
// the rules, the interpreter's start), from static/js/engine.js's onEngineProgress. A first
// visit on a phone takes tens of seconds: the bar shows it moves. It goes at ready (or at a
// failure, which the status line and a notice say), and the pages stay usable meanwhile.

import { engineState, onEngineProgress, onEngineState } from "./engine.js";
import { language, t } from "./i18n.js";

const ID = "engine-progress";

function bar() {
  let box = document.getElementById(ID);
  if (box) return box;
  const status = document.getElementById("engine-status");
  if (!status) return null;
  box = document.createElement("div");
  box.id = ID;
  box.className = "engine-progress";
  box.dataset.testid = "engine-progress";
  const meter = document.createElement("progress");
  meter.max = 100;
  meter.value = 0;
  const label = document.createElement("span");
  label.className = "engine-progress-label";
  box.append(meter, label);
  // Its own row under the header (the header's row has no room for it on a phone).
  (status.closest("header") ?? status).after(box);
  return box;
}

function draw({ step, fraction }) {
  const box = bar();
  if (!box) return;
  const [meter, label] = box.children;
  const percent = Math.round(fraction * 100);
  meter.value = percent;
  const what = t(`engine.progress.${step}`);
  meter.setAttribute("aria-label", what);
  label.textContent = `${what} (${percent}${language() === "fr" ? "\u202f" : ""}%)`;
  box.dataset.step = step;
  box.dataset.percent = String(percent);
}

function remove() {
  document.getElementById(ID)?.remove();
}

/** Show the bar until the engine is ready or failed (once, at boot). */
export function showEngineProgress() {
  if (["ready", "failed"].includes(engineState())) return;
  const stopProgress = onEngineProgress(draw);
  const stopState = onEngineState((state) => {
    if (state === "ready" || state === "failed") {
      stopProgress();
      stopState();
      remove();
    }
  });
}
