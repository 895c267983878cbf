#!/usr/bin/env bash
# The MCP server under a real client (SPEC §21.4): the official MCP Python SDK (PyPI `mcp`,
# installed here into a venv under the target dir) drives `mecatl-prompt mcp` over stdio
# through scripts/mcp_sdk_client.py, in legacy and auto modes, with and without roots, with
# a trust check, and prints the transcript. Usage: scripts/mcp-sdk-test.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ge 1 ]; then
  bin=$(realpath "$1")
else
  cargo build --quiet --bin mecatl-prompt
  bin=$(realpath target/debug/mecatl-prompt)
fi

venv=target/mcp-sdk-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import mcp' 2>/dev/null; then
  command -v python3 >/dev/null || { apt-get update -qq && apt-get install -y -qq python3 python3-venv; }
  python3 -m venv "$venv" || { apt-get update -qq && apt-get install -y -qq python3-venv && python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'mcp>=2.3,<3'
fi
echo "MCP Python SDK $("$venv/bin/pip" show mcp | sed -n 's/^Version: //p')"

# A small workspace every agent loads something from, and an empty HOME.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ws="$tmp/ws"
mkdir -p "$ws/src" "$ws/.claude/rules" "$tmp/home"
printf 'Project notes.\n@docs/style.md\n' >"$ws/CLAUDE.md"
mkdir -p "$ws/docs" && printf 'Style.\n' >"$ws/docs/style.md"
printf 'Agents: run the tests.\n' >"$ws/AGENTS.md"
printf -- '---\npaths: "src/**"\n---\nRust rule.\n' >"$ws/.claude/rules/rust.md"
printf 'fn main() {}\n' >"$ws/src/main.rs"

# Run from a directory outside the package tree, so `types` cannot shadow the SDK's.
cd "$tmp"
HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" "$OLDPWD/$venv/bin/python" \
  "$OLDPWD/scripts/mcp_sdk_client.py" "$bin" "$ws"
