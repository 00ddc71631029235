// Théorem's odds at a glance: an action's success levels as one outcome bar
// (views/odds-bar.js), shared by the table page, the oppositions and the chase.

import { segment } from "../../views/odds-bar.js";
import { levelLabel } from "./common.js";

/** Each level's tone on the bar, worst to best (003_0f8319d4d007e1fe.txt, the success levels,
 * as the engine's odds list them: échec, normale, moyenne, grande). */
const LEVEL_TONES = { echec: "fail-2", normale: "win-1", moyenne: "win-2", grande: "win-3" };

/** An action's outcome bar from the engine's exact odds (`levels`, worst first). */
export function levelBar(levels) {
  return levels.map((row) => segment(row.level, levelLabel(row.level), row.fraction, LEVEL_TONES[row.level] ?? "neutral"));
}
