#!/usr/bin/env bash
# A real editor against `mecatl-prompt lsp` (SPEC §21.4): Neovim headless
# (Debian's neovim, 0.7: vim.lsp.start_client) opens a workspace made here,
# waits for the MP009 diagnostic, edits AGENTS.md unsaved (incremental sync)
# until CLAUDE.md's MP009 goes away, asks for hover, code lenses, a
# definition and the explain command, then stops the server. Prints the
# transcript; exits 1 on a mismatch (2 on a setup error).
#
# Usage: scripts/nvim-lsp-test.sh [BIN]   (default: target/debug/mecatl-prompt)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$repo/target/debug/mecatl-prompt}")
command -v nvim >/dev/null || { echo "nvim-lsp-test: nvim is not installed (apt-get install neovim)" >&2; exit 2; }
[[ -x $bin ]] || { echo "nvim-lsp-test: no binary at $bin (cargo build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ws=$tmp/ws
mkdir -p "$ws/docs" "$ws/web/src" "$ws/.claude/rules" "$tmp/home"
printf '# Project\n\nSee @docs/guide.md for the guide.\n' >"$ws/CLAUDE.md"
printf '# Agents\n' >"$ws/AGENTS.md"
printf 'Guide.\n' >"$ws/docs/guide.md"
printf 'Web rules for the app.\n' >"$ws/web/CLAUDE.md"
printf -- '---\npaths: web/**\n---\nUse strict TypeScript.\n' >"$ws/.claude/rules/web.md"
printf 'export {};\n' >"$ws/web/src/app.ts"
before=$(find "$ws" "$tmp/home" -printf '%p %s %T@\n' | sort)
cd "$ws"
# Neovim's own log and state go outside the home the server sees.
HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_DATA_HOME=$tmp/home/.local/share \
  XDG_CACHE_HOME=$tmp/nvim/cache XDG_STATE_HOME=$tmp/nvim/state \
  MECATL_LSP_BIN=$bin MECATL_LSP_WS=$ws \
  timeout 120 nvim --headless -u NONE -i NONE -n -c "luafile $repo/scripts/nvim-lsp-test.lua" </dev/null
after=$(find "$ws" "$tmp/home" -printf '%p %s %T@\n' | sort)
[[ $before == "$after" ]] || { echo "nvim-lsp-test: FAIL: files changed under the workspace or HOME" >&2; exit 1; }
echo "nvim-lsp-test: pass (nothing written)"
