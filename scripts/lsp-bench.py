#!/usr/bin/env python3
"""Benchmark of `mecatl-prompt lsp` (SPEC §21.3), run by scripts/bench.sh.

Usage: lsp-bench.py [--tsv] BIN CORPUS_WORKSPACE TMPDIR

Drives one server per measure over stdio, as an editor does, and prints one
row per target: diagnostics after a change of a 50 KB CLAUDE.md (debounce 0,
so the figure is the time after the debounce), hover and code lens on the
corpus workspace (warm, trusted), a 10 MB didOpen until its diagnostics, the
peak RSS against 64 MiB + 3x the open documents' bytes, and the CPU time an
idle server uses in 2 s. With --tsv the rows are bench.sh's table rows.
Exit 1 when a target is missed. Nothing is written outside TMPDIR.
"""

import json
import os
import statistics
import subprocess
import sys
import time

RUNS = int(os.environ.get("BENCH_RUNS", "40"))


class Server:
    def __init__(self, binary, root, args=()):
        self.proc = subprocess.Popen(
            [binary, *args, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=root)
        self.root = root
        self.next_id = 0
        self.request("initialize", {"rootUri": uri(root), "capabilities": {},
                                    "initializationOptions": {"debounceMs": 0}})
        self.notify("initialized", {})

    def send(self, message):
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("lsp-bench: the server ended")
            line = line.strip()
            if not line:
                break
            name, value = line.split(b":", 1)
            if name.lower() == b"content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next_id:
                return message

    def published(self, target):
        while True:
            message = self.read()
            if message.get("method") == "textDocument/publishDiagnostics" \
                    and message["params"]["uri"] == target:
                return message

    def stop(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.wait(timeout=30)


def uri(path):
    return "file://" + path


def median_ms(times):
    return statistics.median(times) * 1000


def timed(run, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return median_ms(times)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def main():
    args = sys.argv[1:]
    tsv = args[:1] == ["--tsv"]
    if tsv:
        args = args[1:]
    binary, corpus, tmp = (os.path.abspath(a) for a in args)
    rows = []

    def row(name, value, unit, target, ok):
        rows.append((name, value, unit, target, ok))

    # Diagnostics after a change of a 50 KB CLAUDE.md: each change adds a
    # byte, which changes MP009's message, so every change is republished.
    ws = os.path.join(tmp, "lsp-ws")
    paragraph = "Keep functions small and name them for what they do. " * 3 + "\n\n"
    claude_text = paragraph * (50_000 // len(paragraph))
    write(os.path.join(ws, "CLAUDE.md"), claude_text)
    write(os.path.join(ws, "AGENTS.md"), "# Agents\n")
    server = Server(binary, ws)
    claude = uri(os.path.join(ws, "CLAUDE.md"))
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": claude, "languageId": "markdown", "version": 1, "text": claude_text}})
    server.published(claude)
    version = [1]
    lines = claude_text.count("\n")

    def change():
        version[0] += 1
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": claude, "version": version[0]},
            "contentChanges": [{"range": {"start": {"line": lines, "character": 0},
                                          "end": {"line": lines, "character": 0}}, "text": "x"}]})
        server.published(claude)

    timed(change, 3)
    ms = timed(change, RUNS)
    row("lsp: diagnostics after a change of a 50 KB CLAUDE.md", ms, "ms", 20, ms <= 20)

    # A 10 MB didOpen until its diagnostics.
    big_text = paragraph * (10_000_000 // len(paragraph))
    big = uri(os.path.join(ws, "sub", "CLAUDE.md"))
    start = time.perf_counter()
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": big, "languageId": "markdown", "version": 1, "text": big_text}})
    server.published(big)
    ms = (time.perf_counter() - start) * 1000
    row("lsp: 10 MB didOpen until diagnostics", ms, "ms", 500, ms <= 500)

    # Idle CPU over 2 s, then the peak RSS with both documents open.
    before = cpu_ticks(server.proc.pid)
    time.sleep(2)
    idle = cpu_ticks(server.proc.pid) - before
    row("lsp: CPU ticks used idle for 2 s", idle, "ticks", 0, idle == 0)
    rss_mib = peak_rss_kib(server.proc.pid) / 1024
    allowed = 64 + 3 * (len(claude_text) + len(big_text)) / (1 << 20)
    row("lsp: peak RSS, 50 KB + 10 MB open", rss_mib, "MiB", round(allowed, 1), rss_mib <= allowed)
    server.stop()

    # Hover and code lens on the corpus workspace, trusted, warm.
    server = Server(binary, corpus, ["--trust-project"])
    name = next((n for n in ("CLAUDE.md", "AGENTS.md", "README.md") if
                 os.path.isfile(os.path.join(corpus, n))), "CLAUDE.md")
    target = uri(os.path.join(corpus, name))
    for method, params in (
        ("textDocument/hover", {"textDocument": {"uri": target},
                                "position": {"line": 0, "character": 0}}),
        ("textDocument/codeLens", {"textDocument": {"uri": target}}),
    ):
        timed(lambda: server.request(method, params), 3)
        ms = timed(lambda: server.request(method, params), RUNS)
        label = method.split("/")[1]
        row(f"lsp: {label} on {os.path.basename(corpus)}/{name}", ms, "ms", 10, ms <= 10)
    server.stop()

    for name, value, unit, target, ok in rows:
        shown = f"{value:.2f}" if isinstance(value, float) else str(value)
        if tsv:
            rss = shown if unit == "MiB" else "-"
            own = shown if unit == "ms" else "-"
            print("\t".join([name, own, "-", "-", "-", own, rss, f"<= {target} {unit}",
                             "pass" if ok else "FAIL", ""]))
        else:
            print(f"{name}: {shown} {unit} (target <= {target} {unit}): {'pass' if ok else 'FAIL'}")
    return 0 if all(r[4] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
