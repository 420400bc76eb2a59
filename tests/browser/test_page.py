"""The page of `ttt serve` in a real browser: headless Chromium (Debian's, with its driver)
driven by Selenium. It plays a whole game against `perfect` by clicking, checking the hints
against `ttt analyze --format json` at every turn of the player and the value history against
`ttt review --format json`, the last move marked and the winning line struck through; reviews a
pasted game step by step; loads the map; and takes screenshots, in the light and dark schemes
at a phone's width, that it checks are not blank. Where `docs_screenshots` is set, it also
takes the screenshots of docs/web.md, into docs/images/.

Run by .ci/test: python -m unittest tests/browser/test_page.py, with TTT the binary to test.
"""

import base64
import json
import os
import shutil
import struct
import subprocess
import tempfile
import unittest
import zlib
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
TTT = os.environ.get("TTT", str(ROOT / "target" / "debug" / "ttt"))
SHOTS = ROOT / "target" / "browser"
DOCS_IMAGES = ROOT / "docs" / "images"
PHONE = (412, 915)
DESKTOP = (1000, 800)
# The lines of tic-tac-toe, cells numbered from 1 row by row.
LINES = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7)]
MISTAKES = ("win_to_draw", "win_to_loss", "draw_to_loss")


def ttt_json(*args):
    out = subprocess.run([TTT, *args, "--format", "json"], capture_output=True, check=True)
    return json.loads(out.stdout)


