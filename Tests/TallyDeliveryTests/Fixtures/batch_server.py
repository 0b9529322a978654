#!/usr/bin/env python3
"""A small server speaking Segment's batch API, for TallyDelivery's tests. Listens on 127.0.0.1 only.

    batch_server.py LOG [--port N] [--random-faults RATE]

Listens on port N (default 0: a free port) and prints `port N` once listening. Every POST /v1/batch is gunzipped (Content-Encoding: gzip) and parsed:
a valid batch is appended to LOG as one JSON line {"messageIds": [...], "properties": [...], "retry": N,
"authorization": "..."} and answered 200; one that is not valid JSON with a "batch" list of messages
that each have a messageId is counted as corrupt, logged as {"corrupt": "..."} and answered 400.

Faults: POST /control with {"faults": [...]} queues faults for the next batch requests, one each:
  "500", "503", "429:7" (status 429 with Retry-After: 7), "slow:0.3" (answer 200 after 0.3 s),
  "hang" (answer nothing until the client gives up), "reset" (close the connection without an answer).
With --random-faults RATE, each batch request without a queued fault gets a 500 or a reset with that
probability. A request whose body ends before its Content-Length (a client killed while sending) is
counted as aborted, not corrupt. GET /stats answers {"batches": N, "corrupt": N, "aborted": N}.
"""
import gzip
import json
import random
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG_PATH = sys.argv[1]
PORT = int(sys.argv[sys.argv.index("--port") + 1]) if "--port" in sys.argv else 0
RANDOM_FAULTS = float(sys.argv[sys.argv.index("--random-faults") + 1]) if "--random-faults" in sys.argv else 0.0
lock = threading.Lock()
faults = []
stats = {"batches": 0, "corrupt": 0, "aborted": 0}
log = open(LOG_PATH, "a", buffering=1)


def valid(payload):
    if not isinstance(payload, dict) or not isinstance(payload.get("batch"), list):
        return False
    return all(isinstance(m, dict) and isinstance(m.get("messageId"), str) and "type" in m for m in payload["batch"])


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"{}", headers=None):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def reset(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()

    def do_GET(self):
        if self.path == "/stats":
            with lock:
                self.answer(200, json.dumps(stats).encode())
        else:
            self.answer(404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if len(body) < length:  # the client went away mid-request (killed): nothing was sent, nothing to count
            with lock:
                stats["aborted"] += 1
            self.close_connection = True
            return
        if self.path == "/control":
            with lock:
                faults.extend(json.loads(body)["faults"])
            return self.answer(200)
        if self.path != "/v1/batch":
            return self.answer(404)
        with lock:
            fault = faults.pop(0) if faults else None
        if fault is None and RANDOM_FAULTS > 0 and random.random() < RANDOM_FAULTS:
            fault = random.choice(["500", "reset"])
        if fault == "reset":
            return self.reset()
        if fault == "hang":
            # The fault itself, not a wait: a server that accepted the request and never answers, so the
            # client's request timeout is what ends the attempt. Tests do not wait for it.
            time.sleep(30)
            return self.reset()
        if fault and fault.startswith("slow:"):
            time.sleep(float(fault.split(":")[1]))
            fault = None
        if fault:
            status, _, retry_after = fault.partition(":")
            return self.answer(int(status), headers={"Retry-After": retry_after} if retry_after else None)
        try:
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            payload = json.loads(body)
            if not valid(payload):
                raise ValueError("not a batch")
        except Exception as error:  # a corrupt batch: counted, logged, refused
            with lock:
                stats["corrupt"] += 1
                log.write(json.dumps({"corrupt": str(error)}) + "\n")
            return self.answer(400)
        with lock:
            stats["batches"] += 1
            log.write(json.dumps({
                "messageIds": [m["messageId"] for m in payload["batch"]],
                "properties": [m.get("properties", {}) for m in payload["batch"]],
                "retry": int(self.headers.get("X-Retry-Count", "-1")),
                "authorization": self.headers.get("Authorization", ""),
                "sentAt": payload.get("sentAt", ""),
            }) + "\n")
        self.answer(200)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client killed mid-request (the point of the kill tests) is not an error of the server.
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


server = Server(("127.0.0.1", PORT), Handler)
print(f"port {server.server_address[1]}", flush=True)
server.serve_forever()
