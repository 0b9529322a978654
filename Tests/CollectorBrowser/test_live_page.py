"""The live page in a real browser: Debian's chromium, headless, driven by Selenium.

An event posted to the collector appears, a violation is marked with its rule, the filters work, planned
events not yet seen are listed with the plan's coverage, a deleted session leaves the page, and refused
requests are counted with the last one's reason.
Run by .ci/run (chromium and chromium-driver from Debian, Selenium from PyPI in a venv):
    .build/collector-venv/bin/python -m unittest discover -s Tests/CollectorBrowser -v
"""

import json
import os
import sys
import tempfile
import unittest
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "CollectorClients"))
from collector_process import ROOT, Collector  # noqa: E402

PLAN = """\
version: 1
events:
  - name: Order Completed
    description: An order was paid.
    properties:
      total: { type: number, minimum: 0, required: true }
  - name: Home
    kind: screen
    description: The home screen appeared.
  - name: Never Sent
    description: Planned, and no test sends it.
"""


def browser():
    """Headless chromium from Debian, through Debian's chromedriver: nothing is downloaded."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"):
        options.add_argument(argument)
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


class LivePageTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        plan = Path(self.folder.name) / "plan.yaml"
        plan.write_text(PLAN)
        self.collector = Collector("--plan", str(plan))
        self.driver = browser()
        self.wait = WebDriverWait(self.driver, 20)

    def tearDown(self):
        try:
            self.driver.save_screenshot(str(ROOT / ".build" / f"collector-live-page-{self._testMethodName}.png"))
        finally:
            self.driver.quit()
            self.assertEqual(self.collector.stop(), 0)
            self.folder.cleanup()

    def post(self, session, *messages):
        body = json.dumps({"batch": [dict(message, context={"tally_session": session}) for message in messages]})
        status, answer = self.collector.post("/v1/batch", body.encode(), {"Content-Type": "application/json"})
        self.assertEqual((status, answer), (200, {"success": True}))

    def rows(self, visible_only=True):
        selector = "#events tbody tr:not(.hidden)" if visible_only else "#events tbody tr"
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def names(self):
        return [row.find_element(By.CSS_SELECTOR, ".name").text for row in self.rows()]

    def test_events_appear_violations_are_marked_and_filters_work(self):
        self.driver.get(self.collector.url)
        self.wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "state"), "live"))
        self.wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "coverage"), "0/3 events"))
        unseen = [item.text for item in self.driver.find_elements(By.CSS_SELECTOR, "#unseen li")]
        self.assertEqual(sorted(unseen), ["screen Home", "track Never Sent", "track Order Completed"])

        # Posted after the page opened: each appears as it is committed.
        self.post("checkout", {"type": "track", "event": "Order Completed", "userId": "u1", "properties": {"total": 12.5}})
        self.wait.until(lambda driver: len(self.rows()) == 1)
        self.post("refunds",
                  {"type": "track", "event": "Order Completed", "userId": "u2", "properties": {"total": -3}},
                  {"type": "track", "event": "Debug Tapped", "userId": "u2"})
        self.wait.until(lambda driver: len(self.rows()) == 3)
        self.assertEqual(self.names(), ["Debug Tapped", "Order Completed", "Order Completed"])  # newest first

        marked = self.driver.find_elements(By.CSS_SELECTOR, "#events tbody tr.violation")
        self.assertEqual(len(marked), 2)
        negative = marked[1].find_element(By.CSS_SELECTOR, ".violations").text
        self.assertIn("/properties/total", negative)
        self.assertIn("minimum: 0", negative)
        self.assertIn("not in the plan", marked[0].find_element(By.CSS_SELECTOR, ".violations").text)
        valid = self.rows()[2]
        self.assertNotIn("violation", valid.get_attribute("class"))

        # Coverage and the unseen list follow the events.
        self.wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "coverage"), "1/3 events"))
        self.wait.until(lambda driver: len(driver.find_elements(By.CSS_SELECTOR, "#unseen li")) == 2)

        # Filters: by name, by session, by kind.
        self.driver.find_element(By.ID, "filter-name").send_keys("debug")
        self.assertEqual(self.names(), ["Debug Tapped"])
        self.driver.find_element(By.ID, "filter-name").send_keys(Keys.BACKSPACE * len("debug"))
        self.assertEqual(len(self.rows()), 3)
        self.driver.find_element(By.ID, "filter-session").send_keys("checkout")
        self.assertEqual(self.names(), ["Order Completed"])
        self.assertEqual(self.rows()[0].find_element(By.CSS_SELECTOR, ".session").text, "checkout")
        Select(self.driver.find_element(By.ID, "filter-kind")).select_by_visible_text("screen")
        self.assertEqual(self.rows(), [])
        self.assertIn("0 of 3 events shown", self.driver.find_element(By.ID, "count").text)

        # Deleting a session takes its rows off the page.
        request = urllib.request.Request(f"{self.collector.url}/tally/events?session=refunds", method="DELETE")
        with urllib.request.urlopen(request) as response:
            self.assertEqual(json.load(response), {"deleted": 2})
        self.wait.until(lambda driver: len(self.rows(visible_only=False)) == 1)

    def test_the_page_shows_what_was_stored_before_it_opened(self):
        self.post("earlier", {"type": "screen", "name": "Home", "userId": "u1"})
        self.driver.get(self.collector.url)
        self.wait.until(lambda driver: len(self.rows()) == 1)
        self.assertEqual(self.rows()[0].find_element(By.CSS_SELECTOR, ".kind").text, "screen")
        self.assertEqual(self.names(), ["Home"])

    def test_vendor_events_show_their_source(self):
        body = json.dumps({"api_key": "k", "batch": [
            {"event": "Opened", "distinct_id": "u1", "properties": {"tally_session": "vendors"}}]})
        status, answer = self.collector.post("/batch/", body.encode(), {"Content-Type": "application/json"})
        self.assertEqual((status, answer), (200, {"status": 1}))
        self.post("vendors", {"type": "track", "event": "Tapped", "userId": "u1"})
        self.driver.get(self.collector.url)
        self.wait.until(lambda driver: len(self.rows()) == 2)
        sources = [row.find_element(By.CSS_SELECTOR, ".source").text for row in self.rows()]
        self.assertEqual(sorted(sources), ["posthog", "segment"])

    def test_refused_requests_are_counted_with_the_last_reason(self):
        def refuse(properties):
            body = json.dumps({"batch": [{"type": "track", "event": "Large", "userId": "u1", "properties": properties}]})
            status, answer = self.collector.post("/v1/batch", body.encode(), {"Content-Type": "application/json"})
            self.assertEqual((status, answer["code"]), (400, "too_large"))

        refuse({"blob": "x" * 33_000})  # before the page opens: read from the status
        self.driver.get(self.collector.url)
        self.wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "state"), "live"))
        self.wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "refused"), "Refused 1 write request;"))
        refuse({"blob": "y" * 40_000})  # while it is open: pushed on the stream
        self.wait.until(expected_conditions.text_to_be_present_in_element((By.ID, "refused"), "Refused 2 write requests;"))
        text = self.driver.find_element(By.ID, "refused").text
        self.assertIn("Last: POST /v1/batch answered 400 too_large: batch[0] is", text)
        self.assertIn("the limit for one event is 32 KB", text)


if __name__ == "__main__":
    unittest.main()
