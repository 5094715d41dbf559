#!/usr/bin/env python3
"""Checks a page written by `tlslab export --html` in headless Chromium, driven through the DevTools
protocol over a pipe (--remote-debugging-pipe; no Python package needed):

  * the page loads without console errors, exceptions or Content-Security-Policy violations, and
    requests nothing but itself (no network request of any kind);
  * pressing the right arrow N times (default 5) highlights step N+1 and shows its section, with
    the #step-N fragment following; the fragment `#step-K` opens step K;
  * clicking the ladder arrow of a message (default ClientHello, if the page has one) opens its
    bytes, and pointing at a field lights up exactly that field's bytes in the hex dump;
  * keyboard only: Tab from the top reaches that arrow and Enter opens its bytes;
  * the screenshot (optional --screenshot FILE) is not blank;
  * with --expect-lang / --expect-font: the page's language, and the platform font Chromium really
    drew the title with (a Chinese page must find Noto Sans CJK, not tofu boxes);
  * with --slides-check (a page exported with --slides): one step per screen, so after the right
    arrow exactly one step section is drawn and it is the next one, in large type (the explanation's
    computed font size is at least --slides-scale times the page's root font size);
  * with --print-check: Page.printToPDF gives a PDF of more than --min-pdf-pages pages (which fires
    the page's beforeprint), and under print media the buttons and navigation are not drawn, every
    step's section, heading, explanation (those the page stores once and fills in by script too)
    and bytes table is drawn, and the whole ladder drawing is visible, not clipped by its scroller.
  * with --directions FILE (a JSON object: event index -> [sender, receiver], from the run's JSON
    `direction`s), at each --layout-sizes size: every drawn arrow of such an event starts on its
    sender's rail and ends on its receiver's (a lost one points there), read from the drawing as
    the browser lays it out;
  * at each --layout-sizes size: no ladder label crosses a rail (a dot's stays between the rails
    beside it, an arrow's between its parties' rails or in the notes column) or ends in "…";
  * with --follow-check, at each --layout-sizes size under 700 px: after every Next and on #step-N
    fragments, the current row's label is in the visible part of the sideways-scrolling ladder;
  * with --layout-sizes and --screenshot OUT.png: a screenshot at each size after the #step-14 check,
    written as OUT-WxH.png;
  * with --compare-check (a page of `tlslab compare A B --html`): at each --layout-sizes size, nothing
    wider than the viewport, no text below 12 px, every cell of the table on screen and uncut, both
    runs' knowledge panels and every phase of both ladders drawn (a ladder may scroll sideways).
The whole check gives up after --timeout seconds (default 90), killing the browser: it never hangs.

Usage: html-browser-check.py PAGE.html [--screenshot OUT.png] [--presses N] [--message NAME]
       [--expect-lang TAG] [--expect-font FAMILY] [--timeout SECONDS]
       [--width W --height H] [--chromium PATH]
       [--slides-check [--slides-scale X]] [--print-check [--min-pdf-pages N]]
       [--layout-sizes WxH,WxH [--directions FILE] [--follow-check]] [--compare-check]
Prints one line per check; exit status 0 when all pass, 1 otherwise, 2 when Chromium cannot run.
"""
import argparse
import base64
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib


class Browser:
    """A headless Chromium spoken to through fds 3 (commands) and 4 (replies and events)."""

    def __init__(self, chromium, width, height):
        self.profile = tempfile.mkdtemp(prefix="tlslab-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # The child must see the two pipe ends as fds 3 and 4: move them above 4 first, so that
        # moving one into place cannot overwrite the other.
        import fcntl
        high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
        high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
        os.close(to_browser_r)
        os.close(from_browser_w)
        to_browser_r, from_browser_w = high_r, high_w

        def child_fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--remote-debugging-pipe", f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}", "about:blank"]
        self.process = subprocess.Popen(args, pass_fds=(3, 4, to_browser_r, from_browser_w), preexec_fn=child_fds,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def close(self):
        try:
            self.send("Browser.close", session=False, wait=False)
        except (OSError, ValueError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def read_message(self, deadline):
        import select
        while b"\0" not in self.buffer:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no answer from Chromium")
            # Never block past the deadline: a browser that stops talking must not hang the check.
            ready, _, _ = select.select([self.from_browser], [], [], left)
            if not ready:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def send(self, method, params=None, session=True, wait=True, timeout=20):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        if not wait:
            return None
        deadline = time.time() + timeout
        while True:
            reply = self.read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method, timeout=20):
        deadline = time.time() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            e = self.read_message(deadline)
            if e.get("method") == method:
                return e
            self.events.append(e)

    def pump(self, seconds):
        """Collects the events that arrive within `seconds`."""
        deadline = time.time() + seconds
        import select
        while time.time() < deadline:
            ready, _, _ = select.select([self.from_browser], [], [], max(0, deadline - time.time()))
            if not ready:
                break
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                break
            self.buffer += chunk
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                self.events.append(json.loads(raw))

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, key, code, vk):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                 "windowsVirtualKeyCode": vk, "nativeVirtualKeyCode": vk})

    def click(self, x, y):
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})


