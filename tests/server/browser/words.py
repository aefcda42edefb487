"""Words meant for developers, caught in the browser tests: every page a browser test opens
is watched (``watch(context, report)``) from its first paint to the end of the test, and
any visible text that reads "null", "undefined", "NaN", "None", "seat" followed by a
number, or an identifier in snake_case outside code fails the test
(``conftest.device``), with the page's address and the text.

The watch is a script in every page of the context (``add_init_script``): a
MutationObserver looks at each text that appears or changes and at every element shown
(an attribute change: ``hidden``, ``open``, a class), and reports a visible text that
matches through a function the context exposes. "Visible" is what the browser renders
(``checkVisibility``, so a closed dialog or a folded ``<details>`` is not read until it
opens) plus text a screen reader reads (a visually hidden caption), the choices of a
``<select>`` and the values of text inputs. At the end of the test each page is read once
more (``scan``), so nothing reported late is missed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page

# "None" only as a word ("Nonetheless" is English); "null" even inside another word
# ("nullnull"); "seat" before a number in any case ("Seat 1", "seat 0's side").
PATTERN = r"null|undefined|NaN|(?<![A-Za-z])None(?![a-z])|[Ss][Ee][Aa][Tt] \d"
WORDS = re.compile(PATTERN)
# An identifier in snake_case ("peek_first", "max_turns"), outside code a page shows as
# code (``<code>``, ``<kbd>``, ``<pre>``, ``<samp>``, and what a player types in a box).
SNAKE = r"(?<![\w./:=-])[a-z]+_[a-z0-9_]*[a-z0-9](?![\w/(=-])"

SCRIPT = """(() => {
  const words = new RegExp(__PATTERN__);
  const snake = new RegExp(__SNAKE__);
  const seen = new Set();
  const report = (text, code = false) => {
    const found = text.replace(/\\s+/g, " ").trim();
    if (!(words.test(found) || (!code && snake.test(found))) || seen.has(found)) return;
    seen.add(found);
    window.__quarkadeWords = window.__quarkadeWords || [];
    window.__quarkadeWords.push(found);
    if (window.__quarkadeWordsFound) window.__quarkadeWordsFound(location.href, found);
  };
  const shown = (element) => {
    if (!element) return false;
    const select = element.closest("select");
    if (select) return select.checkVisibility();
    return element.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
  };
  const look = (root) => {
    if (!root) return;
    const coded = (node) => !!node && !!node.closest("code, kbd, pre, samp");
    if (root.nodeType === Node.TEXT_NODE) {
      if (shown(root.parentElement)) report(root.textContent, coded(root.parentElement));
      return;
    }
    if (root.nodeType !== Node.ELEMENT_NODE && root.nodeType !== Node.DOCUMENT_NODE) return;
    const element = root.nodeType === Node.DOCUMENT_NODE ? root.body : root;
    if (!element || !shown(element)) return;
    if (element.matches("script, style, template")) return;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && !parent.closest("script, style, template") && shown(parent)) {
        report(node.textContent, coded(parent));
      }
    }
    for (const input of element.querySelectorAll("input, textarea")) {
      const kind = (input.getAttribute("type") || "text").toLowerCase();
      const typed = ["text", "search", "number", "url"].includes(kind);
      if ((typed || input.tagName === "TEXTAREA") && shown(input)) report(input.value, true);
    }
  };
  window.__quarkadeScan = () => { look(document); return window.__quarkadeWords || []; };
  const start = () => {
    look(document);
    new MutationObserver((records) => {
      for (const record of records) {
        look(record.type === "characterData" ? record.target.parentElement : record.target);
      }
    }).observe(document.documentElement, { subtree: true, childList: true,
      characterData: true, attributes: true,
      attributeFilter: ["hidden", "open", "class", "style", "value"] });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();""".replace("__PATTERN__", json.dumps(PATTERN)).replace("__SNAKE__", json.dumps(SNAKE))


def watch(context: BrowserContext, report: Callable[[str, str], None]) -> None:
    """Watch every page of ``context``: ``report(url, text)`` for each visible text with
    words meant for developers."""
    context.expose_function("__quarkadeWordsFound", report)
    context.add_init_script(SCRIPT)


def scan(page: Page) -> list[str]:
    """Every such text ``page`` has shown (read once more as it is now)."""
    try:
        return list(page.evaluate("() => window.__quarkadeScan ? window.__quarkadeScan() : []"))
    except Exception:  # a page closed or navigating: what it reported is already in
        return []
