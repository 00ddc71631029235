"""Render static/icons/icon.svg to the PNG sizes the web manifest needs (run by hand).

Uses the same Chromium as the e2e tests: ``.venv/bin/python tools/icons.py``.
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
    svg = (ICONS / "icon.svg").read_text()
    for size in (192, 512):
        page = browser.new_page(viewport={"width": size, "height": size})
        sized = svg.replace("<svg ", f"<svg width={size} height={size} ", 1)
        page.set_content(f'<body style="margin:0">{sized}</body>')
        page.screenshot(path=str(ICONS / f"icon-{size}.png"), omit_background=True)
        page.close()
    browser.close()