def png_is_blank(data):
    """True when every pixel of an 8-bit RGB(A) PNG has the same colour (or it cannot be read)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return True
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {2: 3, 6: 4}.get(colour, 0)
            if depth != 8 or not channels:
                return True
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    first = None
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 255
        if first is None:
            first = bytes(line[:channels])
        if any(bytes(line[i:i + channels]) != first for i in range(0, stride, channels)):
            return False
        previous = line
    return True


def fit_check(browser, check):
    """Nothing wider than the viewport (but inside a box that scrolls sideways) and no text below 12 px."""
    wide = browser.evaluate("""(() => {
        const vw = document.documentElement.clientWidth, out = [];
        const clipped = e => { for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
            if (getComputedStyle(a).overflowX !== 'visible') { return true; } } return false; };
        document.querySelectorAll('body *').forEach(e => {
            const r = e.getBoundingClientRect();
            if (r.width > 0 && (r.right > vw + 1 || r.left < -1) && !clipped(e)) { out.push(e.tagName.toLowerCase() + (e.id ? '#' + e.id : e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '')); }
        });
        return [document.documentElement.scrollWidth, vw, out.slice(0, 8)];
    })()""")
    check(wide[0] <= wide[1] + 1 and not wide[2],
          f"nothing is wider than the {wide[1]} px viewport (page {wide[0]} px wide; outside: {wide[2]})")

    def smallest_text():
        return browser.evaluate("""(() => {
            let min = 1e9, where = '';
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                if (!n.textContent.trim()) { continue; }
                const e = n.parentElement;
                if (!e || e.getClientRects().length === 0 || !e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})) { continue; }
                if (e.closest('[aria-hidden="true"] title, title, script, style')) { continue; }
                let size = parseFloat(getComputedStyle(e).fontSize);
                const svg = e.closest('svg');
                if (svg && svg.getScreenCTM()) { size *= svg.getScreenCTM().a; }
                if (size < min) { min = size; where = e.tagName.toLowerCase() + '.' + (e.getAttribute('class') || '') + ' "' + n.textContent.trim().slice(0, 30) + '"'; }
            }
            return [min, where];
        })()""")
    small = smallest_text()
    check(small[0] >= 11.95, f"no text below 12 px (smallest {small[0]:.1f} px: {small[1]})")
    return smallest_text


def compare_check(browser, check):
    """A `tlslab compare A B --html` page at this window size: it fits, its text is readable, every
    cell of the table is on screen whole, both runs' knowledge and every phase of both ladders are drawn."""
    fit_check(browser, check)
    cells = browser.evaluate("""(() => {
        const vw = document.documentElement.clientWidth, out = [];
        const cells = document.querySelectorAll('table.comparison th, table.comparison td');
        cells.forEach(c => { const r = c.getBoundingClientRect();
            if (r.width === 0 || r.left < -1 || r.right > vw + 1 || c.scrollWidth > c.clientWidth + 1) { out.push(c.textContent.slice(0, 30)); } });
        return [cells.length, out.slice(0, 6)];
    })()""")
    check(cells[0] > 3 and not cells[1], f"the table's {cells[0]} cells are on screen, none cut" + ("" if not cells[1] else f": {cells[1]}"))
    drawn = browser.evaluate("""(() => {
        const seen = e => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0;
        const knowledge = Array.from(document.querySelectorAll('.pair section pre')).filter(seen).length;
        const phases = Array.from(document.querySelectorAll('.ladders pre.phase'));
        return [knowledge, phases.filter(seen).length, phases.length];
    })()""")
    check(drawn[0] == 2 and drawn[2] >= 2 and drawn[1] == drawn[2],
          f"both runs' knowledge ({drawn[0]} of 2) and every ladder phase ({drawn[1]} of {drawn[2]}) are drawn")


def arrow_check(browser, directions, check):
    """Every arrow drawn for an event with a JSON direction joins that direction's rails on screen."""
    result = browser.evaluate("""((dirs) => {
        const x = (e, v) => { const m = e.getScreenCTM(); return m.a * v + m.e; };
        const rails = {};
        document.querySelectorAll('#ladder line.rail').forEach(l => { rails[l.getAttribute('data-actor')] = x(l, +l.getAttribute('x1')); });
        const svg = document.getElementById('ladder');
        if (!svg) { return [0, ['no ladder']]; }
        // A drawn arrow stops 3 drawing units before its receiver's rail (its head fills the gap).
        const scale = svg.getScreenCTM().a, slack = 3 * scale + 1.5;
        const nearest = v => Object.keys(rails).reduce((a, b) => Math.abs(rails[a] - v) <= Math.abs(rails[b] - v) ? a : b);
        const out = [];
        let checked = 0;
        document.querySelectorAll('#ladder g.row[data-event]').forEach(g => {
            const d = dirs[g.getAttribute('data-event')], line = g.querySelector('line.arrow');
            if (!d || !line) { return; }
            const from = rails[d[0]], to = rails[d[1]];
            const x1 = x(line, +line.getAttribute('x1')), x2 = x(line, +line.getAttribute('x2'));
            // A lost segment's arrow stops half-way: it points at the rail twice as far.
            const end = line.classList.contains('lost') ? 2 * x2 - x1 : x2;
            checked += 1;
            if (from === undefined || to === undefined || Math.abs(x1 - from) > 1.5 || Math.abs(end - to) > slack
                || nearest(x1) !== d[0] || nearest(end) !== d[1]) {
                out.push('step ' + g.getAttribute('data-step') + ' (' + d[0] + '->' + d[1] + '): drawn ' + nearest(x1) + '->' + nearest(end)
                         + ' at ' + Math.round(x1) + '..' + Math.round(end));
            }
        });
        return [checked, out];
    })(""" + json.dumps(directions) + ")")
    check(not result[1], f"every arrow's ends are on its parties' rails ({result[0]} arrows checked against the JSON directions)"
          + ("" if not result[1] else f": {result[1][:6]}"))


