"""`make check-report`: open an audit report in headless Chromium, as a reader would, and check
what a unit test cannot: no request leaves the page, nothing is wider than the window at 1,280
and 1,400 px, every figure loads, the script runs without errors and its filters work. Writes
reports/benchmarks/report-check.json, .md and a screenshot of the top of the page.

Needs Chromium (Debian: `apt-get install chromium`) and the `browser` extra (playwright, which
drives the installed Chromium; it downloads no browser of its own)."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

WIDTHS = (1280, 1400)
OUT = Path("reports/benchmarks")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]  # no background traffic of Chromium's own

WIDER_THAN_WINDOW = """() => [...document.querySelectorAll('body *')]
  .filter(e => !e.closest('.scroll') && e.getBoundingClientRect().right > window.innerWidth + 1)
  .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' ' + Math.round(e.getBoundingClientRect().width) + 'px')"""
FIGURES = """() => [...document.images].map(i => ({alt: i.alt, loaded: i.complete && i.naturalWidth > 0,
  width: Math.round(i.getBoundingClientRect().width)}))"""


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        sys.exit("check-report: no Chromium found. Install it (Debian/Ubuntu: apt-get install chromium) and run again.")
    return path


def check(page_path: Path) -> dict:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sys.exit("check-report: playwright is missing. Install the extra: .venv/bin/pip install -e '.[browser]'")
    outside, console_errors, result = [], [], {"report": str(page_path), "widths": {}}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_FLAGS)
        for width in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: console_errors.append(str(error)))

            def block(route):
                url = route.request.url
                if url.startswith(("file:", "data:")):
                    return route.continue_()
                outside.append(url)
                return route.abort()

            page.route("**/*", block)
            page.goto(page_path.resolve().as_uri(), wait_until="load")
            figures = page.evaluate(FIGURES)
            result["widths"][width] = {
                "page_width": page.evaluate("document.documentElement.scrollWidth"),
                "wider_than_window": page.evaluate(WIDER_THAN_WINDOW),
                "figures": len(figures), "figures_loaded": sum(f["loaded"] for f in figures),
                "figures_in_html": page.evaluate("document.querySelectorAll('figure img').length"),
                "tables": page.evaluate("document.querySelectorAll('table').length"),
                "tables_scrolling": page.evaluate("[...document.querySelectorAll('.scroll')].filter(s => s.scrollWidth > s.clientWidth).length"),
            }
            if width == WIDTHS[0]:
                result["filters"] = filters(page)
                OUT.mkdir(parents=True, exist_ok=True)
                page.goto(page_path.resolve().as_uri(), wait_until="load")
                page.screenshot(path=str(OUT / "report-check.png"))
            page.close()
        browser.close()
    result["requests_outside_the_page"] = sorted(set(outside))
    result["console_errors"] = console_errors
    link = result["filters"].get("headline_link")
    result["passed"] = (not outside and not console_errors and result["filters"]["works"] and (link is None or link["works"])
                        and all(w["page_width"] <= width and not w["wider_than_window"] and w["figures"] == w["figures_loaded"]
                                == w["figures_in_html"] > 0 for width, w in result["widths"].items()))
    return result


def filters(page) -> dict:
    """The failed-questions filters: a category narrows the list, a headline topic link sets it."""
    total = page.locator("details.failed").count()
    if not total:
        return {"paragraphs": 0, "works": True, "note": "no failed paragraph to filter"}
    category = page.locator("#f-category option").nth(1).inner_text()
    page.select_option("#f-category", category)
    narrowed = page.locator("details.failed:not([hidden])").count()
    expected = page.locator(f"details.failed[data-category='{category}']").count()
    page.select_option("#f-category", "")
    return {"paragraphs": total, "category": category, "shown_for_category": narrowed, "headline_link": headline_link(page, total),
            "works": narrowed == expected < total}


def headline_link(page, total: int) -> dict | None:
    """The headline's first topic: a category link filters the failed questions to it, a cluster
    link opens that cluster's examples."""
    link = page.locator(".card ol a").first
    if not link.count():
        return None
    href = link.get_attribute("href")
    link.click()
    if href == "#failed":
        shown = page.locator("details.failed:not([hidden])").count()
        category = page.input_value("#f-category")
        return {"to": "failed questions", "category": category, "shown": shown, "works": bool(category) and 0 < shown < total}
    opened = page.evaluate(f"document.getElementById({href[1:]!r}).open")
    return {"to": href, "examples_opened": opened, "works": bool(opened)}


def markdown(result: dict) -> str:
    lines = ["# The audit report in a browser", "", f"`make check-report` on `{result['report']}`, headless Chromium: "
             f"**{'passed' if result['passed'] else 'FAILED'}**.", "",
             "| window | page width | elements wider than the window | figures loaded | tables | tables that scroll inside their box |",
             "| --- | --- | --- | --- | --- | --- |"]
    for width, w in result["widths"].items():
        lines.append(f"| {width} px | {w['page_width']} px | {len(w['wider_than_window'])} | {w['figures_loaded']} of "
                     f"{w['figures_in_html']} | {w['tables']} | {w['tables_scrolling']} |")
    f = result["filters"]
    lines += ["", f"Requests leaving the page: {len(result['requests_outside_the_page'])}. Script errors: {len(result['console_errors'])}.",
              f"Filters: {f['paragraphs']} failed paragraphs; category '{f.get('category', '')}' shows {f.get('shown_for_category')}; "
              f"The headline's first topic link: {f.get('headline_link')}.", "", "![the top of the report](report-check.png)", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report", nargs="?", type=Path, default=Path("reports/audit.html"))
    args = parser.parse_args()
    if not args.report.is_file():
        sys.exit(f"check-report: {args.report} does not exist: run `make audit` first.")
    result = check(args.report)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "report-check.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    (OUT / "report-check.md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result))
    if not result["passed"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
