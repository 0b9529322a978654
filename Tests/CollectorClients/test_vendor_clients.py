"""Real PostHog, Amplitude and Mixpanel clients, from PyPI, send to `tally collect`: every event they send is
stored once, as they sent it; a malformed body gets the 4xx each client drops; and `tally compare` catches
an event a client was configured to drop and an event it sent twice.

Run by .ci/run in a venv with posthog, amplitude-analytics and mixpanel (pinned there):
    .build/collector-venv/bin/python -m unittest discover -s Tests/CollectorClients -v
"""

import base64
import gzip
import json
import subprocess
import tempfile
import unittest
import urllib.parse
import uuid
from pathlib import Path

import mixpanel
import posthog
from amplitude import Amplitude, BaseEvent, Config, EventOptions, Identify

from collector_process import Collector, tally_binary


def count_types(events):
    counts = {}
    for event in events:
        counts[event["type"]] = counts.get(event["type"], 0) + 1
    return counts


class VendorClientTests(unittest.TestCase):
    def setUp(self):
        self.collector = Collector()
        self.errors = []

    def tearDown(self):
        self.assertEqual(self.collector.stop(), 0)

    def stored(self, session, count):
        status, events = self.collector.wait(count, session=session)
        self.assertEqual(status, 200, f"only {len(events)} of {count} events arrived")
        return events

    def show(self, events):
        """Prints one stored event of each type, for the record of a CI run."""
        seen = set()
        for event in events:
            if event["type"] not in seen:
                seen.add(event["type"])
                print(json.dumps({key: event[key] for key in (
                    "source", "type", "name", "properties", "user_id", "anonymous_id", "group_id", "previous_id",
                    "message_id", "timestamp", "write_key")}, sort_keys=True))

    # --- PostHog -----------------------------------------------------------------------------------------

    def send_posthog(self, gzipped):
        session = f"posthog-{uuid.uuid4()}"
        client = posthog.Posthog(
            "phc_test", host=self.collector.url, gzip=gzipped, super_properties={"tally_session": session},
            on_error=lambda error, batch: self.errors.append(error))
        ids = []
        for index in range(120):  # more than one batch of 100
            ids.append(str(uuid.uuid4()))
            client.capture("Order Completed", distinct_id="u1", properties={"index": index, "total": 9.5},
                           uuid=ids[-1])
        client.set(distinct_id="u1", properties={"plan": "pro"})
        client.group_identify("company", "acme", {"seats": 5}, distinct_id="u1")
        client.alias("anon-1", "u1")
        client.flush()
        client.shutdown()
        events = self.stored(session, 123)
        self.assertEqual(count_types(events), {"track": 120, "identify": 1, "group": 1, "alias": 1})
        self.assertEqual(sorted(e["message_id"] for e in events if e["type"] == "track"), sorted(ids))
        self.assertEqual({e["source"] for e in events}, {"posthog"})
        self.assertEqual({e["write_key"] for e in events}, {"phc_test"})
        tracks = sorted((e for e in events if e["type"] == "track"), key=lambda e: e["properties"]["index"])
        self.assertEqual([e["properties"]["index"] for e in tracks], list(range(120)))
        self.assertEqual(tracks[0]["properties"]["total"], 9.5)
        identify = next(e for e in events if e["type"] == "identify")
        self.assertEqual((identify["user_id"], identify["properties"]), ("u1", {"plan": "pro"}))
        group = next(e for e in events if e["type"] == "group")
        self.assertEqual((group["group_id"], group["properties"]), ("acme", {"seats": 5}))
        alias = next(e for e in events if e["type"] == "alias")
        self.assertEqual((alias["user_id"], alias["previous_id"]), ("u1", "anon-1"))
        self.assertEqual(self.errors, [])
        return events

    def test_posthog_python(self):
        self.show(self.send_posthog(gzipped=False))

    def test_posthog_python_gzipped(self):
        self.send_posthog(gzipped=True)

    # --- Amplitude ---------------------------------------------------------------------------------------

    def send_amplitude(self, path, use_batch):
        session = f"amplitude-{uuid.uuid4()}"
        results = []
        client = Amplitude("amp_test", Config(
            server_url=self.collector.url + path, use_batch=use_batch, flush_queue_size=50,
            callback=lambda event, code, message=None: results.append((code, message))))
        ids = []
        for index in range(120):
            ids.append(f"amp-{index}")
            client.track(BaseEvent(event_type="Order Completed", user_id="u1", insert_id=ids[-1],
                                   event_properties={"index": index, "total": 9.5, "tally_session": session}))
        identify = Identify()
        identify.set("plan", "pro")
        identify.set("tally_session", session)
        client.identify(identify, EventOptions(user_id="u1", device_id="device-1"))
        group = Identify()
        group.set("seats", 5)
        group.set("tally_session", session)
        client.group_identify("company", "acme", group)
        client.flush()
        client.shutdown()
        events = self.stored(session, 122)
        self.assertEqual(count_types(events), {"track": 120, "identify": 1, "group": 1})
        self.assertEqual(sorted(e["message_id"] for e in events if e["type"] == "track"), sorted(ids))
        self.assertEqual({e["source"] for e in events}, {"amplitude"})
        identify = next(e for e in events if e["type"] == "identify")
        self.assertEqual((identify["user_id"], identify["anonymous_id"], identify["properties"]),
                         ("u1", "device-1", {"plan": "pro"}))
        group = next(e for e in events if e["type"] == "group")
        self.assertEqual((group["group_id"], group["properties"]), ("acme", {"seats": 5}))
        self.assertEqual({code for code, _ in results}, {200}, "every event's callback saw a 200")
        self.assertEqual(len(results), 122)
        return events

    def test_amplitude_http_api(self):
        self.show(self.send_amplitude("/2/httpapi", use_batch=False))

    def test_amplitude_batch_api(self):
        self.send_amplitude("/batch", use_batch=True)

    def test_amplitude_drops_a_refused_batch_instead_of_retrying(self):
        results = []
        client = Amplitude("amp_test", Config(
            server_url=self.collector.url + "/2/httpapi",
            callback=lambda event, code, message=None: results.append((code, message))))
        # The client checks user ids itself; the collector refuses a session tag that is not a string.
        client.track(BaseEvent(event_type="Bad Tag", user_id="u1", event_properties={"tally_session": 7}))
        client.flush()
        client.shutdown()
        self.assertEqual([code for code, _ in results], [400])
        status, answer = self.collector.get("/tally/status")
        self.assertEqual(answer["refused"]["requests"], 1, "sent once, not retried")

    # --- Mixpanel ----------------------------------------------------------------------------------------

    def test_mixpanel_buffered_consumer(self):
        session = f"mixpanel-{uuid.uuid4()}"
        url = self.collector.url
        consumer = mixpanel.BufferedConsumer(
            events_url=url + "/track", people_url=url + "/engage", groups_url=url + "/groups",
            import_url=url + "/import")
        client = mixpanel.Mixpanel("mp_test", consumer=consumer)
        for index in range(120):  # 50 a request
            client.track("u1", "Order Completed", {"index": index, "total": 9.5, "tally_session": session})
        client.people_set("u1", {"plan": "pro", "tally_session": session})
        client.group_set("company", "acme", {"seats": 5, "tally_session": session})
        # Mixpanel.alias() always posts to Mixpanel's own servers, whatever the consumer: send the event it
        # builds through the consumer instead.
        client.track("anon-1", "$create_alias", {"alias": "u1", "tally_session": session})
        consumer.flush()
        events = self.stored(session, 123)
        self.assertEqual(count_types(events), {"track": 120, "identify": 1, "group": 1, "alias": 1})
        self.assertEqual({e["source"] for e in events}, {"mixpanel"})
        self.assertEqual({e["write_key"] for e in events}, {"mp_test"})
        tracks = [e for e in events if e["type"] == "track"]
        self.assertEqual(sorted(e["properties"]["index"] for e in tracks), list(range(120)))
        self.assertEqual(len({e["message_id"] for e in tracks}), 120, "each keeps its $insert_id")
        identify = next(e for e in events if e["type"] == "identify")
        self.assertEqual((identify["user_id"], identify["properties"]), ("u1", {"plan": "pro"}))
        group = next(e for e in events if e["type"] == "group")
        self.assertEqual((group["group_id"], group["properties"]), ("acme", {"seats": 5}))
        alias = next(e for e in events if e["type"] == "alias")
        self.assertEqual((alias["user_id"], alias["previous_id"]), ("u1", "anon-1"))
        self.show(events)

    def test_mixpanel_base64_gzip_and_answers(self):
        session = f"mixpanel-raw-{uuid.uuid4()}"
        event = {"event": "Opened", "properties": {"distinct_id": "u1", "token": "t", "time": 1700000000123,
                                                   "$insert_id": "i-1", "tally_session": session}}
        encoded = base64.b64encode(json.dumps([event]).encode()).decode()
        form = urllib.parse.urlencode({"data": encoded}).encode()
        status, answer = self.collector.post(
            "/track/", gzip.compress(form),
            {"Content-Type": "application/x-www-form-urlencoded", "Content-Encoding": "gzip"})
        self.assertEqual((status, answer), (200, 1))
        events = self.stored(session, 1)
        self.assertEqual(events[0]["timestamp"], "2023-11-14T22:13:20.123Z")
        status, answer = self.collector.post(
            "/track?verbose=1", b"data=%%%not-base64", {"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(status, 400)
        self.assertEqual(answer["status"], 0)
        self.assertIn("base64", answer["error"])

    def test_each_vendor_refuses_in_its_own_shape(self):
        status, answer = self.collector.post("/batch/", b'{"api_key":"k","batch":[{"distinct_id":"u"}]}',
                                             {"Content-Type": "application/json"})
        self.assertEqual((status, answer["type"], answer["code"]), (400, "validation_error", "missing_field"))
        self.assertEqual(answer["detail"], "batch[0]: event is required")
        status, answer = self.collector.post("/2/httpapi", b"{not json", {"Content-Type": "application/json"})
        self.assertEqual((status, answer["code"], answer["missing_field"]), (400, 400, "invalid_json"))
        status, answer = self.collector.post("/engage", b"data=%7B%7D", {"Content-Type": "text/csv"})
        self.assertEqual((status, answer), (415, 0))

    # --- The delivery comparison -------------------------------------------------------------------------

    def write_recording(self, folder, tracked):
        """What the app tracked, as Tally's recording destination writes it (one JSON line per event)."""
        lines = []
        for message_id, name, properties in tracked:
            lines.append(json.dumps({
                "tally_record": 1, "kind": "track", "name": name, "properties": properties,
                "message_id": message_id, "timestamp": "2026-11-26T10:00:00.000Z", "anonymous_id": "a1",
                "user_id": "u1", "context": {}, "source": "app"}))
        Path(folder, "app.jsonl").write_text("\n".join(lines) + "\n")

    def compare(self, folder, session, source):
        return subprocess.run(
            [str(tally_binary()), "compare", "--recordings", folder, "--collector", self.collector.url,
             "--session", session, "--source", source],
            capture_output=True, text=True, timeout=60)

    def tracked_events(self):
        return [(str(uuid.uuid4()), name, {"step": index})
                for index, name in enumerate(["Opened", "Added To Cart", "Signed Out", "Checked Out"])]

    def test_compare_catches_an_event_posthog_was_configured_to_drop(self):
        tracked = self.tracked_events()
        for drop in [None, "Signed Out"]:
            session = f"compare-posthog-{uuid.uuid4()}"
            client = posthog.Posthog(
                "phc_test", host=self.collector.url, super_properties={"tally_session": session},
                before_send=lambda event: None if event["event"] == drop else event)
            for message_id, name, properties in tracked:
                client.capture(name, distinct_id="u1", properties=properties, uuid=message_id)
            client.flush()
            client.shutdown()
            self.stored(session, 4 if drop is None else 3)
            with tempfile.TemporaryDirectory() as folder:
                self.write_recording(folder, tracked)
                result = self.compare(folder, session, "posthog")
            print(f"tally compare (PostHog, dropping {drop}): exit {result.returncode}\n{result.stdout}")
            if drop is None:
                self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
                self.assertIn("4 delivered intact (4 by message id), 0 missing", result.stdout)
            else:
                self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
                self.assertIn('missing: track "Signed Out"', result.stdout)

    def test_compare_help_and_usage(self):
        result = subprocess.run([str(tally_binary()), "compare", "--help"], capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0)
        self.assertIn("--recordings", result.stdout)
        self.assertIn("--collector", result.stdout)
        result = subprocess.run([str(tally_binary()), "compare", "--recordings", "x"], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(result.returncode, 64)
        self.assertIn("Name either --collector URL or --arrived FILE", result.stderr)
        with tempfile.TemporaryDirectory() as folder:
            self.write_recording(folder, self.tracked_events()[:1])
            arrived = Path(folder, "arrived.json")
            arrived.write_text(json.dumps({"events": [], "more": False}))
            result = subprocess.run(
                [str(tally_binary()), "compare", "--recordings", folder, "--arrived", str(arrived)],
                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 1)
        self.assertIn('missing: track "Opened"', result.stdout)

    def test_compare_catches_an_event_amplitude_sent_twice(self):
        session = f"compare-amplitude-{uuid.uuid4()}"
        tracked = self.tracked_events()
        client = Amplitude("amp_test", Config(server_url=self.collector.url + "/2/httpapi"))
        for message_id, name, properties in tracked + [tracked[1]]:  # the second event, sent twice
            # No insert_id: the SDK makes its own, so the comparison matches by content.
            client.track(BaseEvent(event_type=name, user_id="u1",
                                   event_properties={**properties, "tally_session": session}))
        client.flush()
        client.shutdown()
        self.stored(session, 5)
        with tempfile.TemporaryDirectory() as folder:
            self.write_recording(folder, tracked)
            result = self.compare(folder, session, "amplitude")
        print(f"tally compare (Amplitude, one event sent twice): exit {result.returncode}\n{result.stdout}")
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn('duplicated: track "Added To Cart" arrived 2 times', result.stdout)
        self.assertIn("4 delivered intact (0 by message id), 0 missing, 1 duplicated", result.stdout)


if __name__ == "__main__":
    unittest.main()
