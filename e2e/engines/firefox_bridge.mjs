// Firefox for the browser tests, driven by Puppeteer over WebDriver BiDi (no geckodriver): one
// JSON-lines command per stdin line, answered on stdout (tests/live/lines.mjs; the Python side is
// e2e/engines/drivers.py, FirefoxPage). One browser and one page per process; the page's uncaught
// errors are kept until `errors` reads them.
import puppeteer from "puppeteer-core";
import { serveLines } from "../../tests/live/lines.mjs";

let browser = null;
let page = null;
let errors = [];

async function timed(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms); });
  try { return await Promise.race([promise, limit]); } finally { clearTimeout(timer); }
}

serveLines({
  async launch({ executablePath, width = 360, height = 740, prefs = {} }) {
    browser = await puppeteer.launch({
      browser: "firefox",
      executablePath,
      headless: true,
      extraPrefsFirefox: { "intl.accept_languages": "fr-FR, fr", ...prefs },
    });
    page = await browser.newPage();
    page.on("pageerror", (error) => errors.push(String(error?.message ?? error)));
    page.on("dialog", (dialog) => dialog.accept()); // the import's "replace this table?"
    page.setDefaultNavigationTimeout(120_000);
    page.setDefaultTimeout(120_000);
    await page.setViewport({ width, height });
    return await browser.version();
  },
  async goto({ url }) {
    await timed(page.goto(url, { waitUntil: "domcontentloaded" }), 120_000, `goto ${url}`);
  },
  async reload() {
    await timed(page.reload({ waitUntil: "domcontentloaded" }), 120_000, "reload");
  },
  // `expr` is an expression (the Python side writes the call of a function with its arguments as
  // JSON): run as the WebDriver runs it, outside the page's Content-Security-Policy.
  async evaluate({ expr }) {
    return await timed(page.evaluate(expr), 120_000, "evaluate");
  },
  async click({ selector }) {
    await page.click(selector);
  },
  async fill({ selector, text, commit }) {
    await page.locator(selector).fill(text);
    if (commit) await page.keyboard.press("Tab");
  },
  async press({ key }) {
    await page.keyboard.press(key);
  },
  async select({ selector, value }) {
    await page.select(selector, value);
  },
  async upload({ selector, path }) {
    const input = await page.$(selector);
    if (!input) throw new Error(`no ${selector}`);
    await input.uploadFile(path);
  },
  async errors() {
    const seen = errors;
    errors = [];
    return seen;
  },
  async close() {
    if (browser) await browser.close();
    browser = null;
  },
});
