"""Real Segment-compatible clients, from PyPI, send to `tally collect`: every event they send is stored once.

Run by .ci/run in a venv with segment-analytics-python and rudder-sdk-python:
    .build/collector-venv/bin/python -m unittest discover -s Tests/CollectorClients -v
"""

import unittest
import uuid

import segment.analytics as segment_analytics
from rudderstack.analytics.client import Client as RudderClient

from collector_process import Collector


def send_every_call(client, session, prefix):
    """Every call a Segment client makes, tagged with `session`; returns the message ids sent."""
    context = {"tally_session": session}
    ids = []

    def next_id():
        ids.append(f"{prefix}-{len(ids)}")
        return ids[-1]

    for index in range(120):  # more than one batch of 100
        client.track(user_id="u1", event="Order Completed", properties={"index": index, "total": 9.5},
                     context=context, message_id=next_id())
    client.identify(user_id="u1", traits={"plan": "pro"}, context=context, message_id=next_id())
    client.group(user_id="u1", group_id="g1", traits={"seats": 5}, context=context, message_id=next_id())
    client.alias(previous_id="u1", user_id="u2", context=context, message_id=next_id())
    client.page(user_id="u2", name="Pricing", properties={"path": "/pricing"}, context=context, message_id=next_id())
    client.screen(user_id="u2", name="Home", context=context, message_id=next_id())
    client.track(anonymous_id="anon-1", event="Signed Out", context=context, message_id=next_id())
    return ids


class RealClientTests(unittest.TestCase):
    def setUp(self):
        self.collector = Collector()
        self.errors = []

    def tearDown(self):
        self.assertEqual(self.collector.stop(), 0)

    def check_stored_once(self, session, ids):
        status, events = self.collector.wait(len(ids), session=session)
        self.assertEqual(status, 200, f"only {len(events)} of {len(ids)} events arrived")
        stored = [event["message_id"] for event in events]
        self.assertEqual(sorted(stored), sorted(ids), "every event sent is stored exactly once")
        by_type = {}
        for event in events:
            by_type[event["type"]] = by_type.get(event["type"], 0) + 1
        self.assertEqual(by_type, {"track": 121, "identify": 1, "group": 1, "alias": 1, "page": 1, "screen": 1})
        identify = next(event for event in events if event["type"] == "identify")
        self.assertEqual(identify["properties"], {"plan": "pro"})
        alias = next(event for event in events if event["type"] == "alias")
        self.assertEqual((alias["user_id"], alias["previous_id"]), ("u2", "u1"))
        anonymous = next(event for event in events if event["name"] == "Signed Out")
        self.assertIsNone(anonymous["user_id"])
        self.assertEqual(anonymous["anonymous_id"], "anon-1")
        self.assertEqual(self.errors, [])
        return events

    def test_segment_analytics_python(self):
        session = f"segment-{uuid.uuid4()}"
        client = segment_analytics.Client(
            write_key="segment-key", host=self.collector.url, on_error=lambda error, batch: self.errors.append(error))
        ids = send_every_call(client, session, "segment")
        client.flush()
        client.shutdown()
        events = self.check_stored_once(session, ids)
        self.assertEqual({event["write_key"] for event in events}, {"segment-key"})
        self.assertTrue(events[0]["context"]["library"]["name"].startswith("analytics-python"))

    def test_segment_analytics_python_gzipped(self):
        session = f"segment-gzip-{uuid.uuid4()}"
        client = segment_analytics.Client(
            write_key="segment-key", host=self.collector.url, gzip=True,
            on_error=lambda error, batch: self.errors.append(error))
        ids = send_every_call(client, session, "segment-gzip")
        client.flush()
        client.shutdown()
        self.check_stored_once(session, ids)

    def test_rudder_sdk_python_gzips_by_default(self):
        session = f"rudder-{uuid.uuid4()}"
        client = RudderClient(
            write_key="rudder-key", host=self.collector.url, on_error=lambda error, batch: self.errors.append(error))
        self.assertTrue(client.gzip)
        ids = send_every_call(client, session, "rudder")
        client.flush()
        client.shutdown()
        events = self.check_stored_once(session, ids)
        self.assertEqual({event["write_key"] for event in events}, {"rudder-key"})

    def test_a_client_mistake_is_a_4xx_the_client_does_not_retry(self):
        status, answer = self.collector.post("/v1/batch", b'{"batch":[{"type":"track","userId":"u"}]}',
                                             {"Content-Type": "application/json"})
        self.assertEqual(status, 400)
        self.assertEqual(answer["code"], "missing_field")
        self.assertEqual(answer["message"], "batch[0]: event is required")


if __name__ == "__main__":
    unittest.main()
