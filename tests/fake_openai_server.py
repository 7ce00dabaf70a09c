#!/usr/bin/env python3
"""A scripted, OpenAI-compatible chat-completions server for tests.

Usage:
    fake_openai_server.py SCRIPT.json REQUESTS.jsonl [--port N] [--idle-timeout S]

SCRIPT.json is a JSON array of responses, served in order, one per
POST to /v1/chat/completions.  Each entry is one of:

    {"content": "text"}
        an assistant text message (finish_reason "stop");
    {"tool_calls": [{"name": "shell", "arguments": {"command": "ls"},
                     "id": "call_1"}, ...],
     "content": null}
        an assistant message asking for tool calls (finish_reason
        "tool_calls").  "arguments" may be a JSON object or an already
        encoded JSON string; "id" defaults to "call_<request>_<index>";
    {"status": 500, "body": {...}}
        a raw HTTP reply with that status and JSON body;
    {"raw": {...}}
        this exact JSON body with status 200.

A request after the script is exhausted gets HTTP 500 with an error
message, so a test sees the unexpected extra request.

Every request body received (parsed JSON, or {"unparsed": TEXT}) is
appended as one line to REQUESTS.jsonl before the reply is sent, and
all of them are served as a JSON array at GET /requests.

The port is chosen by the OS unless --port is given; it is printed
alone on the first line of stdout, which is then flushed.

The server never outlives its user: it exits when its standard input
reaches end of file (the parent closed the pipe or died), when the
parent process changes (re-parented after the parent died), or after
--idle-timeout seconds (default 60) without a request.

Only the Python standard library is used.
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer


class State:
    """Shared, lock-protected server state."""

    def __init__(self, script, log_path):
        self.lock = threading.Lock()
        self.script = script
        self.log_path = log_path
        self.index = 0
        self.requests = []
        self.last_activity = time.monotonic()

    def touch(self):
        with self.lock:
            self.last_activity = time.monotonic()

    def record(self, body):
        with self.lock:
            self.requests.append(body)
            n = len(self.requests)
            if self.log_path:
                with open(self.log_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(body, ensure_ascii=False) + "\n")
                    f.flush()
            entry = None
            if self.index < len(self.script):
                entry = self.script[self.index]
                self.index += 1
            return n, entry


def completion(n, entry, model):
    """Build a chat.completion object for script ENTRY (request number N)."""
    message = {"role": "assistant", "content": entry.get("content")}
    finish = "stop"
    calls = entry.get("tool_calls")
    if calls:
        out = []
        for i, call in enumerate(calls):
            args = call.get("arguments", {})
            if not isinstance(args, str):
                args = json.dumps(args)
            out.append({
                "id": call.get("id") or "call_%d_%d" % (n, i),
                "type": "function",
                "function": {"name": call["name"], "arguments": args},
            })
        message["tool_calls"] = out
        finish = "tool_calls"
    return {
        "id": "chatcmpl-fake-%d" % n,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model or "fake-model",
        "choices": [{"index": 0, "message": message,
                     "finish_reason": entry.get("finish_reason", finish)}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                  "total_tokens": 2},
    }


def make_handler(state):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # keep stderr quiet
            pass

        def reply(self, status, obj):
            data = json.dumps(obj).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
            self.close_connection = True

        def do_GET(self):
            state.touch()
            if self.path.rstrip("/") == "/requests":
                with state.lock:
                    reqs = list(state.requests)
                self.reply(200, reqs)
            else:
                self.reply(404, {"error": {"message": "not found"}})

        def do_POST(self):
            state.touch()
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                body = {"unparsed": raw.decode("utf-8", "replace")}
            n, entry = state.record(body)
            if entry is None:
                self.reply(500, {"error": {
                    "message": "fake server: script exhausted at request %d" % n,
                    "type": "script_exhausted"}})
            elif "status" in entry:
                self.reply(int(entry["status"]), entry.get("body", {}))
            elif "raw" in entry:
                self.reply(200, entry["raw"])
            else:
                model = body.get("model") if isinstance(body, dict) else None
                self.reply(200, completion(n, entry, model))

    return Handler


def watch_stdin(server):
    """Stop SERVER when stdin reaches end of file."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, ValueError):
        pass
    os._exit(0)


def watch_parent_and_idle(state, idle_timeout):
    """Exit when re-parented or idle for IDLE_TIMEOUT seconds."""
    parent = os.getppid()
    while True:
        time.sleep(0.2)
        if os.getppid() != parent:
            os._exit(0)
        with state.lock:
            idle = time.monotonic() - state.last_activity
        if idle > idle_timeout:
            os._exit(0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("script")
    ap.add_argument("requests_log", nargs="?")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--idle-timeout", type=float, default=60.0)
    ap.add_argument("--no-stdin-watch", action="store_true",
                    help="do not exit on end of stdin (for manual runs)")
    args = ap.parse_args()
    with open(args.script, encoding="utf-8") as f:
        script = json.load(f)
    if isinstance(script, dict):
        script = script.get("responses", [])
    if args.requests_log:
        open(args.requests_log, "a").close()
    state = State(script, args.requests_log)
    server = HTTPServer(("127.0.0.1", args.port), make_handler(state))
    sys.stdout.write("%d\n" % server.server_address[1])
    sys.stdout.flush()
    if not args.no_stdin_watch:
        threading.Thread(target=watch_stdin, args=(server,), daemon=True).start()
    threading.Thread(target=watch_parent_and_idle,
                     args=(state, args.idle_timeout), daemon=True).start()
    server.serve_forever(poll_interval=0.1)


if __name__ == "__main__":
    main()
