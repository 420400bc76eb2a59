"""The page written as static files (`node js/page.cjs FOLDER`, docs/web.md "Without a server")
in headless Chromium, served by Python's static file server with no `ttt` running: every test
of the served page (tests/browser/test_page.py) again, its answers made in the browser by the
library as WebAssembly; then what only the static page has: its download for 3x3 (at most 1 MB
gzipped), interactive within 1 s of a cold load, 4x4 solved in the worker with its progress
shown and ready within 5 s, and a damaged module reported on the page.

Run by .ci/test: python -m unittest tests/browser/test_static.py, with TTT_PAGE the folder the
page was written to (written here into a temporary folder when unset) and TTT the binary the
answers are compared with.
"""

import gzip
import os
import shutil
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from tests.browser.test_page import ROOT, Page, ttt_json

# What the page's figures are measured against (issue: "In the browser and in Node").
MAX_GZIPPED = 1_000_000
MAX_INTERACTIVE_MS = 1000
MAX_4X4_MS = 5000


def serve(folder):
    """Python's static file server on a free port of 127.0.0.1, serving `folder`; the process
    and the page's address."""
    server = subprocess.Popen(
        ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory",
         str(folder)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    # "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
    line = server.stdout.readline().decode()
    return server, next(w for w in line.split() if w.startswith("(http://"))[1:-1]


class Static(Page, unittest.TestCase):
    docs_screenshots = False

    @classmethod
    def start(cls):
        cls.written = None
        folder = os.environ.get("TTT_PAGE")
        if folder is None:
            cls.written = tempfile.mkdtemp(prefix="ttt-page-")
            folder = Path(cls.written) / "page"
            subprocess.run(["node", str(ROOT / "js" / "page.cjs"), str(folder)], check=True,
                           stdout=subprocess.DEVNULL)
        cls.folder = Path(folder)
        cls.server, cls.url = serve(cls.folder)

    @classmethod
    def tearDownClass(cls):
        super().tearDownClass()
        cls.server.stdout.close()
        if cls.written:
            shutil.rmtree(cls.written, ignore_errors=True)

    def interactive_ms(self):
        """Milliseconds from the start of navigation until the page says it is the player's
        turn (an upper bound: the page is drawn and clickable by then)."""
        return self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const check = () => document.getElementById('status').textContent.includes('your turn')
                ? done(performance.now()) : setTimeout(check, 5);
            check();""")

    def test_5_the_download_for_3x3_is_small_and_loads_within_a_second(self):
        gzipped = sum(len(gzip.compress(f.read_bytes(), 9)) for f in self.folder.iterdir())
        self.assertLessEqual(gzipped, MAX_GZIPPED, f"the page's files gzip to {gzipped} bytes")
        self.browser.execute_cdp_cmd("Network.enable", {})
        self.browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        try:
            times = []
            for _ in range(3):
                self.browser.get(self.url)
                times.append(self.interactive_ms())
        finally:
            self.browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        fetched = self.browser.execute_script(
            "return performance.getEntriesByType('resource').map((e) => e.name)")
        names = {name.rsplit("/", 1)[1].split("?")[0] for name in fetched}
        # The module is fetched by the worker, whose fetches this list leaves out.
        self.assertLessEqual({"style.css", "engine.js", "app.js", "worker.js"}, names)
        self.assertLessEqual(names, {f.name for f in self.folder.iterdir()},
                             "every file the page fetched is its own")
        print(f"\nstatic page: {gzipped} bytes gzipped; interactive after "
              f"{', '.join(f'{t:.0f}' for t in times)} ms (cold, cache disabled)")
        self.assertLessEqual(sorted(times)[1], MAX_INTERACTIVE_MS, f"interactive after {times} ms")

    def test_6_4x4_is_solved_in_the_browser_with_its_progress_shown(self):
        self.browser.get(self.url)
        self.wait(lambda: "your turn" in self.status(), "the page")
        # Every progress the page shows, noted as it changes.
        self.browser.execute_script("""
            window.seen = [];
            const solving = document.getElementById('solving');
            new MutationObserver(() => window.seen.push([solving.hidden,
                solving.querySelector('progress').value, solving.textContent.trim()]))
              .observe(solving, {attributes: true, childList: true, subtree: true});""")
        self.browser.execute_script("""
            document.getElementById('game').value = '4x4';
            document.getElementById('game').dispatchEvent(new Event('change'));""")
        started = time.monotonic()
        self.find("#new").click()
        self.wait(lambda: "your turn" in self.status() and len(self.browser.find_elements(
            "css selector", "#board .cell")) == 16, "4x4's first turn", timeout=30)
        elapsed = (time.monotonic() - started) * 1000
        seen = self.browser.execute_script("return window.seen")
        print(f"\n4x4 ready after {elapsed:.0f} ms; {len(seen)} progress updates")
        self.assertTrue(any("Solving 4x4" in text for _, _, text in seen), seen)
        self.assertTrue(any(0 < value < 1 for _, value, _ in seen), "a share between 0 and 1")
        self.assertTrue(self.find("#solving").get_attribute("hidden") is not None,
                        "the progress hidden once solved")
        self.assertLessEqual(elapsed, MAX_4X4_MS)
        # Its answers are the table's: the hints of a 4x4 position against `ttt analyze`.
        self.find("#hints").click()
        self.find('#board [data-cell="6"]').click()
        self.wait(lambda: len(self.board()) == 2 and "your turn" in self.status(), "a reply")
        moves = [6] + [cell for cell in self.board() if cell != 6]
        self.wait(self.hints, "the hints")
        analysis = ttt_json("analyze", "--game", "4x4", "--moves", " ".join(map(str, moves)))
        self.assertEqual(self.hints(),
                         {m["cell"]: (m["value"], m["remoteness"]) for m in analysis["moves"]})

    def test_8_a_damaged_or_missing_file_is_reported_on_the_page(self):
        for name, damage, said in [
            ("ttt_oracle.wasm", lambda f: f.write_bytes(f.read_bytes()[:1000]), "the engine failed"),
            ("ttt_oracle.wasm", lambda f: f.unlink(), "ttt_oracle.wasm: HTTP 404"),
            ("worker.js", lambda f: f.unlink(), "worker.js could not be started"),
        ]:
            damaged = Path(tempfile.mkdtemp(prefix="ttt-damaged-"))
            try:
                for file in self.folder.iterdir():
                    shutil.copy(file, damaged / file.name)
                damage(damaged / name)
                server, url = serve(damaged)
                try:
                    self.browser.get(url)
                    self.wait(lambda: "Error" in self.status(), f"the error ({name})")
                    self.assertIn(said, self.status())
                    # Asked again (a review), it fails at once too, rather than never answering.
                    self.browser.execute_script(
                        "document.getElementById('review-text').value = '5 1'")
                    self.find("#review-go").click()
                    self.wait(lambda: "Error" in self.find("#review-status").text,
                              f"the review's error ({name})")
                finally:
                    server.terminate()
                    server.wait(timeout=10)
                    server.stdout.close()
            finally:
                shutil.rmtree(damaged, ignore_errors=True)

    def test_7_a_new_game_while_the_last_is_solved_starts_clean(self):
        self.browser.get(self.url)
        self.wait(lambda: "your turn" in self.status(), "the page")
        choose = """
            const [game, side] = arguments;
            document.getElementById('game').value = game;
            document.getElementById('game').dispatchEvent(new Event('change'));
            document.getElementById('side').value = side;
            document.getElementById('new').click();"""
        # 4x4k3 as O: solved in the worker, then its opponent's first move asked; meanwhile
        # 3x3 as O, whose opponent moves first too.
        self.browser.execute_script(choose, "4x4k3", "O")
        self.browser.execute_script(choose, "3x3", "O")
        self.wait(lambda: "your turn" in self.status(), "3x3's first turn")
        # Once 4x4k3's answers have come (its solve, then its opponent's move), none of them
        # has reached 3x3's game: one mark, X's, and O to move.
        time.sleep(3)
        self.assertEqual(list(self.board().values()), ["X"])
        self.assertIn("O to move: your turn", self.status())
        self.assertEqual(len(self.browser.find_elements("css selector", "#board .cell")), 9)


if __name__ == "__main__":
    unittest.main()
