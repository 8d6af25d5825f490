"""Headless Chromium (Debian's package) driven by Playwright, for the page tests and the README's
screenshots. `python tests/browser.py RUN PNG` takes the review page of a real run;
`python tests/browser.py --page PAGE.html PNG` takes a page written by report or compare --html."""

import os
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
    threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True).start()   # shutdown() within 20 ms
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def screenshot(run, png, against=None, annotation=None):
    """A PNG of the review page on a copy of the run (so an annotation typed for the picture leaves no
    file beside the real run)."""
    import shutil
    import tempfile
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import eval as evalpy
    from playwright.sync_api import expect, sync_playwright
    with tempfile.TemporaryDirectory() as folder:
        copies = []
        for path in (run, against):
            if path:
                copies.append(str(Path(folder) / Path(path).name))
                shutil.copy(path, copies[-1])
        os.chdir(folder)
        httpd, url = serve(evalpy, Path(copies[0]).name, Path(copies[1]).name if against else None)
        try:
            with sync_playwright() as p:
                browser = launch(p)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(url)
                page.wait_for_selector("#case h2")
                if annotation:
                    page.fill("#annotationinput", annotation)
                    page.click("#save")
                    expect(page.locator("#savestatus")).to_contain_text("saved")
                page.screenshot(path=png, full_page=True)
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()


def page_screenshot(page_path, png, width=1280, height=None):
    """A PNG of an HTML page from disk, with every request other than the file itself refused."""
    from playwright.sync_api import sync_playwright
    url = Path(page_path).resolve().as_uri()
    with sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(viewport={"width": width, "height": height or 900}, offline=True)
        context.route("**/*", lambda route: route.continue_() if route.request.url == url else route.abort())
        page = context.new_page()
        page.goto(url)
        page.screenshot(path=png, full_page=height is None)
        browser.close()


if __name__ == "__main__":
    import argparse
    cli = argparse.ArgumentParser(description="PNG of the review page of a run, or of a page from --html")
    cli.add_argument("run", help="the run to review, or with --page the HTML file")
    cli.add_argument("png")
    cli.add_argument("--against")
    cli.add_argument("--annotation", help="an annotation to type and save on the first case shown")
    cli.add_argument("--page", action="store_true", help="RUN is a page written by report or compare --html")
    cli.add_argument("--height", type=int, help="with --page: this many pixels from the top (default: the whole page)")
    a = cli.parse_args()
    if a.page:
        page_screenshot(a.run, os.path.abspath(a.png), height=a.height)
    else:
        screenshot(os.path.abspath(a.run), os.path.abspath(a.png), a.against and os.path.abspath(a.against), a.annotation)
