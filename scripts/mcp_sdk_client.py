"""The official MCP Python SDK as a real client of `mecatl-prompt mcp` (SPEC §21.4).

Usage: mcp_sdk_client.py BINARY WORKSPACE

Connects over stdio in `legacy` mode (the initialize handshake) and in `auto` mode
(`server/discover` first, which the server answers -32601, then the handshake), with and
without client roots; calls every tool; checks that a workspace outside the roots is refused
and that trust comes only from --trust-project (not from MECATL_TRUST_PROJECT). Prints a
transcript; exits 1 on the first failed check.
"""

import asyncio
import json
import os
import sys
import warnings
from pathlib import Path

from mcp import Client, StdioServerParameters
import mcp.types as types

warnings.simplefilter("ignore")  # roots are deprecated from 2026-07-28 on; the server speaks 2025-*

BINARY, WORKSPACE = sys.argv[1], Path(sys.argv[2]).resolve()


def say(text: str) -> None:
    print(text, flush=True)


def check(ok: bool, what: str) -> None:
    say(f"  {'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        sys.exit(1)


def roots_callback(paths):
    async def list_roots(_context):
        return types.ListRootsResult(roots=[types.Root(uri=p.as_uri()) for p in paths])

    return list_roots


def server(flags, env=None):
    return StdioServerParameters(
        command=BINARY, args=[*flags, "mcp"], cwd=str(WORKSPACE), env=env or {}
    )


def summary(result: types.CallToolResult) -> str:
    if result.is_error:
        return "error: " + result.content[0].text.splitlines()[0]
    doc = result.structured_content or {}
    keys = ", ".join(list(doc)[:6])
    return f"{len(result.content[0].text)} bytes of JSON ({keys}, ...)"


CALLS = [
    ("assemble", {"agent": "claude", "touch": ["src/main.rs"]}),
    ("assemble", {}),
    ("compare", {"agents": ["claude", "codex", "gemini"]}),
    ("lint", {}),
    ("explain", {"name": "CLAUDE.md", "agent": "claude"}),
]


async def session(mode: str, roots, flags=(), env=None) -> None:
    label = "with roots " + ", ".join(str(r) for r in roots) if roots else "without roots"
    say(f"== mode {mode}, {label}, flags {list(flags) or 'none'}, env {env or 'none'}")
    callback = roots_callback(roots) if roots else None
    async with Client(server(list(flags), env), mode=mode, list_roots_callback=callback) as client:
        info = client.server_info
        say(f"  protocol {client.protocol_version}, server {info.name if info else '?'}")
        check(info is not None and info.name == "mecatl-prompt", "serverInfo.name is mecatl-prompt")
        if mode == "legacy":
            await client.send_ping()
            say("  ping answered")
        tools = (await client.list_tools()).tools
        say("  tools: " + ", ".join(t.name for t in tools))
        check([t.name for t in tools] == ["assemble", "compare", "lint", "explain"], "four tools")
        for tool in tools:
            hints = tool.annotations
            check(
                hints.read_only_hint is True and hints.destructive_hint is False
                and hints.idempotent_hint is True and hints.open_world_hint is False,
                f"{tool.name} is annotated read-only, idempotent, closed-world",
            )
        for name, arguments in CALLS:
            # The SDK validates structuredContent against the tool's outputSchema.
            result = await client.call_tool(name, arguments)
            say(f"  {name} {json.dumps(arguments)} -> {summary(result)}")
            check(not result.is_error, f"{name} answers")
            check(
                json.loads(result.content[0].text) == result.structured_content,
                f"{name}: the text is the structured document",
            )
        bad = await client.call_tool("assemble", {"agent": "nobody"})
        say(f"  assemble {{\"agent\": \"nobody\"}} -> {summary(bad)}")
        check(bad.is_error, "an unknown agent is a tool error")
        outside = await client.call_tool("lint", {"workspace": "/"})
        say(f"  lint {{\"workspace\": \"/\"}} -> {summary(outside)}")
        check(outside.is_error and "outside the roots" in outside.content[0].text, "/ is refused")
        trust = (await client.call_tool("assemble", {"agent": "claude"})).structured_content["trust"]
        say(f"  trust {json.dumps(trust)}")
        if "--trust-project" in flags:
            check(trust == {"trusted": True, "source": "flag"}, "trusted by the server's flag")
        else:
            check(trust == {"trusted": False, "source": "default"}, "untrusted without the flag")


async def main() -> None:
    sub = WORKSPACE / "src"
    await session("legacy", None)
    await session("auto", None)
    await session("legacy", [WORKSPACE, sub])
    await session("auto", [WORKSPACE])
    await session("legacy", None, env={"MECATL_TRUST_PROJECT": "1"})
    await session("auto", [WORKSPACE], flags=["--trust-project"])
    say("== a root below the workspace confines the tools to it")
    async with Client(server([]), mode="legacy", list_roots_callback=roots_callback([sub])) as client:
        inside = await client.call_tool("lint", {})
        say(f"  lint {{}} -> {summary(inside)}")
        check(not inside.is_error, "the first root is the default workspace")
        up = await client.call_tool("lint", {"workspace": ".."})
        say(f"  lint {{\"workspace\": \"..\"}} -> {summary(up)}")
        check(up.is_error, ".. out of the root is refused")
    say("all checks passed")


asyncio.run(main())
