"""axe-core in the browser tests: ``audit(page, where)`` runs the WCAG 2.1 A and AA rules
(and axe's best practices) on the page as it is now and fails on any serious or critical
violation, naming each rule, its help and the elements. axe-core comes bundled with
axe-playwright-python, so nothing is fetched at run time. Every page a browser test opens
is audited once more when the test ends (``conftest.device``); tests call ``audit`` at the
game states worth checking on the way (in play, a dialog open, finished, the replay)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

AXE = Axe()
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa",
                                               "best-practice"]},
         "resultTypes": ["violations"]}
BLOCKING = ("serious", "critical")


def violations(page: Page) -> list[dict]:
    """The serious and critical violations on ``page`` now."""
    results = AXE.run(page, options=RULES)
    return [v for v in results.response["violations"] if v["impact"] in BLOCKING]


def audit(page: Page, where: str = "") -> None:
    found = violations(page)
    if found:
        lines = [f"{len(found)} serious or critical accessibility violations on "
                 f"{where or page.url}:"]
        for violation in found:
            targets = "; ".join(", ".join(node["target"]) for node in violation["nodes"][:5])
            detail = violation["nodes"][0].get("failureSummary", "").replace("\n", " ")
            lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']} "
                         f"[{targets}] {detail}")
        raise AssertionError("\n".join(lines))