def png_pixels(data):
    """The distinct pixels of an 8-bit RGB or RGBA PNG, and its size: enough to tell a blank
    screenshot from a page."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, kind = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        tag, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and kind in (2, 6), f"a PNG of depth {depth}, colour type {kind}"
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    step = 3 if kind == 2 else 4
    raw, stride = zlib.decompress(idat), width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind_of_filter, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - step] if i >= step else 0
            b, c = previous[i], previous[i - step] if i >= step else 0
            if kind_of_filter == 1:
                line[i] = (line[i] + a) & 255
            elif kind_of_filter == 2:
                line[i] = (line[i] + b) & 255
            elif kind_of_filter == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind_of_filter == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    pixels = {row[i:i + 3] for row in rows[::4] for i in range(0, stride, step * 4)}
    return pixels, (width, height)


class Page:
    """The tests of the page, whoever serves it: a subclass starts the server (`start`, which
    sets `server` and `url`), and sets `docs_screenshots` when its page is the one whose
    screenshots docs/web.md shows."""

    docs_screenshots = False

    @classmethod
    def setUpClass(cls):
        cls.start()
        cls.profile = tempfile.mkdtemp(prefix="ttt-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", f"--user-data-dir={cls.profile}",
                     f"--window-size={PHONE[0]},{PHONE[1]}"):
            options.add_argument(flag)
        driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        cls.browser = webdriver.Chrome(options=options, service=Service(driver))
        cls.browser.set_page_load_timeout(30)
        # A phone's viewport (a headless window is at least 500 pixels wide).
        cls.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True})
        SHOTS.mkdir(parents=True, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.browser.quit()
        cls.server.terminate()
        cls.server.wait(timeout=10)
        shutil.rmtree(cls.profile, ignore_errors=True)

    def wait(self, condition, what, timeout=20):
        return WebDriverWait(self.browser, timeout).until(lambda _: condition(), message=what)

    def find(self, selector):
        return self.browser.find_element(By.CSS_SELECTOR, selector)

    def board(self, selector="#board"):
        """The marks on the board: cell -> X or O."""
        marks = self.browser.execute_script(
            "return [...document.querySelectorAll(arguments[0] + ' .cell[data-mark]')]"
            ".map((c) => [c.dataset.cell, c.dataset.mark])", selector)
        return {int(cell): mark for cell, mark in marks}

    def hints(self):
        """The hints on the board: cell -> (value, remoteness)."""
        shown = self.browser.execute_script(
            "return [...document.querySelectorAll('#board .cell[data-value]')]"
            ".map((c) => [c.dataset.cell, c.dataset.value, c.dataset.remoteness])")
        return {int(cell): (value, int(remoteness)) for cell, value, remoteness in shown}

    def status(self):
        return self.find("#status").text

    def cells(self, selector):
        """The numbers of the cells matching `selector`, in order."""
        return self.browser.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map((c) => +c.dataset.cell)",
            selector)

    def check_winning_line(self, selector, board, status):
        """The cells of the winner's lines, and only those, marked `win-line` and struck
        through, one stroke a line."""
        winner = {"x_wins": "X", "o_wins": "O"}.get(status)
        lines = [line for line in LINES if winner and all(board.get(c) == winner for c in line)]
        self.assertEqual(self.cells(f"{selector} .cell.win-line"),
                         sorted({c for line in lines for c in line}), f"the winning line of {board}")
        strokes = self.browser.find_elements(By.CSS_SELECTOR, f"{selector} .strike line")
        self.assertEqual(len(strokes), len(lines))

    def test_1_a_whole_game_against_perfect_with_hints_checked(self):
        self.browser.get(self.url)
        self.wait(lambda: "your turn" in self.status(), "the first turn")
        self.find("#hints").click()
        moves = []
        while True:
            self.wait(lambda: "thinking" not in self.status(), "the opponent's move")
            on_board = self.board()
            new = [cell for cell in on_board if cell not in moves]
            self.assertLessEqual(len(new), 1, "one move a turn")
            moves += new
            self.assertEqual(self.cells("#board .cell.last"), moves[-1:], "the last move marked")
            if "your turn" not in self.status():
                break
            self.wait(self.hints, "the hints")
            analysis = ttt_json("analyze", "--moves", " ".join(map(str, moves)))
            shown = self.hints()
            expected = {m["cell"]: (m["value"], m["remoteness"]) for m in analysis["moves"]}
            self.assertEqual(shown, expected, f"hints after {moves}")
            # Each hint written on its cell, the value in a word beside its colour; ★ on the best.
            for cell, text, best in self.browser.execute_script(
                    "return [...document.querySelectorAll('#board .cell[data-value]')]"
                    ".map((c) => [+c.dataset.cell, c.innerText, c.classList.contains('best')])"):
                value, remoteness = expected[cell]
                words = text.lower().split()
                self.assertIn(value, words, f"cell {cell}: {text!r}")
                self.assertIn(str(remoteness), words, f"cell {cell}: {text!r}")
                self.assertEqual(best, cell in analysis["best"], f"cell {cell}: {text!r}")
                self.assertEqual("★" in text, best)
            # The lowest free cell each time: the player errs, and the chart must say where.
            cell = min(expected)
            self.find(f'#board [data-cell="{cell}"]').click()
            moves.append(cell)
            self.wait(lambda: cell in self.board(), "the move on the board")
        review = ttt_json("review", "--moves", " ".join(map(str, moves)))
        self.assertNotEqual(review["status"], "in_progress")
        self.assertEqual(self.find("#status").get_attribute("data-status"), review["status"])
        self.assertIn("perfect wins" if review["status"] != "draw" else "Draw", self.status())
        self.check_winning_line("#board", self.board(), review["status"])
        self.assertEqual(self.cells("#board .cell.last"), moves[-1:])
        self.assertGreater(review["mistakes"], 0)
        rings = self.browser.find_elements(By.CSS_SELECTOR, "#chart .mistake-ring")
        self.assertEqual(sorted(int(r.get_attribute("data-ply")) for r in rings),
                         [p["ply"] for p in review["plies"] if p["verdict"] in
                          ("win_to_draw", "win_to_loss", "draw_to_loss")])
        dots = self.browser.find_elements(By.CSS_SELECTOR, "#chart circle.dot")
        self.assertEqual(len(dots), len(moves) + 1, "a point a position")
        (SHOTS / "game-over.png").write_bytes(self.browser.get_screenshot_as_png())
        # Undo goes back to the player's last turn.
        self.find("#undo").click()
        self.wait(lambda: "your turn" in self.status(), "the turn undone")
        self.assertEqual(len(self.board()), len(moves) - 2 + (len(moves) % 2 == 1))
        width, viewport = self.browser.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]")
        self.assertEqual(viewport, PHONE[0])
        self.assertLessEqual(width, viewport, "the page fits a phone's width")
        self.browser.execute_script("document.getElementById('status').scrollIntoView()")
        (SHOTS / "game-undone.png").write_bytes(self.browser.get_screenshot_as_png())

    def test_2_keys_play_and_undo(self):
        self.browser.get(self.url)
        self.wait(lambda: "your turn" in self.status(), "the first turn")
        body = self.find("body")
        body.send_keys("5")
        self.wait(lambda: len(self.board()) == 2 and "your turn" in self.status(), "a reply")
        self.assertEqual(self.board()[5], "X")
        body.send_keys("u")
        self.wait(lambda: self.board() == {}, "the move undone")
        body.send_keys("h")
        self.wait(lambda: len(self.hints()) == 9, "the hints")
        # The arrows move the focus from cell to cell, Enter plays there, and the focus stays
        # on that cell through the redrawing of the board.
        self.find('#board [data-cell="1"]').send_keys(Keys.ARROW_RIGHT, Keys.ARROW_DOWN)
        self.browser.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait(lambda: len(self.board()) == 2 and "your turn" in self.status(), "a reply")
        self.assertEqual(self.board()[5], "X")
        self.assertEqual(self.browser.switch_to.active_element.get_attribute("data-cell"), "5")

    def test_3_a_pasted_game_reviewed_step_by_step(self):
        self.browser.get(self.url + "#review")
        self.wait(lambda: "your turn" in self.status(), "the page")
        self.find("#review-text").send_keys("You are X.\nresult: o_wins moves: 5 3 9 1 4 2\n")
        self.find("#review-go").click()
        self.wait(lambda: "1 mistake" in self.find("#review-status").text, "the review")
        self.find("#review-first").click()
        self.wait(lambda: self.find("#review-step").text.startswith("ply 0 of 6"), "ply 0")
        for _ in range(5):
            self.find("#review-next").click()
        self.wait(lambda: "ply 5 of 6" in self.find("#review-step").text, "ply 5")
        self.assertIn("X played 4, draw to loss (best 2)", self.find("#review-step").text)
        self.wait(lambda: self.browser.find_elements(By.CSS_SELECTOR,
                                                     '#review-board .mistake[data-cell="4"]'),
                  "the mistake marked on the board")
        self.assertEqual(self.board("#review-board"), {5: "X", 3: "O", 9: "X", 1: "O", 4: "X"})
        self.assertEqual(self.cells("#review-board .cell.last"), [4])
        self.check_winning_line("#review-board", self.board("#review-board"), "in_progress")
        items = self.browser.find_elements(By.CSS_SELECTOR, "#review-list li")
        self.assertEqual([i.get_attribute("data-verdict") for i in items],
                         ["best", "best", "best", "best", "draw_to_loss", "best"])
        self.find("#review-last").click()
        self.wait(lambda: "ply 6 of 6" in self.find("#review-step").text, "ply 6")
        self.wait(lambda: len(self.board("#review-board")) == 6, "the last ply's board")
        self.check_winning_line("#review-board", self.board("#review-board"), "o_wins")
        self.browser.execute_script(
            "document.getElementById('review-chart').scrollIntoView()")
        (SHOTS / "review.png").write_bytes(self.browser.get_screenshot_as_png())
        self.find("#review-text").clear()
        self.find("#review-text").send_keys("5 5")
        self.find("#review-go").click()
        self.wait(lambda: "already taken" in self.find("#review-status").text, "the error")

    def test_4_the_map_and_screenshots_in_both_schemes(self):
        self.browser.get(self.url + "#map")
        self.wait(lambda: self.browser.execute_script(
            "const i = document.getElementById('map-image'); return i.complete && i.naturalWidth"),
            "the map")
        self.find("#zoom-in").click()
        self.assertEqual(self.find("#zoom-level").text, "200%")
        backgrounds = []
        for scheme in ("light", "dark"):
            self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                "features": [{"name": "prefers-color-scheme", "value": scheme}]})
            self.browser.get(self.url)
            self.wait(lambda: "your turn" in self.status(), "the page")
            shot = self.browser.get_screenshot_as_png()
            (SHOTS / f"page-{scheme}.png").write_bytes(shot)
            pixels, size = png_pixels(shot)
            self.assertGreater(size[0], 300)
            self.assertGreater(len(pixels), 20, f"the {scheme} screenshot is blank")
            backgrounds.append(self.browser.execute_script(
                "return getComputedStyle(document.body).backgroundColor"))
        self.assertNotEqual(backgrounds[0], backgrounds[1], "the dark scheme is not applied")

    def test_5_winning_lines_of_other_games(self):
        """A won game's lines, in any direction and for any k, struck through as the library
        finds them (`won_lines` of `ttt analyze --format json`), on the reviewed board."""
        self.browser.get(self.url + "#review")
        self.wait(lambda: "your turn" in self.status(), "the page")
        games = [("3x4", "1 5 2 6 3"), ("4x4k3", "1 12 6 13 11"), ("4x4k3", "13 4 1 7 2 10"),
                 ("4X4K2", "1 5 2"), ("4x4k3", "1 4 2 5")]
        for game, moves in games:
            analysis = ttt_json("analyze", "--game", game, "--moves", moves)
            lines = analysis.get("won_lines", [])
            self.find("#review-game").clear()
            self.find("#review-game").send_keys(game)
            self.browser.execute_script(
                "document.getElementById('review-text').value = arguments[0]", moves)
            self.find("#review-go").click()
            self.wait(lambda: "plies" in self.find("#review-status").text
                      and f"ply {len(moves.split())} of" in self.find("#review-step").text,
                      f"the review of {game} {moves}")
            shown = self.browser.execute_script(
                "return [...document.querySelectorAll('#review-board .cell.win-line')]"
                ".map((c) => +c.dataset.cell)")
            self.assertEqual(sorted(shown), sorted({c for line in lines for c in line}),
                             f"{game} {moves}")
            struck = self.browser.find_elements(By.CSS_SELECTOR, "#review-board .strike line")
            self.assertEqual(len(struck), len(lines), f"{game} {moves}")
        self.assertEqual([len(ttt_json("analyze", "--game", g, "--moves", m).get("won_lines", []))
                          for g, m in games], [1, 1, 1, 1, 0])

    def test_9_two_digit_cells_by_their_numbers(self):
        self.browser.get(self.url)
        self.wait(lambda: "your turn" in self.status(), "the page")
        self.browser.execute_script("""
            document.getElementById('game').value = '3x4';
            document.getElementById('game').dispatchEvent(new Event('change'));
            document.getElementById('opponent').value = 'perfect';
            document.getElementById('side').value = 'X';
            document.getElementById('new').click();""")
        self.wait(lambda: "your turn" in self.status() and len(self.browser.find_elements(
            By.CSS_SELECTOR, "#board .cell")) == 12, "3x4's first turn")
        body = self.find("body")
        body.send_keys("1", "1")
        self.wait(lambda: len(self.board()) == 2 and "your turn" in self.status(), "a reply")
        self.assertEqual(self.board()[11], "X")
        # A digit that could start a longer number is played once no other follows.
        body.send_keys("1")
        self.wait(lambda: len(self.board()) == 4, "cell 1 and a reply")
        self.assertEqual(self.board()[1], "X")

    def test_7_a_whole_transcript_is_reviewed(self):
        # A transcript of `ttt play --hints` is longer than an address may be (2,048 bytes,
        # escaped): the page posts it.
        moves = "\n".join(map(str, range(1, 10))) + "\n"
        transcript = subprocess.run(
            [TTT, "play", "--hints", "--opponent", "random", "--seed", "3"], input=moves.encode(),
            capture_output=True, check=True).stdout.decode()
        self.assertGreater(len(transcript), 1500)
        result = transcript.strip().splitlines()[-1]
        played = result.split("moves:")[1].split()
        review = ttt_json("review", "--moves", " ".join(played))
        self.browser.get(self.url + "#review")
        self.wait(lambda: "your turn" in self.status(), "the page")
        self.browser.execute_script(
            "document.getElementById('review-text').value = arguments[0]", transcript)
        self.find("#review-go").click()
        mistakes = review["mistakes"]
        self.wait(lambda: f"{len(played)} plies" in self.find("#review-status").text,
                  "the review")
        self.assertIn(f"{mistakes} mistake", self.find("#review-status").text)
        # Nothing pasted: said so, and the last review's board is gone.
        self.browser.execute_script("document.getElementById('review-text').value = ''")
        self.find("#review-go").click()
        self.wait(lambda: "Paste a game first" in self.find("#review-status").text, "the hint")
        self.assertEqual(self.board("#review-board"), {})

    def test_6_screenshots_for_the_docs(self):
        """docs/web.md's screenshots, made here so that they show the page as it is: a game
        against `random` half played with the hints on, in the light and dark schemes and at
        a phone's width, and a review. Math.random is fixed, so the same game each time."""
        if not self.docs_screenshots:
            self.skipTest("docs/web.md shows the screenshots of another page")
        script = self.browser.execute_cdp_cmd(
            "Page.addScriptToEvaluateOnNewDocument", {"source": "Math.random = () => 0.5;"})
        self.browser.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": True})
        try:
            self.take_docs_screenshots()
        finally:
            self.browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", script)
            self.browser.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": False})
            self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            self.viewport(PHONE, mobile=True)

    def viewport(self, size, mobile):
        self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": mobile})

    def scheme(self, scheme):
        # No animation: a mark or a line is drawn whole in the screenshot.
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": scheme},
            {"name": "prefers-reduced-motion", "value": "reduce"}]})

    def docs_shot(self, name, selector, until=None):
        """A PNG of the element `selector` (down to the end of the element `until` in it) and
        a margin around it, into docs/images/: not blank, and small."""
        x, y, width, height = self.browser.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "const end = arguments[1] ? document.querySelector(arguments[1])"
            "  .getBoundingClientRect().bottom : r.bottom;"
            "return [r.left + scrollX, r.top + scrollY, r.width, end - r.top]", selector, until)
        margin = min(8, x)
        clip = {"x": x - margin, "y": y - margin, "width": width + 2 * margin,
                "height": height + 2 * margin, "scale": 1}
        shot = base64.b64decode(self.browser.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "clip": clip, "captureBeyondViewport": True})["data"])
        pixels, size = png_pixels(shot)
        self.assertGreater(len(pixels), 20, f"{name} is blank")
        self.assertLess(len(shot), 150_000, f"{name}: {len(shot)} bytes")
        DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
        (DOCS_IMAGES / name).write_bytes(shot)

    def take_docs_screenshots(self):
        self.viewport(DESKTOP, mobile=False)
        self.scheme("light")
        self.browser.get(self.url)
        self.wait(lambda: "your turn" in self.status(), "the page")
        body = self.find("body")
        self.browser.execute_script("document.getElementById('opponent').value = 'random'")
        body.send_keys("n")  # the new game starts at once, against random
        body.send_keys("h")
        for cell, marks in ((1, 2), (8, 4)):
            body.send_keys(str(cell))
            self.wait(lambda: len(self.board()) == marks and "your turn" in self.status(),
                      "the reply")
        self.wait(lambda: len(self.hints()) == 5, "the hints")
        self.docs_shot("page-light.png", "#play")
        self.scheme("dark")
        self.docs_shot("page-dark.png", "#play")
        self.scheme("light")
        self.viewport(PHONE, mobile=True)
        self.docs_shot("page-phone.png", "#play", until="#play .actions")
        self.viewport(DESKTOP, mobile=False)
        self.find("#review-text").send_keys("result: o_wins moves: 5 3 9 1 4 2")
        self.find("#review-go").click()
        self.wait(lambda: "ply 6 of 6" in self.find("#review-step").text, "the review")
        self.wait(lambda: len(self.board("#review-board")) == 6, "the last board")
        self.docs_shot("review.png", "#review")


class Served(Page, unittest.TestCase):
    """The page as `ttt serve` serves it, its answers from the server's API."""

    docs_screenshots = True

    @classmethod
    def start(cls):
        cls.server = subprocess.Popen(
            [TTT, "serve", "--port", "0"], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL
        )
        line = cls.server.stdout.readline().decode()
        cls.url = next(word for word in line.split() if word.startswith("http://"))


if __name__ == "__main__":
    unittest.main()
