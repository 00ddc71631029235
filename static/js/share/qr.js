// A QR code as SVG built with lit-html (no innerHTML), from the vendored qrcode-generator.
//
// The limit: version 25 at error correction L (117 modules, 1 273 bytes in byte mode). Past
// it a code shown on a 360 px phone has modules under 3 CSS pixels, which a phone camera
// across a table no longer reads reliably; the link is still copied, or the file downloaded.

import { html } from "../../vendor/lit-html/lit-html.js";
import qrcode from "../../vendor/qrcode-generator/qrcode.mjs";

export const QR_ECC = "L";
export const QR_MAX_VERSION = 25;
const QUIET = 4;

/** The QR matrix of `text` ({size, version, dark(r, c)}), or null when it is above the limit. */
export function qrMatrix(text) {
  let code;
  try {
    code = qrcode(0, QR_ECC);
    code.addData(text, "Byte");
    code.make();
  } catch {
    return null; // longer than version 40 holds
  }
  const size = code.getModuleCount();
  const version = (size - 17) / 4;
  if (version > QR_MAX_VERSION) return null;
  return { size, version, dark: (r, c) => code.isDark(r, c) };
}

/** Each matrix's path, made once: a page that shows a code renders again at every change of
 * the table (the live page's invitation, while the moves arrive), and the code does not change. */
const paths = new WeakMap();

function pathOf(matrix) {
  let d = paths.get(matrix);
  if (d === undefined) {
    d = "";
    for (let r = 0; r < matrix.size; r += 1) {
      for (let c = 0; c < matrix.size; c += 1) {
        if (matrix.dark(r, c)) d += `M${c + QUIET} ${r + QUIET}h1v1h-1z`;
      }
    }
    paths.set(matrix, d);
  }
  return d;
}

/** The SVG of a matrix: one path of dark squares on a white square with the quiet zone. */
export function qrSvg(matrix, label) {
  const n = matrix.size + 2 * QUIET;
  return html`<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n} ${n}" role="img" aria-label=${label}
    data-version=${matrix.version} shape-rendering="crispEdges"><rect width=${n} height=${n} fill="#fff"></rect><path d=${pathOf(matrix)} fill="#000"></path></svg>`;
}
