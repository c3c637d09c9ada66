"""A minimal MCP client over stdio (JSON-RPC 2.0, one JSON message per line): enough to call the
tools of ``svc mcp`` from inside the Hermes gateway process without another dependency."""

import json
import os
import subprocess
import threading


class McpError(Exception):
    pass


class McpStdioClient:
    def __init__(self, command, args, env=None, timeout=60.0):
        self._command = [command, *args]
        self._env = {**os.environ, **(env or {}), "SVC_MCP_PROFILE": "gateway"}
        self._timeout = timeout
        self._lock = threading.Lock()
        self._child = None
        self._next_id = 1

    def call(self, name, arguments):
        """A tool's structured answer, or ``{"error": {"code", "message"}}`` when the tool refused."""
        with self._lock:
            self._ensure_started()
            result = self._request("tools/call", {"name": name, "arguments": arguments})
        if result.get("isError"):
            content = result.get("content") or [{}]
            try:
                return json.loads(content[0].get("text", ""))
            except ValueError:
                return {"error": {"code": "internal", "message": content[0].get("text", "tool failed")}}
        return result.get("structuredContent") or {}

    def close(self):
        with self._lock:
            child, self._child = self._child, None
        if child is not None and child.poll() is None:
            child.kill()
            child.wait()

    def _ensure_started(self):
        if self._child is not None and self._child.poll() is None:
            return
        self._child = subprocess.Popen(
            self._command, env=self._env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self._request(
            "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "hermes-svc-gateway", "version": "0.1.0"}}
        )
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message):
        self._child.stdin.write(json.dumps(message) + "\n")
        self._child.stdin.flush()

    def _request(self, method, params):
        request_id = self._next_id
        self._next_id += 1
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        answer = {}
        # A watchdog: a server that never answers is killed, which ends the read below.
        child = self._child
        watchdog = threading.Timer(self._timeout, child.kill)
        watchdog.start()
        try:
            while True:
                line = child.stdout.readline()
                if not line:
                    self._child = None
                    raise McpError("svc mcp exited before it answered")
                try:
                    answer = json.loads(line)
                except ValueError:
                    continue
                if answer.get("id") == request_id:
                    break
        finally:
            watchdog.cancel()
        if "error" in answer:
            raise McpError(answer["error"].get("message", "svc mcp refused the request"))
        return answer.get("result") or {}
