#!/usr/bin/env python3
"""A harmless stdio MCP server for oracle fixtures: answers initialize and tools/list, does nothing else."""
import json
import sys

TOOLS = [
    {"name": "ping", "description": "Answers pong.", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "echo_text", "description": "Echoes its text.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
]

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if "id" not in msg:
        continue
    method = msg.get("method")
    if method == "initialize":
        result = {"protocolVersion": msg.get("params", {}).get("protocolVersion", "2025-06-18"),
                  "capabilities": {"tools": {}},
                  "serverInfo": {"name": "tiny", "version": "1.0.0"},
                  "instructions": "tiny-instructions: call ping first."}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "pong"}]}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\n")
    sys.stdout.flush()