def label_check(browser, check):
    """No ladder label crosses a rail or ends in "…": a dot's label lies between the rails on either
    side of it, an arrow's between its sender's and receiver's rails (or right of the last rail, in
    the notes column), as the browser lays the text out. Headings and notes beside no party are not
    labels of a lane and are not checked."""
    result = browser.evaluate("""(() => {
        const svg = document.getElementById('ladder');
        if (!svg) { return [0, ['no ladder']]; }
        const sx = (e, v) => { const m = e.getScreenCTM(); return m.a * v + m.e; };
        const rails = Array.from(svg.querySelectorAll('line.rail')).map(l => sx(l, +l.getAttribute('x1')));
        const last = Math.max(...rails);
        const near = v => rails.reduce((a, b) => Math.abs(a - v) <= Math.abs(b - v) ? a : b);
        const out = [];
        let checked = 0, lines = 0;
        svg.querySelectorAll('g.row').forEach(g => {
            const t = g.querySelector('text.label');
            const line = g.querySelector('line.arrow'), dot = g.querySelector('circle.dot');
            if (!t || (!line && !dot)) { return; }
            checked += 1;
            lines += Math.max(1, t.querySelectorAll('tspan').length);
            const r = t.getBoundingClientRect();
            const crossed = rails.filter(x => r.left < x - 0.5 && r.right > x + 0.5);
            let bad = crossed.length ? 'crosses the rail at x=' + Math.round(crossed[0]) : '';
            if (!bad && line && r.left < last) {
                const x1 = sx(line, +line.getAttribute('x1')), x2 = sx(line, +line.getAttribute('x2'));
                const end = near(line.classList.contains('lost') ? 2 * x2 - x1 : x2), start = near(x1);
                if (r.left < Math.min(start, end) - 0.5 || r.right > Math.max(start, end) + 0.5) { bad = 'is outside the rails of its arrow'; }
            }
            if (!bad && t.textContent.trim().endsWith('\u2026')) { bad = 'ends in \u2026'; }
            if (bad) { out.push('step ' + g.getAttribute('data-step') + ' "' + t.textContent.slice(0, 40) + '" ' + bad + ' (' + Math.round(r.left) + '..' + Math.round(r.right) + ')'); }
        });
        return [checked, out, lines];
    })()""")
    # A page whose rows are all headings and notes (an ATS rule lesson) has no lane label to check.
    check(not result[1], f"no ladder label crosses a rail or ends in \u2026 ({result[0]} labels on {result[2] if len(result) > 2 else 0} lines checked)"
          + ("" if not result[1] else f": {result[1][:6]}"))


