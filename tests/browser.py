"""Headless Chromium (Debian's package) driven by Playwright, for the review page's tests and the
README's screenshot. `python tests/browser.py RUN PNG` takes the screenshot of a real run."""

import shutil
import sys
import threading
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Flags for a closed network: no background connections, no sandbox as root.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def missing():
    """Why a browser test cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is missing: pip install -r requirements-dev.txt"
    if not CHROMIUM:
        return "Chromium is missing: apt-get install chromium (.ci/run does it)"
    return None


def launch(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)


def serve(evalpy, run, against=None):
    review = evalpy.Review(run, against)
    httpd = evalpy.serve_review(review, 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def screenshot(run, png, against=None):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import eval as evalpy
    from playwright.sync_api import sync_playwright
    httpd, url = serve(evalpy, run, against)
    try:
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(url)
            page.wait_for_selector("#case h2")
            page.screenshot(path=png, full_page=True)
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


if __name__ == "__main__":
    screenshot(*sys.argv[1:])
