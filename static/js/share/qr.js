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

/**
 * A shown code's pixels on a canvas: the modules of an `svg.qr` (as qrSvg draws it: an element,
 * or its markup), `scale` pixels each, black on white with the quiet zone. It is what a camera
 * would see of that screen, for the QR decoder (views/scan.js `decodeQr`, or a canvas's
 * `captureStream()` standing for a camera where a test has none). The markup is parsed as an
 * inert SVG document and only its viewBox and path are read.
 */
export function qrCanvasOf(svg, scale = 6) {
  const element = typeof svg === "string" ? new DOMParser().parseFromString(svg, "image/svg+xml").documentElement : svg;
  const size = element?.viewBox?.baseVal?.width || Number(element?.getAttribute?.("viewBox")?.split(/\s+/)[2]);
  const d = element?.querySelector?.("path")?.getAttribute("d") ?? "";
  if (!Number.isInteger(size) || size <= 0 || size > 200) throw new Error("not a QR code's SVG");
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = size * scale;
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = "#000";
  for (const [, c, r] of d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) g.fillRect(Number(c) * scale, Number(r) * scale, scale, scale);
  return canvas;
}