def follow_check(browser, url, steps, check):
    """Stepping on a narrow screen: after each Next (the right arrow key) and after landing on a
    #step-N fragment, the current row's label is inside the visible part of the sideways-scrolling
    ladder (#ladder-scroll, below its sticky column heads), whole whenever it is no wider than it."""
    browser.send("Page.navigate", {"url": "about:blank"})
    browser.pump(0.2)
    browser.send("Page.navigate", {"url": url})
    browser.wait_for("Page.loadEventFired")
    browser.pump(0.3)
    probe = """(() => {
        const row = document.querySelector('#ladder g.row.current'), t = row && row.querySelector('text.label');
        const s = document.getElementById('ladder-scroll');
        if (!t || !s) { return null; }
        const b = s.getBoundingClientRect(), left = b.left + s.clientLeft, top = b.top + s.clientTop;
        const v = {left: left, right: left + s.clientWidth, top: top + 28, bottom: top + s.clientHeight};
        const r = t.getBoundingClientRect();
        const meets = r.right > v.left && r.left < v.right && r.bottom > v.top && r.top < v.bottom;
        const whole = r.left >= v.left - 1 && r.right <= v.right + 1;
        return [row.getAttribute('data-step'), meets, whole, r.width <= s.clientWidth, Math.round(r.left), Math.round(r.right),
                Math.round(v.left), Math.round(v.right), s.scrollWidth > s.clientWidth + 1];
    })()"""
    missed, sideways, seen = [], 0, 0

    def look(how):
        nonlocal sideways, seen
        got = browser.evaluate(probe)
        if got is None:
            return
        seen += 1
        sideways += 1 if got[8] else 0
        if not got[1] or (got[3] and not got[2]):
            missed.append(f"step {got[0]} ({how}): label at {got[4]}..{got[5]}, visible {got[6]}..{got[7]}" + ("" if got[1] else ", off-screen"))
    look("on load")
    # Chromium throttles a page that replaces its history entry (the fragment follows each step) more
    # than about 200 times in 10 seconds: a long run is stepped through its first 150 steps.
    for _ in range(min(steps, 151) - 1):
        browser.key("ArrowRight", "ArrowRight", 39)
        look("Next")
    # Fragments, backwards through the run: the ladder scrolls back as well.
    for n in range(steps, 0, -max(1, steps // 9)):
        browser.evaluate(f"location.hash = '#step-{n}'")
        browser.pump(0.05)
        look(f"#step-{n}")
    check(seen > 0 and sideways > 0 and not missed,
          f"stepping keeps the current row's label in the ladder's view ({seen} steps looked at, the ladder scrolls sideways)"
          + ("" if sideways else " - but the ladder does not scroll sideways here") + ("" if not missed else f": {missed[:6]}"))


def copy_check(browser, check):
    """Every calculation value has a visible copy button, and what each copies is the value the page
    shows, whole (the clipboard is intercepted: navigator.clipboard.writeText and execCommand('copy'));
    a real click copies and says so; a calculation's own button copies its formula and every value."""
    browser.evaluate("""(() => {
        window.__copied = [];
        if (navigator.clipboard) {
            navigator.clipboard.writeText = function (t) { window.__copied.push(t); return Promise.resolve(); };
        }
        const exec = document.execCommand.bind(document);
        document.execCommand = function (c) {
            if (c === 'copy') { const a = document.activeElement; window.__copied.push(a && 'value' in a ? a.value : String(window.getSelection())); return true; }
            return exec.apply(null, arguments);
        };
        return true;
    })()""")
    result = browser.evaluate("""(() => {
        const items = Array.from(document.querySelectorAll('ul.calc li[data-hex]'));
        const out = {values: items.length, calcValues: 0, missing: [], wrong: [], longest: 0};
        for (const li of items) {
            const b = li.querySelector(':scope > button.copy');
            if (!b || b.hidden || !b.getAttribute('aria-label')) { out.missing.push(li.getAttribute('data-name')); continue; }
            window.__copied = [];
            b.click();
            const got = window.__copied[0];
            const text = li.getAttribute('data-text');
            const want = text !== null ? text : li.getAttribute('data-hex');
            // What the reader sees: a calculation's value element, or a record value's sentence.
            const code = li.querySelector('code.value');
            const shown = code ? code.textContent : li.textContent;
            if (code) { out.calcValues += 1; }
            const seen = code ? shown === (text !== null ? JSON.stringify(text) : got) : shown.includes(got);
            if (got !== want || !seen || String(got).includes('\u2026')) { out.wrong.push(li.getAttribute('data-name') + ': ' + String(got).slice(0, 40)); }
            out.longest = Math.max(out.longest, String(got || '').length);
        }
        return out;
    })()""")
    check(result["values"] > 0 and result["calcValues"] > 0, f"the page has {result['calcValues']} calculation values ({result['values']} values in all)")
    check(not result["missing"], "every calculation value has its copy button" + ("" if not result["missing"] else f" (missing: {result['missing'][:8]})"))
    check(not result["wrong"], f"every copy button copies its value whole, as the page shows it (longest {result['longest']} characters)"
          + ("" if not result["wrong"] else f"; wrong: {result['wrong'][:6]}"))
    # A real click on the first calculation's first copy button, with its step shown.
    step = browser.evaluate("(() => { const f = document.querySelector('figure.calc-step'); const s = f && f.closest('section.step'); return s ? s.id : null; })()")
    if not step:
        check(False, "a step with a calculation")
        return
    browser.evaluate(f"location.hash = '#{step}'")
    browser.pump(0.3)
    box = browser.evaluate(f"""(() => {{
        const b = document.querySelector('#{step} figure.calc-step button.copy');
        b.scrollIntoView({{block: 'center'}});
        const r = b.getBoundingClientRect();
        window.__copied = [];
        return [r.left + r.width / 2, r.top + r.height / 2, r.width, r.height];
    }})()""")
    check(box[2] > 0 and box[3] > 0, f"the copy button of {step} is drawn ({box[2]:.0f}x{box[3]:.0f} px)")
    browser.click(box[0], box[1])
    browser.pump(0.3)
    clicked = browser.evaluate(f"""(() => {{
        const b = document.querySelector('#{step} figure.calc-step button.copy');
        const li = b.closest('li');
        return [window.__copied[0] || null, li.getAttribute('data-text') !== null ? li.getAttribute('data-text') : li.getAttribute('data-hex'),
                b.textContent, b.getAttribute('data-copied')];
    }})()""")
    check(clicked[0] is not None and clicked[0] == clicked[1] and clicked[2] == clicked[3],
          f"a click on the copy button copies the value and says so ({clicked[2]!r}, {len(clicked[0] or '')} characters)")
    # The calculation's own button: its heading, formula and every value as plain text.
    whole = browser.evaluate(f"""(() => {{
        const f = document.querySelector('#{step} figure.calc-step');
        window.__copied = [];
        f.querySelector('button.copy-all').click();
        const text = window.__copied[0] || '';
        const missing = Array.from(f.querySelectorAll('li[data-name]')).filter(li => {{
            const t = li.getAttribute('data-text');
            return !text.includes('\\n' + li.getAttribute('data-name') + ' = ' + (t !== null ? JSON.stringify(t) : 'bytes.fromhex("' + li.getAttribute('data-hex') + '")'));
        }}).map(li => li.getAttribute('data-name'));
        return [text.length, text.includes(f.querySelector('.formula').textContent), missing];
    }})()""")
    check(whole[0] > 0 and whole[1] and not whole[2],
          f"a calculation's copy button copies its formula and every value ({whole[0]} characters)" + ("" if not whole[2] else f"; missing {whole[2]}"))


def ladder_box_check(browser, check):
    """On a screen wide enough for the ladder beside the step (#33): the ladder's box does not scroll
    sideways, so every label (a notes column's too) is in view without scrolling."""
    box = browser.evaluate("""(() => {
        const s = document.getElementById('ladder-scroll'), l = document.getElementById('ladder');
        return s && l ? [s.scrollWidth, s.clientWidth, Math.round(l.getBoundingClientRect().width)] : null;
    })()""")
    if box is None:
        print("note  no ladder on this page: the ladder-box check is skipped")
        return
    check(box[0] <= box[1] + 1,
          f"the ladder fits its box beside the step, no sideways scrolling ({box[2]} px drawing, {box[0]} px to scroll in {box[1]} px)")


def layout_check(browser, url, steps, check, directions=None, screenshot=None, follow=False, wide=False):
    """What a reader sees at this window size (--width, --height)."""
    smallest_text = fit_check(browser, check)
    if wide:
        ladder_box_check(browser, check)
    if directions is not None:
        arrow_check(browser, directions, check)
    label_check(browser, check)

    # The ClientHello's bytes: every leaf's value and hex on screen, with no sideways scrolling.
    fields = browser.evaluate("""(() => {
        const row = Array.from(document.querySelectorAll('#ladder g.row.has-bytes')).find(r => r.querySelector('title').textContent.includes('ClientHello'));
        if (!row) { return null; }
        row.dispatchEvent(new MouseEvent('click', {bubbles: true}));
        const d = document.querySelector('section.step:not([hidden]) details.bytes');
        if (!d) { return ['no bytes']; }
        d.open = true;
        const vw = document.documentElement.clientWidth, out = [];
        const scroll = d.querySelector('.fields-scroll');
        if (scroll && scroll.scrollWidth > scroll.clientWidth + 1) { out.push('the table scrolls sideways (' + scroll.scrollWidth + ' > ' + scroll.clientWidth + ')'); }
        const rows = Array.from(d.querySelectorAll('table.fields tr.leaf')).slice(0, 12);
        rows.forEach(tr => ['f', 'v', 'x'].forEach(c => {
            const td = tr.querySelector('td.' + c); const r = td && td.getBoundingClientRect();
            if (!r || r.width === 0 || r.left < 0 || r.right > vw + 1) { out.push(tr.querySelector('td.f').textContent + ' ' + c + ' at ' + (r ? Math.round(r.left) + '..' + Math.round(r.right) : 'none')); }
        }));
        return out;
    })()""")
    if fields is None:
        print("note  no ClientHello on this page: the field-table check is skipped")
    else:
        check(not fields, "the ClientHello's field names, values and hex are on screen without sideways scrolling" + ("" if not fields else f": {fields[:6]}"))
        small = smallest_text()
        check(small[0] >= 11.95, f"no text below 12 px with the bytes open (smallest {small[0]:.1f} px: {small[1]})")

    # The knowledge table beside or under the step fits its panel, on the first step and on the last
    # (where it has every column it will have: an attacker's, the eavesdropper's afterwards).
    for where in ("first", "last"):
        if where == "last":
            browser.evaluate(f"location.hash = '#step-{steps}'")
            browser.pump(0.3)
        table = browser.evaluate("""(() => {
            const aside = document.getElementById('knowledge-now'), t = aside && aside.querySelector('table');
            return t ? [Math.round(t.getBoundingClientRect().width), aside.clientWidth, t.querySelectorAll('thead th').length] : null;
        })()""")
        if not table:
            continue
        check(table[0] <= table[1] + 1, f"the knowledge table fits its panel on the {where} step ({table[2]} columns, {table[0]} px in {table[1]} px)")
        # A party's name or "knows" is never broken inside a word to fit (a secret's identifier may be, after an underscore).
        broken = browser.evaluate("""(() => {
            const out = [];
            document.querySelectorAll('#knowledge-now table thead th, #knowledge-now table td').forEach(c => {
                const text = c.textContent.trim();
                if (!text || !/^[\\x20-\\x7e]+$/.test(text)) { return; }
                const r = document.createRange(); r.selectNodeContents(c);
                const lines = new Set(Array.from(r.getClientRects()).filter(x => x.width > 0).map(x => Math.round(x.top))).size;
                if (lines > text.split(/\\s+/).length) { out.push(text + ' on ' + lines + ' lines'); }
            });
            return out;
        })()""")
        check(not broken, f"the knowledge table's heads and marks are whole words on the {where} step" + ("" if not broken else f": {broken[:6]}"))

    # A deep link: the step's heading and the ladder's column heads in view, not under the controls.
    n = min(14, steps)
    browser.send("Page.navigate", {"url": "about:blank"})
    browser.pump(0.3)
    browser.send("Page.navigate", {"url": url + f"#step-{n}"})
    browser.wait_for("Page.loadEventFired")
    browser.pump(0.6)
    seen = browser.evaluate(f"""(() => {{
        const vh = innerHeight, controls = document.querySelector('nav.controls').getBoundingClientRect().bottom;
        const on = r => r.height > 0 && r.top >= controls - 1 && r.bottom <= vh + 1;
        const h = document.querySelector('#step-{n} h2');
        const heads = document.querySelector('.ladder-heads');
        const row = document.querySelector('#row-{n}');
        const out = [];
        if (!h || document.getElementById('step-{n}').hidden || !on(h.getBoundingClientRect())) {{ out.push('step heading at ' + (h ? Math.round(h.getBoundingClientRect().top) : 'none')); }}
        if (heads) {{
            const r = heads.getBoundingClientRect();
            if (!on(r)) {{ out.push('column heads at ' + Math.round(r.top) + '..' + Math.round(r.bottom) + ' (controls end at ' + Math.round(controls) + ')'); }}
        }}
        if (row) {{
            const r = row.getBoundingClientRect(), box = document.getElementById('ladder-scroll').getBoundingClientRect();
            if (!(r.top >= Math.max(box.top, controls) - 1 && r.bottom <= Math.min(box.bottom, vh) + 1)) {{ out.push('row {n} at ' + Math.round(r.top)); }}
        }}
        return out;
    }})()""")
    check(not seen, f"#step-{n} shows the step's heading, the ladder's column heads and its row" + ("" if not seen else f": {seen}"))
    if screenshot:
        shot = base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png"})["data"])
        with open(screenshot, "wb") as f:
            f.write(shot)
        check(not png_is_blank(shot), f"the screenshot {screenshot} is not blank ({len(shot)} bytes)")
    if follow:
        follow_check(browser, url, steps, check)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page")
    parser.add_argument("--screenshot")
    parser.add_argument("--presses", type=int, default=5)
    parser.add_argument("--message", default="ClientHello")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1000)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    parser.add_argument("--expect-lang", help="the page's <html lang> must be this (zh-Hans for --lang zh)")
    parser.add_argument("--expect-font", help="the title must be drawn with a platform font whose family contains this (Noto Sans CJK)")
    parser.add_argument("--slides-check", action="store_true",
                        help="the page was exported with --slides: check one step per screen in large type")
    parser.add_argument("--slides-scale", type=float, default=1.4,
                        help="with --slides-check: the explanation's font size must be at least this times the root font size")
    parser.add_argument("--print-check", action="store_true",
                        help="check the printed page: printToPDF, and every step drawn under print media without the controls")
    parser.add_argument("--min-pdf-pages", type=int, default=2,
                        help="with --print-check: the PDF must have at least this many pages")
    parser.add_argument("--layout-sizes", metavar="WxH,WxH",
                        help="only the layout, at each size (e.g. 1366x900,390x844): nothing wider than the viewport, no text below "
                             "12 px, the ClientHello's field values and hex visible without sideways scrolling, #step-14 showing "
                             "its heading, the column heads and its row; wider than 1000 px, the ladder's box does not scroll sideways")
    parser.add_argument("--directions", metavar="FILE",
                        help="with --layout-sizes: a JSON object mapping an event index (a ladder row's data-event) to "
                             "[sender, receiver], the run's JSON directions; every arrow drawn for those events must join those rails")
    parser.add_argument("--follow-check", action="store_true",
                        help="with --layout-sizes: at each size narrower than 700 px, step through every step (and land on "
                             "fragments) and check that the current row's label is in the ladder's visible part")
    parser.add_argument("--copy-check", action="store_true",
                        help="every calculation value's copy button copies the value whole (clipboard intercepted)")
    parser.add_argument("--compare-check", action="store_true",
                        help="the page was written by `tlslab compare A B --html`: at each --layout-sizes size, it fits, no text "
                             "below 12 px, the table's cells on screen, both runs' panels and ladders drawn")
    parser.add_argument("--timeout", type=float, default=90,
                        help="seconds the whole check may take before it gives up (the browser is killed)")
    args = parser.parse_args()

    class GaveUp(Exception):
        pass

    def give_up(signum, frame):
        raise GaveUp(f"signal {signum}" if signum != signal.SIGALRM else f"the check took over {args.timeout:g} s")
    # A stuck browser must not hang the test run: an overall deadline, and a clean exit when the
    # test runner terminates us (the finally below kills Chromium either way).
    signal.signal(signal.SIGALRM, give_up)
    signal.signal(signal.SIGTERM, give_up)
    signal.alarm(max(1, int(args.timeout)))
    url = "file://" + os.path.abspath(args.page)
    directions = None
    if args.directions:
        with open(args.directions) as f:
            directions = json.load(f)
    failures = []

    def check(ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            failures.append(what)

    try:
        browser = Browser(args.chromium, args.width, args.height)
    except OSError as e:
        print(f"cannot start Chromium ({args.chromium}): {e}")
        return 2
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = browser.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, session=False)
        browser.session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(domain + ".enable")
        browser.send("Emulation.setDeviceMetricsOverride", {"width": args.width, "height": args.height,
                                                            "deviceScaleFactor": 1, "mobile": False})
        browser.send("Page.navigate", {"url": url})
        browser.wait_for("Page.loadEventFired")
        browser.pump(0.5)

        if args.expect_lang:
            lang = browser.evaluate("document.documentElement.lang")
            check(lang == args.expect_lang, f"the page's language is {args.expect_lang} (got {lang})")
        if args.expect_font:
            # The fonts Chromium actually drew the title with (not the CSS wish list).
            browser.send("DOM.enable")
            browser.send("CSS.enable")
            document = browser.send("DOM.getDocument", {"depth": 0})
            node = browser.send("DOM.querySelector", {"nodeId": document["root"]["nodeId"], "selector": "header.top h1"})
            fonts = browser.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]}).get("fonts", [])
            families = [f.get("familyName", "") + " (" + str(f.get("glyphCount", 0)) + " glyphs)" for f in fonts]
            check(any(args.expect_font in f.get("familyName", "") and f.get("glyphCount", 0) > 0 for f in fonts),
                  f"the title is drawn with {args.expect_font} (fonts used: {', '.join(families) or 'none'})")

        steps = 0 if args.compare_check else browser.evaluate("document.querySelectorAll('section.step').length")
        if not args.compare_check:
            check(steps > 0, f"the page has {steps} steps")
            check(browser.evaluate("document.querySelector('#ladder g.row.current')?.getAttribute('data-step')") == "1",
                  "step 1 is highlighted on load")

        if args.compare_check:
            # A comparison page has no steps or script: only what a reader sees, at each size.
            for size in (args.layout_sizes or f"{args.width}x{args.height}").split(","):
                width, height = (int(v) for v in size.lower().split("x"))
                browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                                    "deviceScaleFactor": 1, "mobile": width < 700})
                browser.send("Page.navigate", {"url": "about:blank"})
                browser.pump(0.2)
                browser.send("Page.navigate", {"url": url})
                browser.wait_for("Page.loadEventFired")
                browser.pump(0.3)
                compare_check(browser, lambda ok, what, size=size: check(ok, f"{size}: {what}"))
                if args.screenshot:
                    shot = browser.send("Page.captureScreenshot", {"format": "png"})
                    root, ext = os.path.splitext(args.screenshot)
                    with open(f"{root}-{size}{ext}", "wb") as f:
                        f.write(base64.b64decode(shot["data"]))
        elif args.layout_sizes:
            # Only what a reader sees, at each size in turn (one browser for all).
            for size in args.layout_sizes.split(","):
                width, height = (int(v) for v in size.lower().split("x"))
                browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                                    "deviceScaleFactor": 1, "mobile": width < 700})
                browser.send("Page.navigate", {"url": "about:blank"})
                browser.pump(0.2)
                browser.send("Page.navigate", {"url": url})
                browser.wait_for("Page.loadEventFired")
                browser.pump(0.3)
                shot = None
                if args.screenshot:
                    root, ext = os.path.splitext(args.screenshot)
                    shot = f"{root}-{size}{ext}"
                layout_check(browser, url, steps, lambda ok, what, size=size: check(ok, f"{size}: {what}"),
                             directions=directions, screenshot=shot, follow=args.follow_check and width < 700,
                             wide=width > 1000)
        else:
            if args.slides_check:
                # What is drawn, not what is merely un-hidden: a section with no layout box is not on screen.
                drawn = "Array.from(document.querySelectorAll('section.step')).filter(s => s.getClientRects().length > 0).map(s => s.id)"
                check(browser.evaluate("document.body.classList.contains('slides')"), "the page is in slides mode (body.slides)")
                check(browser.evaluate(drawn) == ["step-1"], f"slides: only step 1 is drawn on load (got {browser.evaluate(drawn)})")
                slide_presses = min(3, steps - 1)
                for n in range(2, slide_presses + 2):
                    browser.key("ArrowRight", "ArrowRight", 39)
                    shown = browser.evaluate(drawn)
                    check(shown == [f"step-{n}"], f"slides: after the right arrow exactly one step is drawn, step {n} (got {shown})")
                sizes = browser.evaluate("""(() => {
                    const s = Array.from(document.querySelectorAll('section.step')).find(s => s.getClientRects().length > 0);
                    const p = document.querySelector('section.step p.why') || s;
                    const r = s ? s.getBoundingClientRect() : null;
                    return [parseFloat(getComputedStyle(p).fontSize), parseFloat(getComputedStyle(document.documentElement).fontSize),
                            r ? r.top : -1, innerHeight];
                })()""")
                check(sizes[0] >= args.slides_scale * sizes[1],
                      f"slides: the explanation is in large type ({sizes[0]:g}px, at least {args.slides_scale:g} x the root {sizes[1]:g}px)")
                check(0 <= sizes[2] < sizes[3], f"slides: the step starts on the screen (top {sizes[2]:g}px of {sizes[3]:g}px)")
                for _ in range(slide_presses):
                    browser.key("ArrowLeft", "ArrowLeft", 37)
                check(browser.evaluate(drawn) == ["step-1"], "slides: the left arrow comes back to step 1")
            presses = min(args.presses, steps - 1)
            for _ in range(presses):
                browser.key("ArrowRight", "ArrowRight", 39)
            expected = str(presses + 1)
            current = browser.evaluate("document.querySelector('#ladder g.row.current')?.getAttribute('data-step')")
            check(current == expected, f"after {presses} right-arrow presses step {expected} is highlighted (got {current})")
            shown = browser.evaluate("Array.from(document.querySelectorAll('section.step')).filter(s => !s.hidden).map(s => s.id)")
            check(shown == [f"step-{expected}"], f"only step {expected}'s explanation is shown (got {shown})")
            check(browser.evaluate("location.hash") == f"#step-{expected}", "the fragment follows the step")
            browser.key("ArrowLeft", "ArrowLeft", 37)
            check(browser.evaluate("document.querySelector('#ladder g.row.current')?.getAttribute('data-step')") == str(presses),
                  "the left arrow goes back one step")

            # A fragment opens its step.
            target_step = min(steps, 3)
            browser.evaluate(f"location.hash = '#step-{target_step}'")
            browser.pump(0.2)
            check(browser.evaluate("document.querySelector('#ladder g.row.current')?.getAttribute('data-step')") == str(target_step),
                  f"#step-{target_step} opens step {target_step}")

            # An explanation the page holds once is filled in when a later step repeats it.
            repeat = browser.evaluate("(() => { const p = document.querySelector('p[data-same]'); return p ? p.closest('section.step').getAttribute('data-step') : null; })()")
            if repeat:
                browser.evaluate(f"location.hash = '#step-{repeat}'")
                browser.pump(0.2)
                filled = browser.evaluate("Array.from(document.querySelectorAll('section.step:not([hidden]) p[data-same]')).every(p => p.textContent.length > 0 && p.textContent === document.getElementById(p.getAttribute('data-same')).textContent)")
                check(filled, f"step {repeat}'s repeated explanations are filled in")

            has_message = browser.evaluate(
                f"Array.from(document.querySelectorAll('#ladder g.row.has-bytes')).some(r => r.querySelector('title').textContent.includes({json.dumps(args.message)}))")
            if has_message:
                box = browser.evaluate(f"""(() => {{
                    const row = Array.from(document.querySelectorAll('#ladder g.row.has-bytes'))
                        .find(r => r.querySelector('title').textContent.includes({json.dumps(args.message)}));
                    row.scrollIntoView({{block: 'center'}});
                    const r = row.querySelector('line.arrow').getBoundingClientRect();
                    return [r.left + r.width / 2, r.top + r.height / 2, row.getAttribute('data-step')];
                }})()""")
                browser.click(box[0], box[1])
                browser.pump(0.2)
                opened = browser.evaluate("""(() => {
                    const s = document.querySelector('section.step:not([hidden])');
                    const d = s && s.querySelector('details.bytes');
                    return d ? [s.id, d.open, d.querySelectorAll('pre.hexdump b').length, d.querySelectorAll('table.fields tbody tr').length] : [s && s.id, false, 0, 0];
                })()""")
                check(opened[0] == f"step-{box[2]}" and opened[1] and opened[2] > 0 and opened[3] > 0,
                      f"clicking the {args.message} arrow opens its bytes (step {box[2]}: {opened})")
                field = browser.evaluate("""(() => {
                    const d = document.querySelector('section.step:not([hidden]) details.bytes');
                    const tr = Array.from(d.querySelectorAll('table.fields tr.leaf')).find(t => +t.getAttribute('data-l') > 1);
                    tr.scrollIntoView({block: 'center'});
                    const r = tr.getBoundingClientRect();
                    return [r.left + 20, r.top + r.height / 2, +tr.getAttribute('data-o'), +tr.getAttribute('data-l')];
                })()""")
                browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": field[0], "y": field[1]})
                browser.pump(0.1)
                lit = browser.evaluate("""(() => {
                    const d = document.querySelector('section.step:not([hidden]) details.bytes');
                    const all = Array.from(d.querySelectorAll('pre.hexdump b'));
                    return all.map((b, i) => b.classList.contains('hl') ? i : -1).filter(i => i >= 0);
                })()""")
                check(lit == list(range(field[2], field[2] + field[3])),
                      f"pointing at a field lights up its bytes {field[2]}..{field[2] + field[3] - 1} in the hex dump")
                # The reverse: pointing at the field's last byte in the dump lights up its row and names it.
                browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 1, "y": 1})
                byte = browser.evaluate(f"""(() => {{
                    const d = document.querySelector('section.step:not([hidden]) details.bytes');
                    const b = d.querySelectorAll('pre.hexdump b')[{field[2] + field[3] - 1}];
                    b.scrollIntoView({{block: 'center'}});
                    const r = b.getBoundingClientRect();
                    return [r.left + r.width / 2, r.top + r.height / 2];
                }})()""")
                browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": byte[0], "y": byte[1]})
                browser.pump(0.1)
                named = browser.evaluate(f"""(() => {{
                    const d = document.querySelector('section.step:not([hidden]) details.bytes');
                    const rows = Array.from(d.querySelectorAll('table.fields tr.hl'));
                    const b = d.querySelectorAll('pre.hexdump b')[{field[2] + field[3] - 1}];
                    return [rows.map(r => +r.getAttribute('data-o')), b.title];
                }})()""")
                check(named[0] == [field[2]] and named[1] != "",
                      f"pointing at a byte of the dump lights up the field it belongs to and names it ({named})")
                browser.evaluate("window.scrollTo(0, 0)")

                # Keyboard only: Tab from the top of the page reaches the message's arrow, Enter opens its bytes.
                browser.evaluate("location.hash = '#step-1'; document.querySelectorAll('details.bytes').forEach(d => d.open = false); "
                                 "document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
                browser.pump(0.2)
                target = box[2]
                reached = False
                for _ in range(80):
                    browser.key("Tab", "Tab", 9)
                    if browser.evaluate("document.activeElement && document.activeElement.getAttribute('data-step')") == target:
                        reached = True
                        break
                check(reached, f"Tab reaches the {args.message} arrow (step {target})")
                if reached:
                    browser.key("Enter", "Enter", 13)
                    browser.pump(0.2)
                    opened = browser.evaluate(f"(() => {{ const s = document.querySelector('section.step:not([hidden])'); const d = s && s.querySelector('details.bytes'); return !!(s && s.id === 'step-{target}' && d && d.open); }})()")
                    check(opened, f"Enter on the {args.message} arrow opens its bytes")
            else:
                print(f"note  no {args.message} arrow on this page: the bytes check is skipped")

            if args.screenshot:
                browser.evaluate(f"location.hash = '#step-{min(steps, 14)}'")
                browser.pump(0.3)
                shot = base64.b64decode(browser.send("Page.captureScreenshot", {"format": "png"})["data"])
                with open(args.screenshot, "wb") as f:
                    f.write(shot)
                check(not png_is_blank(shot), f"the screenshot {args.screenshot} is not blank ({len(shot)} bytes)")

            if args.copy_check:
                copy_check(browser, check)

            if args.print_check:
                # Printing fires beforeprint, which fills in the explanations the page stores once and opens
                # every bytes table; the PDF must hold the whole run on several pages.
                pdf = base64.b64decode(browser.send("Page.printToPDF", {"printBackground": False}, timeout=60)["data"])
                pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))
                check(pdf.startswith(b"%PDF-") and pages >= args.min_pdf_pages,
                      f"printToPDF gives a PDF of {pages} page(s), at least {args.min_pdf_pages} ({len(pdf)} bytes)")
                browser.send("Emulation.setEmulatedMedia", {"media": "print"})
                browser.pump(0.2)
                check(browser.evaluate("matchMedia('print').matches"), "print media is emulated")
                hidden = browser.evaluate("""Array.from(document.querySelectorAll('button, .controls, .skip, .keys, nav'))
                    .filter(e => e.getClientRects().length > 0).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : ''))""")
                check(not hidden, f"print: no button or navigation is drawn (drawn: {hidden})")
                missing = browser.evaluate("""(() => {
                    // checkVisibility is false inside a closed <details> (content-visibility: hidden) too.
                    const drawn = e => e.getClientRects().length > 0 && e.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true});
                    const out = [];
                    document.querySelectorAll('section.step').forEach(s => {
                        if (!drawn(s)) { out.push(s.id + ' section'); return; }
                        const h = s.querySelector('h2');
                        if (!h || !drawn(h) || !h.textContent.trim()) { out.push(s.id + ' heading'); }
                        // An empty paragraph stored as such is a blank line between paragraphs; one the page
                        // fills in by script (data-same) must hold the text of the paragraph it repeats.
                        s.querySelectorAll('p.why').forEach((p, i) => {
                            if (!drawn(p)) { out.push(s.id + ' explanation ' + (i + 1)); }
                            const same = p.getAttribute('data-same');
                            if (same && !(p.textContent.trim() && p.textContent === (document.getElementById(same) || {}).textContent)) {
                                out.push(s.id + ' repeat of ' + same);
                            }
                        });
                        s.querySelectorAll('.facts').forEach((f, i) => { if (!drawn(f)) { out.push(s.id + ' facts ' + (i + 1)); } });
                        s.querySelectorAll('details.bytes').forEach(d => {
                            const t = d.querySelector('table.fields');
                            if (!t || !drawn(t)) { out.push(s.id + ' bytes table'); }
                        });
                    });
                    return out;
                })()""")
                counts = browser.evaluate("[document.querySelectorAll('section.step').length, document.querySelectorAll('section.step p.why').length, "
                                          "document.querySelectorAll('section.step p.why[data-same]').length, document.querySelectorAll('section.step details.bytes').length]")
                check(not missing, f"print: every step is drawn with its heading, explanations and bytes ({counts[0]} steps, {counts[1]} explanations "
                                   f"of which {counts[2]} filled in by script, {counts[3]} bytes tables)" + ("" if not missing else f"; missing: {missing[:12]}"))
                ladder = browser.evaluate("""(() => {
                    const svg = document.getElementById('ladder');
                    if (!svg || svg.getClientRects().length === 0) { return ['no ladder drawn']; }
                    const out = [];
                    let box = svg.getBoundingClientRect();
                    for (let e = svg.parentElement; e && e !== document.body; e = e.parentElement) {
                        const st = getComputedStyle(e);
                        if (st.display === 'none' || st.visibility === 'hidden') { out.push(e.className + ' hides it'); }
                        if (st.overflowX !== 'visible' || st.overflowY !== 'visible') {
                            const r = e.getBoundingClientRect();
                            if (box.top < r.top - 1 || box.bottom > r.bottom + 1 || box.left < r.left - 1 || box.right > r.right + 1) {
                                out.push((e.className || e.tagName) + ' clips it');
                            }
                        }
                    }
                    const rows = svg.querySelectorAll('g.row');
                    const cut = Array.from(rows).filter(g => { const r = g.getBoundingClientRect(); return r.height === 0 || r.bottom > box.bottom + 1 || r.right > box.right + 1; });
                    if (cut.length) { out.push(cut.length + ' of ' + rows.length + ' rows outside the drawing'); }
                    if (box.right > document.documentElement.clientWidth + 1) { out.push('wider than the page'); }
                    return out;
                })()""")
                check(not ladder, "print: the whole ladder drawing is visible" + ("" if not ladder else f" ({'; '.join(ladder)})"))
                browser.send("Emulation.setEmulatedMedia", {"media": ""})

        browser.pump(0.3)
        problems = []
        for e in browser.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.exceptionThrown":
                problems.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:300])
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                problems.append("console: " + json.dumps(params.get("args", []))[:300])
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
                problems.append("log: " + params["entry"].get("text", "")[:300])
        check(not problems, "no console error, exception or policy violation" + ("" if not problems else ": " + "; ".join(problems)))
        requests = [e["params"]["request"]["url"] for e in browser.events if e.get("method") == "Network.requestWillBeSent"]
        foreign = [u for u in requests if not (u.startswith("file://") or u.startswith("data:"))]
        check(not foreign, f"no network request ({len(requests)} request(s), all for the file itself)" if not foreign
              else f"network requests: {foreign}")
        check(all(u.split("#")[0] == url for u in requests if u.startswith("file://")), "the page loads no other file")
    except (TimeoutError, EOFError, RuntimeError, GaveUp) as e:
        check(False, f"browser session: {e}")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        browser.close()
    print(f"{len(failures)} check(s) failed" if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
