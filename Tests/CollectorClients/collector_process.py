"""Starts `tally collect` for a test and stops it by its process id."""

import json
import os
import signal
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tally_binary():
    """The built `tally` (TALLY_BINARY, else .build/debug/tally)."""
    path = Path(os.environ.get("TALLY_BINARY", ROOT / ".build" / "debug" / "tally"))
    if not path.exists():
        raise RuntimeError(f"{path} does not exist: build with `swift build --enable-all-traits` first")
    return path


class Collector:
    """A `tally collect` on 127.0.0.1, on a free port, in memory, until `stop()`."""

    def __init__(self, *arguments):
        self.process = subprocess.Popen(
            [str(tally_binary()), "collect", "--port", "0", "--database", ":memory:", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = self.process.stdout.readline().strip()
        if not first.startswith("Listening on http://"):
            self.process.kill()
            raise RuntimeError(f"tally collect printed {first!r}; stderr: {self.process.stderr.read()}")
        self.url = first[len("Listening on "):]

    def stop(self):
        """SIGTERM by process id, then wait; the collector stops gracefully."""
        os.kill(self.process.pid, signal.SIGTERM)
        code = self.process.wait(timeout=30)
        self.process.stdout.close()
        self.process.stderr.close()
        return code

    def get(self, path, **parameters):
        """GET a read API path; returns (status, JSON)."""
        query = urllib.parse.urlencode(parameters)
        try:
            with urllib.request.urlopen(f"{self.url}{path}?{query}", timeout=60) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def post(self, path, body, headers=None):
        """POST raw bytes; returns (status, JSON)."""
        request = urllib.request.Request(f"{self.url}{path}", data=body, headers=headers or {}, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)

    def wait(self, count, timeout_ms=20000, **filters):
        """Waits (a long-poll the collector answers on insert) for `count` events matching `filters`."""
        status, answer = self.get("/tally/events/wait", count=count, timeout=timeout_ms, **filters)
        return status, answer["events"]
