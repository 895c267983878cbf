#!/usr/bin/env bash
# Performance benchmark of SPEC §11. Builds the release binary, generates the
# benchmark workspaces in a temporary directory (deterministic content, same
# on every machine), times every scenario against its baseline in the same
# run, prints one table, and exits 1 when a target is missed (2 on a setup
# error). Nothing is written into the repository; the temporary directory
# is removed on exit.
#
# Usage: scripts/bench.sh
# Environment:
#   BENCH_RUNS=N   timed runs per command and round (default 40)
#   BENCH_ROUNDS=N rounds (default 3); the order of a scenario's commands
#                  rotates from round to round and the medians pool them all
#   BENCH_KEEP=1   keep the temporary directory and print its path
#   BENCH_BIN=PATH time this binary instead of building one
#   BENCH_ONLY=RE  time only the scenarios whose name matches RE (grep -E)
#   BENCH_TIMER=loop  use the bash loop even when hyperfine is installed
#   MECATL_CORPUS_DIR=DIR  the corpus whose largest workspace `lint`, and
#                  `lsp`'s hover and code lens, are timed on (default
#                  ../shared/corpus beside the repository)
#
# Method. A wall-time target is the process's own time: the median minus
# the median of spawning `true` in the same run; ratios compare own times
# too. Timing uses hyperfine when it is on PATH (apt-get install hyperfine),
# else a loop in bash that alternates the commands run by run. When allowed
# (root), timed commands run under the real-time scheduler (chrt -f): on a
# loaded 2-core machine a freshly spawned process otherwise waits for a
# scheduler tick (4 ms at HZ=250), which drowns sub-millisecond figures.
# Scenarios of one process also run pinned to one CPU (taskset): a child
# woken on the other CPU of a VM costs a variable cross-CPU wake-up, which
# made even `true` bimodal (0.9 or 1.4 ms). Build with git status runs on
# both CPUs, since its two git queries run in parallel.
# Peak RSS comes from GNU time (apt-get install time); without it the column
# reads `-` and only time is judged. The rule files a 10,000-rule assemble
# opens are counted with strace when it is installed.
#
# compare: the three profiles on the git copy of the small workspace (below)
# against one `assemble --agent codex --stats` there (which, like compare,
# loads the o200k_base tables to count Codex's tokens exactly), and compare
# of the two estimated profiles against a plain `assemble`, each target
# <= 3x the baseline's own time; with strace, no file of the workspace may
# be opened twice (the profiles share one reading cache).
#
# Codex: `assemble --agent codex` on a git copy of the small workspace is
# timed against `codex debug prompt-input` on the same workspace, target
# >= 10x faster, when the oracle's Codex is installed
# (~/.cache/mecatl-oracle/node, ../shared/oracle/install-agents.sh; else
# the row is skipped with a note). Codex runs only inside an empty network
# namespace (unshare -n, or unshare -r -n when not root) with loopback up,
# a loopback model provider and a throw-away CODEX_HOME; both commands are
# timed inside that namespace, at normal priority on both CPUs (node runs
# threads).
#
# Claude: `assemble --agent claude` on the small workspace, and on a
# generated 100,000-file monorepo started 12 levels deep (`--at`), where
# the directories it lists are counted with strace (SPEC §15.7: at most the
# depth + 8, never proportional to the tree), and so are its system calls
# (`strace -c`: at most 20 per directory of the walk from / down to the
# start directory, issue 19); its own time is within 1.5x the small
# workspace's, both timed together.
#
# Gemini CLI (SPEC §16.8): `assemble --agent gemini` on a git copy of the
# small workspace with a GEMINI.md that imports AGENTS.md and a nested one
# (<= 3 ms own, <= 8 MiB), `compare` over the four profiles there against
# one `assemble --agent codex --stats` (<= 4x; no file opened twice), and
# in the monorepo (which carries a GEMINI.md beside every CLAUDE.md) from
# 12 levels deep: <= 5 ms own, directories listed <= depth + 8, system
# calls per level as Claude's.
#
# MCP (SPEC §21.3): `tools/call lint` answered by a warm `mcp` server, timed
# per round trip from a Python client on its stdio (the client's own time
# counted against the server), against the CLI's `lint` own time on the same
# workspace: at most 2 ms more. On the small workspace, and on the largest
# corpus workspace when the corpus is there.
#
# Reference rows without a target: when `ruler` is on PATH
# (npm i -g @intellectronica/ruler), `ruler apply --dry-run` over the same
# rules is timed next to `assemble`, at normal priority and under a timeout
# (it runs for seconds).

set -euo pipefail

RUNS=${BENCH_RUNS:-40}
ROUNDS=${BENCH_ROUNDS:-3}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mecatl-bench.XXXXXX")
if [[ ${BENCH_KEEP:-0} == 1 ]]; then
	echo "bench: keeping $tmp" >&2
else
	trap 'rm -rf "$tmp"' EXIT
fi

TIMER=loop
if [[ ${BENCH_TIMER:-} != loop ]] && command -v hyperfine >/dev/null; then TIMER=hyperfine; fi

# The prefix that runs a timed command at real-time priority, when allowed.
RT=()
if chrt -f 10 true 2>/dev/null; then RT=(chrt -f 10); fi
# The prefix that keeps a single-process scenario on one CPU (see Method).
PIN=()
if (($(nproc) > 1)) && taskset -c 1 true 2>/dev/null; then PIN=(taskset -c "$(($(nproc) - 1))"); fi

die() {
	echo "bench: $*" >&2
	exit 2
}

# ---------------------------------------------------------------- workspaces

# A paragraph of about 950 bytes, the body of every generated rule and
# command (which come to about 1 KiB each).
PARAGRAPH=""
for sentence in \
	"Keep functions short and name them after what they return." \
	"Handle every error where it can be answered, and wrap it with context otherwise." \
	"Write the test first when fixing a bug, so the fix is proven by a failure." \
	"Prefer plain data and small modules over deep hierarchies of types." \
	"Log at the boundary, not in the middle of the domain code." \
	"Document why a choice was made, not what the next line does." \
	"Never swallow an error silently; a warning costs one line." \
	"Keep public interfaces small and stable; internal ones may move." \
	"Measure before optimising, and keep the benchmark next to the change." \
	"Review your own diff before asking anybody else to read it." \
	"Delete dead code instead of commenting it out; history keeps it." \
	"Prefer a clear error message over a clever recovery that hides the cause." \
	"Keep configuration in one place and give every option a safe default." \
	"Run the formatter and the linter before every commit, not only in CI."; do
	PARAGRAPH+="$sentence"$'\n'
done

# write_rule FILE I: a ~1 KiB rule, every other one scoped by a glob.
write_rule() {
	if (($2 % 2)); then
		printf -- '---\npaths:\n  - "src/mod%d/**/*.rs"\n---\nRule %d.\n%s' "$2" "$2" "$PARAGRAPH" >"$1"
	else
		printf 'Rule %d applies everywhere.\n%s' "$2" "$PARAGRAPH" >"$1"
	fi
}

# write_command FILE I [KEY_LINE]: a ~1 KiB command with a frontmatter
# description, and KEY_LINE (e.g. `argument-hint: [x]`) when given.
write_command() {
	# shellcheck disable=SC2016 # $1 and $ARGUMENTS are the command's placeholders
	printf -- '---\ndescription: Run check number %d over $1\n%s---\nCheck %d: look at $1 with $ARGUMENTS.\n%s' \
		"$2" "${3:+$3$'\n'}" "$2" "$PARAGRAPH" >"$1"
}

# write_memory FILE N: a memory.json holding N entries.
write_memory() {
	local i
	{
		printf '{\n  "entries": {\n'
		for ((i = 1; i <= $2; i++)); do
			printf '    "project/fact-%03d": {\n' "$i"
			printf '      "value": "Fact %d: the service on port %d answers health checks.",\n' "$i" $((8000 + i))
			printf '      "description": "Health check port of service %d",\n' "$i"
			printf '      "updated_at": "2026-01-%02dT10:%02d:00Z"\n' $((i % 28 + 1)) $((i % 60))
			if ((i < $2)); then printf '    },\n'; else printf '    }\n'; fi
		done
		printf '  },\n  "history": []\n}\n'
	} >"$1"
}

# The small workspace of SPEC §11: 10 commands, 10 rules, an 8 KiB
# AGENTS.md, a soul, 50 memory entries, and a tool catalog.
make_small() {
	local ws=$1 i
	mkdir -p "$ws/.mecatl/rules" "$ws/.claude/rules" "$ws/.mecatl/commands" \
		"$ws/.claude/commands" "$ws/.mecatl/memory"
	for ((i = 1; i <= 10; i++)); do
		if ((i <= 5)); then
			write_rule "$ws/.mecatl/rules/rule-$i.md" "$i"
			write_command "$ws/.mecatl/commands/cmd-$i.md" "$i"
		else
			write_rule "$ws/.claude/rules/rule-$i.md" "$i"
			write_command "$ws/.claude/commands/cmd-$i.md" "$i"
		fi
	done
	local agents='# Project instructions'$'\n\n'
	for ((i = 1; ${#agents} < 8192; i++)); do
		agents+="## Section $i"$'\n\n'"$PARAGRAPH"$'\n'
	done
	printf '%s' "${agents:0:8192}" >"$ws/AGENTS.md"
	printf '%s\n' "You are direct and calm. Prefer short, concrete sentences." \
		"When unsure, say what you would check, then check it." \
		"Report what changed and what is left; celebrate nothing." >"$ws/.mecatl/soul.md"
	write_memory "$ws/.mecatl/memory/memory.json" 50
	cp "$repo/examples/demo/tools.json" "$ws/tools.json"
}

# The small workspace as a git repository with a nested AGENTS.md: Codex
# started in sub/ reads the root's 8 KiB file and sub/AGENTS.md.
make_codex() {
	local ws=$1
	cp -a "$tmp/small" "$ws"
	mkdir -p "$ws/.git" "$ws/sub"
	printf '# Notes for the sub-package\n\n%s' "$PARAGRAPH" >"$ws/sub/AGENTS.md"
}

# A workspace with N rules and N commands in the .claude directories.
make_many() {
	local ws=$1 n=$2 i
	mkdir -p "$ws/.claude/rules" "$ws/.claude/commands"
	for ((i = 1; i <= n; i++)); do
		write_rule "$ws/.claude/rules/r$i.md" "$i"
		write_command "$ws/.claude/commands/c$i.md" "$i"
	done
}

# A workspace of N Claude Code commands and skills (SPEC §15.7): a quarter
# skills (.claude/skills/sI/SKILL.md), a quarter flat commands, and half
# nested commands, twenty to a directory (.claude/commands/gK/cI.md). The
# workspace-relative paths of every file go to WS.files, one a line.
make_claude() {
	local ws=$1 n=$2 key_line=${3:-} i rel
	mkdir -p "$ws/.claude/commands" "$ws/.claude/skills"
	: >"$ws.files"
	for ((i = 1; i <= n; i++)); do
		case $((i % 4)) in
		0) rel=.claude/skills/s$i/SKILL.md ;;
		1) rel=.claude/commands/c$i.md ;;
		*) rel=.claude/commands/g$((i / 20))/c$i.md ;;
		esac
		mkdir -p "$ws/$(dirname "$rel")"
		write_command "$ws/$rel" "$i" "$key_line"
		echo "$rel" >>"$ws.files"
	done
}

# The codex workspace with a GEMINI.md that imports AGENTS.md and one in
# sub/: Gemini started in sub/ loads both, the root's with AGENTS.md
# inlined.
make_gemini() {
	local ws=$1
	cp -a "$tmp/codex" "$ws"
	printf '# Gemini notes\n\n@AGENTS.md\n' >"$ws/GEMINI.md"
	printf '# Gemini notes for the sub-package\n\n%s' "$PARAGRAPH" >"$ws/sub/GEMINI.md"
}

# The Gemini workspace with GitHub Copilot CLI's and opencode's own files
# too, so that compare shows all six profiles by default.
make_six() {
	local ws=$1
	cp -a "$tmp/gemini" "$ws"
	mkdir -p "$ws/.github/instructions" "$ws/.opencode/command"
	printf '# Copilot notes\n\n%s' "$PARAGRAPH" >"$ws/.github/copilot-instructions.md"
	printf -- '---\napplyTo: "src/**/*.ts"\n---\nTypeScript notes.\n' \
		>"$ws/.github/instructions/ts.instructions.md"
	printf '{"instructions": ["docs/*.md"]}\n' >"$ws/opencode.json"
	mkdir -p "$ws/docs" && printf 'Docs for opencode.\n' >"$ws/docs/guide.md"
	# shellcheck disable=SC2016 # $1 and $ARGUMENTS are the command's placeholders
	printf 'Review $1 with $ARGUMENTS.\n' >"$ws/.opencode/command/review.md"
}

# A workspace whose every hook and MCP server, for every profile that reads
# them, would start a program if anything ran it (SPEC §19.1).
make_armed() {
	local ws=$1
	mkdir -p "$ws/.claude" "$ws/.gemini" "$ws/.codex" "$ws/.git"
	printf 'Armed.\n' >"$ws/CLAUDE.md"
	printf '{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch %s/hook-ran"}]}]}}\n' \
		"$tmp" >"$ws/.claude/settings.json"
	printf '{"mcpServers": {"s": {"command": "touch", "args": ["%s/server-ran"]}}}\n' "$tmp" >"$ws/.mcp.json"
	printf '{"mcpServers": {"g": {"command": "touch", "args": ["%s/gemini-ran"]}}}\n' "$tmp" \
		>"$ws/.gemini/settings.json"
	printf '[mcp_servers.c]\ncommand = "touch"\nargs = ["%s/codex-ran"]\n' "$tmp" >"$ws/.codex/config.toml"
	printf '{"mcp": {"o": {"type": "local", "command": ["touch", "%s/opencode-ran"]}}}\n' "$tmp" \
		>"$ws/opencode.json"
}

# A monorepo of about 100,000 files: 100 packages of 999 files each, a
# `.git`, a CLAUDE.md, a GEMINI.md and five rules at the root, and a
# 12-level path l1/…/l12 with a CLAUDE.md and a GEMINI.md every third level
# (where `--at` starts the agents).
make_monorepo() {
	local ws=$1 p l deep
	mkdir -p "$ws/.claude/rules" "$ws/.git"
	printf '# Monorepo\n\n%s' "$PARAGRAPH" >"$ws/CLAUDE.md"
	printf '# Monorepo for Gemini\n\n%s' "$PARAGRAPH" >"$ws/GEMINI.md"
	for ((l = 1; l <= 5; l++)); do write_rule "$ws/.claude/rules/r$l.md" "$l"; done
	for ((p = 0; p < 100; p++)); do
		mkdir -p "$ws/packages/p$p/src"
		(cd "$ws/packages/p$p/src" && seq -f 'f%g.ts' 1 999 | xargs touch)
	done
	deep=$ws
	for ((l = 1; l <= 12; l++)); do
		deep=$deep/l$l
		mkdir -p "$deep"
		((l % 3)) || printf 'Level %d notes.\n' "$l" >"$deep/CLAUDE.md"
		((l % 3)) || printf 'Level %d notes for Gemini.\n' "$l" >"$deep/GEMINI.md"
	done
}

# A copy of the small workspace where FILE (relative) is a 2 GiB sparse
# file holding a little text then a hole.
make_huge() {
	local ws=$1 file=$2
	cp -a "$tmp/small" "$ws"
	printf 'A huge file: a few bytes of text, then a 2 GiB hole.\n' >"$ws/$file"
	truncate -s 2G "$ws/$file"
}

make_git() {
	local ws=$1 i
	cp -a "$tmp/small" "$ws"
	(
		cd "$ws"
		git init -q -b main
		git add -A
		for ((i = 1; i <= 5; i++)); do
			printf 'change %d\n' "$i" >>notes.txt
			git add notes.txt
			git -c user.name=bench -c user.email=bench@example.invalid commit -q -m "Change $i"
		done
		printf 'edited\n' >>AGENTS.md
	)
}

# ------------------------------------------------------------------- timing

# median: reads numbers, one a line; prints their median.
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# time_commands OUT CMD...: times each command (a string of words, split on
# spaces; no quoting) RUNS times per round over ROUNDS rounds, rotating the
# order each round; writes one line per command, the median in ms, to OUT.
# The commands run on one CPU unless SPREAD=1, at real-time priority unless
# NORT=1.
time_commands() {
	local out=$1 round i n
	shift
	local prefix=()
	[[ ${SPREAD:-0} == 1 ]] || prefix+=("${PIN[@]}")
	[[ ${NORT:-0} == 1 ]] || prefix+=("${RT[@]}")
	local cmds=("$@")
	n=${#cmds[@]}
	local files=()
	for ((i = 0; i < n; i++)); do files+=("$tmp/times.$i"); : >"$tmp/times.$i"; done
	for ((round = 0; round < ROUNDS; round++)); do
		local order=()
		for ((i = 0; i < n; i++)); do order+=($(((i + round) % n))); done
		if [[ $TIMER == hyperfine ]]; then
			local args=() idx
			for idx in "${order[@]}"; do args+=("${cmds[$idx]}"); done
			"${prefix[@]}" hyperfine -N --style none --warmup 3 --runs "$RUNS" \
				--export-json "$tmp/hf.json" "${args[@]}" >/dev/null 2>&1 ||
				die "hyperfine failed on: ${args[*]}"
			# One "times" array per command, in the order given.
			awk -v RS='"times"' 'NR > 1 {
					sub(/\].*/, ""); gsub(/[\[\n ]/, ""); print
				}' "$tmp/hf.json" >"$tmp/hf.times"
			local k=0 line
			while IFS= read -r line; do
				tr ',' '\n' <<<"$line" | awk 'NF { printf "%.6f\n", $1 * 1000 }' \
					>>"${files[${order[$k]}]}"
				k=$((k + 1))
			done <"$tmp/hf.times"
		else
			local run idx start end
			for ((run = 0; run < RUNS + 3; run++)); do
				for idx in "${order[@]}"; do
					start=$EPOCHREALTIME
					# shellcheck disable=SC2086 # commands are word lists
					"${prefix[@]}" ${cmds[$idx]} >/dev/null 2>&1 || true
					end=$EPOCHREALTIME
					((run < 3)) && continue
					awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", (b - a) * 1000 }' \
						>>"${files[$idx]}"
				done
			done
		fi
	done
	: >"$out"
	for ((i = 0; i < n; i++)); do median <"${files[$i]}" >>"$out"; done
}

# rss_runs CMD N: the peak RSS of N runs of CMD, in KiB, one a line.
rss_runs() {
	local kib i
	for ((i = 0; i < $2; i++)); do
		# shellcheck disable=SC2086 # commands are word lists
		kib=$(/usr/bin/time -f '%M' $1 2>&1 >/dev/null | tail -n 1)
		[[ $kib =~ ^[0-9]+$ ]] || die "cannot measure RSS of: $1"
		echo "$kib"
	done
}

# peak_rss CMD: the largest peak RSS over three runs, in KiB, or `-`.
peak_rss() {
	if [[ -x /usr/bin/time ]]; then rss_runs "$1" 3 | sort -n | tail -n 1; else echo -; fi
}

# median_rss CMD: the median peak RSS over nine runs, in KiB, or `-` (a
# single run varies by a few pages with the memory layout).
median_rss() {
	if [[ -x /usr/bin/time ]]; then rss_runs "$1" 9 | median; else echo -; fi
}

# ------------------------------------------------------------------- report

# row NAME MEDIAN BASELINE_NAME BASELINE_MEDIAN RATIO OWN RSS TARGET VERDICT:
# appends a table row (a file, so scenarios may run in subshells).
row() {
	printf '%s\t' "$@" >>"$tmp/table.tsv"
	printf '\n' >>"$tmp/table.tsv"
}

# fmt X: a number with two decimals.
fmt() { awk -v x="$1" 'BEGIN { printf "%.2f", x }'; }

rss_mib() {
	if [[ $1 == - ]]; then echo -; else awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; fi
}

verdict() { [[ $1 == pass ]] && echo pass || echo FAIL; }

# le A B: pass when A <= B.
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }' && echo pass || echo fail; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }' && echo pass || echo fail; }
both() { [[ $1 == pass && $2 == pass ]] && echo pass || echo fail; }

# ---------------------------------------------------------------- scenarios

# own_time SCENARIO TARGET_MS RSS_LIMIT_KIB CMD: the process's own time
# against a wall-time target and a peak RSS limit.
own_time() {
	local name=$1 target=$2 rss_limit=$3 cmd=$4 t spawn own rss
	selected "$name" || return 0
	time_commands "$tmp/medians" true "$cmd"
	{ read -r spawn; read -r t; } <"$tmp/medians"
	own=$(awk -v a="$t" -v b="$spawn" 'BEGIN { print a - b }')
	rss=$(peak_rss "$cmd")
	row "$name" "$(fmt "$t")" "true" "$(fmt "$spawn")" "-" "$(fmt "$own")" "$(rss_mib "$rss")" \
		"own <= $target ms, RSS <= $((rss_limit / 1024)) MiB" \
		"$(verdict "$(both "$(le "$own" "$target")" "$(le "${rss/-/0}" "$rss_limit")")")"
}

# against SCENARIO BASELINE_NAME MAX_RATIO RSS_LIMIT_KIB CMD BASELINE_CMD:
# own time at most MAX_RATIO times the baseline's own time.
against() {
	local name=$1 base_name=$2 max=$3 rss_limit=$4 cmd=$5 base=$6 spawn t b ratio rss
	selected "$name" || return 0
	time_commands "$tmp/medians" true "$cmd" "$base"
	{ read -r spawn; read -r t; read -r b; } <"$tmp/medians"
	ratio=$(awk -v t="$t" -v b="$b" -v s="$spawn" 'BEGIN { printf "%.2f", (t - s) / (b - s) }')
	rss=$(peak_rss "$cmd")
	row "$name" "$(fmt "$t")" "$base_name" "$(fmt "$b")" "${ratio}x" \
		"$(awk -v a="$t" -v b="$spawn" 'BEGIN { printf "%.2f", a - b }')" "$(rss_mib "$rss")" \
		"<= ${max}x $base_name, RSS <= $((rss_limit / 1024)) MiB" \
		"$(verdict "$(both "$(le "$ratio" "$max")" "$(le "${rss/-/0}" "$rss_limit")")")"
}

# mcp_lint SCENARIO WORKSPACE: the median round trip of `tools/call lint` on
# a warm `mcp` server started in WORKSPACE, against `lint`'s own time there;
# target: at most 2 ms more.
mcp_lint() {
	local name=$1 ws=$2 spawn t call
	selected "$name" || return 0
	time_commands "$tmp/medians" true "$bin -C $ws lint"
	{ read -r spawn; read -r t; } <"$tmp/medians"
	call=$(cd "$ws" && "${PIN[@]}" "${RT[@]}" python3 - "$bin" $((RUNS * ROUNDS)) <<'PY'
import json, statistics, subprocess, sys, time
server = subprocess.Popen([sys.argv[1], "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def ask(i, method, params):
    server.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode())
    server.stdin.flush()
    return server.stdout.readline()
ask(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}})
times = []
for i in range(1, int(sys.argv[2]) + 4):
    start = time.perf_counter_ns()
    answer = ask(i, "tools/call", {"name": "lint", "arguments": {}})
    if i > 3:
        times.append((time.perf_counter_ns() - start) / 1e6)
assert b'"isError":false' in answer, answer[:200]
server.stdin.close()
server.wait()
print(f"{statistics.median(times):.6f}")
PY
	) || die "the mcp client failed in $ws"
	local own
	own=$(awk -v a="$t" -v b="$spawn" 'BEGIN { print a - b }')
	row "$name" "$(fmt "$call")" "lint (own)" "$(fmt "$own")" \
		"$(awk -v c="$call" -v o="$own" 'BEGIN { printf "%+.2f ms", c - o }')" "$(fmt "$call")" "-" \
		"<= lint own + 2 ms" "$(verdict "$(le "$call" "$(awk -v o="$own" 'BEGIN { print o + 2 }')")")"
}

# same_as SCENARIO CMD BASELINE_CMD: own time and peak RSS within 5% of the
# baseline's (the same command on the workspace without the huge file),
# both as medians; such a small difference needs more runs.
same_as() {
	local name=$1 cmd=$2 base=$3 spawn t b ratio rss brss rss_ratio
	selected "$name" || return 0
	ROUNDS=$((ROUNDS * 6)) time_commands "$tmp/medians" true "$cmd" "$base"
	{ read -r spawn; read -r t; read -r b; } <"$tmp/medians"
	ratio=$(awk -v t="$t" -v b="$b" -v s="$spawn" 'BEGIN { printf "%.3f", (t - s) / (b - s) }')
	rss=$(median_rss "$cmd")
	brss=$(median_rss "$base")
	rss_ratio=$(awk -v a="${rss/-/1}" -v b="${brss/-/1}" 'BEGIN { printf "%.3f", a / b }')
	row "$name" "$(fmt "$t")" "without" "$(fmt "$b")" "${ratio}x (RSS ${rss_ratio}x)" \
		"$(awk -v a="$t" -v b="$spawn" 'BEGIN { printf "%.2f", a - b }')" "$(rss_mib "$rss")" \
		"< 1.05x time and RSS" \
		"$(verdict "$(both "$(lt "$ratio" 1.05)" "$(lt "$rss_ratio" 1.05)")")"
}

# more_than SCENARIO BASELINE_NAME MAX_MS CMD BASELINE_CMD: own time at
# most MAX_MS more than the baseline's. On both CPUs, where spawns are
# noisier, so over four times the rounds.
more_than() {
	local name=$1 base_name=$2 max=$3 cmd=$4 base=$5 spawn t b delta rss
	selected "$name" || return 0
	SPREAD=1 ROUNDS=$((ROUNDS * 4)) time_commands "$tmp/medians" true "$cmd" "$base"
	{ read -r spawn; read -r t; read -r b; } <"$tmp/medians"
	delta=$(awk -v t="$t" -v b="$b" 'BEGIN { printf "%.2f", t - b }')
	rss=$(peak_rss "$cmd")
	row "$name" "$(fmt "$t")" "$base_name" "$(fmt "$b")" "+${delta} ms" \
		"$(awk -v a="$t" -v b="$spawn" 'BEGIN { printf "%.2f", a - b }')" "$(rss_mib "$rss")" \
		"<= $base_name + $max ms" "$(verdict "$(le "$delta" "$max")")"
}

# reference SCENARIO CMD OTHER_CMD: CMD next to another tool doing similar
# work, for the record; no target. Both CPUs (node runs threads) and normal
# priority: a program running for seconds must not hold a CPU at real-time
# priority on a shared machine; `timeout` stops one that hangs.
reference() {
	local name=$1 cmd=$2 other=$3 spawn t b
	selected "$name" || return 0
	SPREAD=1 NORT=1 time_commands "$tmp/medians" true "$cmd" "timeout 120 $other"
	{ read -r spawn; read -r t; read -r b; } <"$tmp/medians"
	row "$name" "$(fmt "$t")" "ruler" "$(fmt "$b")" \
		"$(awk -v t="$t" -v b="$b" -v s="$spawn" 'BEGIN { printf "1/%.0f", (b - s) / (t - s) }')" \
		"$(awk -v a="$t" -v b="$spawn" 'BEGIN { printf "%.2f", a - b }')" "-" "(reference)" "info"
}

# in_netns ARGS...: runs time_commands ARGS inside a fresh, empty network
# namespace with only loopback up, on both CPUs at normal priority.
in_netns() {
	local ns=(unshare -n)
	[[ $(id -u) == 0 ]] || ns=(unshare -r -n)
	"${ns[@]}" bash -c "$(declare -f time_commands median die)
		$(declare -p RUNS ROUNDS TIMER tmp PIN RT)
		ip link set lo up || exit 2
		SPREAD=1 NORT=1 time_commands \"\$@\"" in-netns "$@" </dev/null
}

# faster_than SCENARIO BASELINE_NAME MIN_RATIO CMD BASELINE_CMD: the
# baseline's own time at least MIN_RATIO times CMD's, both timed inside one
# empty network namespace (in_netns).
faster_than() {
	local name=$1 base_name=$2 min=$3 cmd=$4 base=$5 spawn t b ratio rss
	selected "$name" || return 0
	in_netns "$tmp/medians" true "$cmd" "$base" || die "timing in a network namespace failed"
	{ read -r spawn; read -r t; read -r b; } <"$tmp/medians"
	ratio=$(awk -v t="$t" -v b="$b" -v s="$spawn" 'BEGIN { printf "%.1f", (b - s) / (t - s) }')
	rss=$(peak_rss "$cmd")
	row "$name" "$(fmt "$t")" "$base_name" "$(fmt "$b")" "1/${ratio}" \
		"$(awk -v a="$t" -v b="$spawn" 'BEGIN { printf "%.2f", a - b }')" "$(rss_mib "$rss")" \
		">= ${min}x faster than $base_name" "$(verdict "$(le "$min" "$ratio")")"
}

# skipped SCENARIO WHY: a row for a scenario that could not run here.
skipped() {
	selected "$1" || return 0
	row "$1" "-" "-" "-" "-" "-" "-" "$2" "skipped"
}

# selected NAME: true when BENCH_ONLY lets the scenario NAME run.
selected() { [[ -z ${BENCH_ONLY:-} ]] || grep -Eq -- "$BENCH_ONLY" <<<"$1"; }

# trace_opens LOG CMD...: runs CMD under strace, logging every call that
# opens a file (openat2 too: the binary opens listed files beneath the
# workspace root with it) with the paths of descriptors (-y).
trace_opens() {
	local log=$1
	shift
	strace -f -y -e trace=open,openat,openat2 -o "$log" "$@" >/dev/null 2>&1 || true
}

# opened_paths LOG: the path each open of a trace_opens log names, a path
# relative to a directory descriptor (the root held open, or a directory
# a listing holds open) joined to that directory's path; "." names the
# directory itself.
opened_paths() {
	# An O_PATH open only looks at a path (a stat through a descriptor).
	grep -v 'O_PATH' "$1" | sed -nE 's/.*open(at2?)?\((AT_FDCWD|[0-9]+)?(<([^>]*)>)?(, )?"([^"]*)".*/\4|\6/p' |
		awk -F'|' '{ if ($1 == "" || substr($2, 1, 1) == "/") print $2; else if ($2 == ".") print $1; else print $1 "/" $2 }'
}

# opened_rules WS: how many rule files `assemble` opens, from strace.
opened_rules() {
	trace_opens "$tmp/strace.out" "$bin" -C "$1" --trust-project assemble
	opened_paths "$tmp/strace.out" | grep -c '/rules/.*\.md$' || true
}

# dirs_listed CMD...: how many directories CMD lists (directories opened
# for reading, from strace; a confined reader opens them with openat2).
dirs_listed() {
	strace -f -e trace=open,openat,openat2 -o "$tmp/strace.dirs" "$@" >/dev/null 2>&1 || true
	grep 'O_DIRECTORY' "$tmp/strace.dirs" | grep -vc '= -1 ' || true
}

# syscalls_per_level DIR CMD...: runs CMD (which walks from / down to DIR)
# under `strace -f -c`; prints the system calls per level of the walk
# (every directory from / to DIR), then the calls, the failing readlinks
# and the levels.
syscalls_per_level() {
	local dir=$1 levels total readlinks
	shift
	strace -f -c -o "$tmp/strace.count" "$@" >/dev/null 2>&1 || true
	levels=$(($(tr -cd / <<<"${dir%/}" | wc -c) + 1))
	# Columns: % time, seconds, usecs/call, calls, [errors,] syscall.
	total=$(awk '$NF == "total" { print $4 }' "$tmp/strace.count")
	readlinks=$(awk '$NF == "readlink" && NF == 6 { print $5 }' "$tmp/strace.count")
	awk -v t="${total:-0}" -v l="$levels" 'BEGIN { printf "%.1f", t / l }'
	echo " ${total:-0} ${readlinks:-0} $levels"
}

main() {
	cd "$tmp"
	if [[ -n ${BENCH_BIN:-} ]]; then
		bin=$BENCH_BIN
	else
		echo "bench: building the release binary" >&2
		(cd "$repo" && cargo build --release --quiet) || die "cargo build failed"
		bin=${CARGO_TARGET_DIR:-$repo/target}/release/mecatl-prompt
	fi
	[[ -x $bin ]] || die "no binary at $bin"

	# A clean user tier: no user rules, soul, memory or settings.
	real_home=$HOME
	export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config XDG_DATA_HOME=$tmp/home/.local/share
	unset MECATL_TRUST_PROJECT MECATL_MEMORY_DIR MECATL_MODEL NO_COLOR CLICOLOR CLICOLOR_FORCE
	mkdir -p "$HOME"

	echo "bench: generating workspaces in $tmp" >&2
	make_small "$tmp/small"
	make_codex "$tmp/codex"
	make_gemini "$tmp/gemini"
	make_many "$tmp/many" 10000
	make_many "$tmp/k1" 1000
	rm -rf "$tmp/k1/.claude/rules"
	make_claude "$tmp/claude1k" 1000
	make_claude "$tmp/claude10k" 10000
	# Real files mostly carry an unquoted flow list as their hint.
	make_claude "$tmp/claude1k-hint" 1000 "argument-hint: [x]"
	make_huge "$tmp/huge-agents" AGENTS.md
	make_huge "$tmp/huge-rule" .claude/rules/huge.md
	make_huge "$tmp/huge-command" .claude/commands/huge.md
	make_huge "$tmp/huge-soul" .mecatl/soul.md
	make_huge "$tmp/huge-memory" .mecatl/memory/memory.json
	command -v git >/dev/null && make_git "$tmp/git"

	local small=$tmp/small assemble build
	assemble="--trust-project assemble --memory-dir .mecatl/memory"
	build="--trust-project build --no-git-status --tools tools.json"

	echo "bench: timing" >&2
	: >"$tmp/table.tsv"
	own_time "assemble, small workspace" 3 8192 "$bin -C $small $assemble"
	own_time "build --no-git-status, small workspace" 3 8192 "$bin -C $small $build"
	local codex_assemble="$bin -C $tmp/codex --trust-project --agent codex --at sub assemble"
	own_time "assemble --agent codex, small workspace" 3 8192 "$codex_assemble"

	# compare (SPEC §15.7): the three profiles at once against one assemble
	# on the same workspace, and the files it opens (each once, strace).
	# compare always counts Codex's tokens exactly, so its baseline is the
	# assemble that does too; the two estimated profiles alone are set
	# against the plain assemble.
	local compare="$bin -C $tmp/codex --trust-project --at sub compare"
	against "compare, three profiles, small workspace" "assemble --agent codex --stats" 3 131072 \
		"$compare" "$codex_assemble --stats"
	against "compare --agents mecatl,claude, small workspace" "assemble" 3 8192 \
		"$compare --agents mecatl,claude" "$bin -C $tmp/codex --trust-project assemble"
	if command -v strace >/dev/null && selected "compare, files opened twice"; then
		local twice
		# shellcheck disable=SC2086 # $compare is a command line
		trace_opens "$tmp/strace.out" $compare
		twice=$(opened_paths "$tmp/strace.out" | grep "^$tmp/codex/" | sort | uniq -d | wc -l)
		row "compare, files opened twice (strace)" "-" "-" "-" "-" "-" "-" "0 files, got $twice" \
			"$(verdict "$(le "$twice" 0)")"
	fi

	# Gemini CLI (SPEC §16.8): the small workspace, and compare over the four
	# profiles, whose files are each opened once.
	local gemini_assemble="$bin -C $tmp/gemini --trust-project --agent gemini --at sub assemble"
	own_time "assemble --agent gemini, small workspace" 3 8192 "$gemini_assemble"
	local compare4="$bin -C $tmp/gemini --trust-project --at sub compare"
	against "compare, four profiles, small workspace" "assemble --agent codex --stats" 4 131072 \
		"$compare4" "$bin -C $tmp/gemini --trust-project --agent codex --at sub assemble --stats"
	if command -v strace >/dev/null && selected "compare, four profiles, files opened twice"; then
		local twice4
		# shellcheck disable=SC2086 # $compare4 is a command line
		trace_opens "$tmp/strace.out" $compare4
		twice4=$(opened_paths "$tmp/strace.out" | grep "^$tmp/gemini/" | sort | uniq -d | wc -l)
		row "compare, four profiles, files opened twice (strace)" "-" "-" "-" "-" "-" "-" \
			"0 files, got $twice4" "$(verdict "$(le "$twice4" 0)")"
	fi

	# GitHub Copilot CLI and opencode (SPEC §17.9, §18.5): the small
	# workspace, and compare over all six profiles against one assemble.
	make_six "$tmp/six"
	own_time "assemble --agent copilot, small workspace" 3 8192 \
		"$bin -C $tmp/six --trust-project --agent copilot --at sub assemble"
	own_time "assemble --agent opencode, small workspace" 3 8192 \
		"$bin -C $tmp/six --trust-project --agent opencode --at sub assemble"
	against "compare, six profiles, small workspace" "assemble --agent codex --stats" 3 131072 \
		"$bin -C $tmp/six --trust-project --at sub compare" \
		"$bin -C $tmp/six --trust-project --agent codex --at sub assemble --stats"

	# Nothing runs (SPEC §19.1): every subcommand under every profile on a
	# workspace whose hooks and servers would each start `touch`; strace
	# counts the programs started besides the binary itself.
	if command -v strace >/dev/null && selected "nothing runs"; then
		local agent sub started=0 n
		make_armed "$tmp/armed"
		for agent in mecatl claude codex gemini copilot opencode; do
			for sub in assemble compare lint snapshot "commands list" "explain .mcp.json"; do
				# shellcheck disable=SC2086 # $sub is a subcommand and its words
				strace -f -e trace=execve -o "$tmp/execve.out" \
					"$bin" -C "$tmp/armed" --trust-project --agent "$agent" $sub >/dev/null 2>&1 || true
				n=$(grep -c 'execve(' "$tmp/execve.out" || true)
				started=$((started + n - 1))
			done
		done
		n=$(find "$tmp" -maxdepth 1 -name '*-ran' | wc -l)
		row "nothing runs: programs started, markers made (strace execve)" "-" "-" "-" "-" "-" "-" \
			"0 and 0, got $started and $n" "$(verdict "$(both "$(le "$started" 0)" "$(le "$n" 0)")")"
	fi

	local files=() i
	for ((i = 1; i <= 10000; i++)); do files+=("r$i.md"); done
	(cd "$tmp/many/.claude/rules" && against "rules list, 10,000 rules" cat 1.5 65536 \
		"$bin -C $tmp/many --trust-project rules list" "cat ${files[*]}")
	files=()
	for ((i = 1; i <= 10000; i++)); do files+=("c$i.md"); done
	(cd "$tmp/many/.claude/commands" && against "commands list, 10,000 commands" cat 1.5 65536 \
		"$bin -C $tmp/many --trust-project commands list" "cat ${files[*]}")

	# The 10,000 paths are longer than one argument may be (128 KiB), so
	# xargs hands them to one cat.
	(cd "$tmp/claude10k" && against "commands list --agent claude, 10,000 commands and skills" cat 1.5 65536 \
		"$bin -C $tmp/claude10k --trust-project --agent claude commands list" \
		"xargs -a $tmp/claude10k.files cat")

	own_time "assemble, 10,000 rules + 10,000 commands" 20 65536 \
		"$bin -C $tmp/many --trust-project assemble"
	if command -v strace >/dev/null && selected "rule files opened"; then
		local opened
		opened=$(opened_rules "$tmp/many")
		row "assemble, rule files opened (strace)" "-" "-" "-" "-" "-" "-" "<= 33 files, got $opened" \
			"$(verdict "$(le "$opened" 33)")"
	fi

	same_as "assemble, 2 GiB AGENTS.md" "$bin -C $tmp/huge-agents $assemble" "$bin -C $small $assemble"
	same_as "assemble, 2 GiB rule" "$bin -C $tmp/huge-rule $assemble" "$bin -C $small $assemble"
	same_as "commands list, 2 GiB command" "$bin -C $tmp/huge-command --trust-project commands list" \
		"$bin -C $small --trust-project commands list"
	same_as "assemble, 2 GiB soul" "$bin -C $tmp/huge-soul $assemble" "$bin -C $small $assemble"
	same_as "assemble, 2 GiB memory.json" "$bin -C $tmp/huge-memory $assemble" "$bin -C $small $assemble"

	# Dynamic completion as bash's registration script calls it.
	(
		cd "$tmp/k1"
		export COMPLETE=bash _CLAP_IFS=$'\013' _CLAP_COMPLETE_INDEX=2 _CLAP_COMPLETE_COMP_TYPE=9 \
			_CLAP_COMPLETE_SPACE=false MECATL_TRUST_PROJECT=1
		own_time "complete \`expand /\`, 1,000 commands" 10 65536 "$bin -- mecatl-prompt expand /"
	)
	(
		cd "$tmp/claude1k"
		export COMPLETE=bash _CLAP_IFS=$'\013' _CLAP_COMPLETE_INDEX=4 _CLAP_COMPLETE_COMP_TYPE=9 \
			_CLAP_COMPLETE_SPACE=false MECATL_TRUST_PROJECT=1
		own_time "complete \`expand /\` --agent claude, 1,000 commands and skills (half nested)" 10 65536 \
			"$bin -- mecatl-prompt --agent claude expand /"
	)
	(
		cd "$tmp/claude1k-hint"
		export COMPLETE=bash _CLAP_IFS=$'\013' _CLAP_COMPLETE_INDEX=4 _CLAP_COMPLETE_COMP_TYPE=9 \
			_CLAP_COMPLETE_SPACE=false MECATL_TRUST_PROJECT=1
		own_time "complete \`expand /\` --agent claude, 1,000 commands and skills (half nested, argument-hint: [x])" 10 65536 \
			"$bin -- mecatl-prompt --agent claude expand /"
	)

	# lint on the largest corpus workspace (SPEC §15.7), when the corpus
	# sits beside the repository (or MECATL_CORPUS_DIR names it).
	local corpus=${MECATL_CORPUS_DIR:-$repo/../shared/corpus} largest
	if [[ -d $corpus ]]; then
		largest=$(du -sb "$corpus"/*/ | sort -n | tail -n 1 | cut -f 2)
		largest=${largest%/}
		own_time "lint, largest corpus workspace (${largest##*/})" 20 65536 "$bin -C $largest lint"
		mcp_lint "mcp tools/call lint vs lint, largest corpus workspace (${largest##*/})" "$largest"
		# lsp (SPEC §21.3): one server per measure, driven over stdio by
		# scripts/lsp-bench.py, which prints its rows: diagnostics after a
		# change of a 50 KB CLAUDE.md, a 10 MB didOpen, idle CPU, peak RSS,
		# hover and code lens on this workspace.
		if selected "lsp" && command -v python3 >/dev/null; then
			mkdir -p "$tmp/lsp"
			BENCH_RUNS=$RUNS python3 "$repo/scripts/lsp-bench.py" --tsv "$bin" "$largest" "$tmp/lsp" \
				>>"$tmp/table.tsv" || true
		fi
	fi
	mcp_lint "mcp tools/call lint vs lint, small workspace" "$tmp/small"

	local codex_bin=${ORACLE_NODE_PREFIX:-${XDG_CACHE_HOME:-$real_home/.cache}/mecatl-oracle/node}/node_modules/.bin/codex
	if [[ ! -x $codex_bin ]]; then
		skipped "assemble --agent codex vs codex" "no Codex at $codex_bin (../shared/oracle/install-agents.sh)"
	elif ! command -v unshare >/dev/null || ! command -v ip >/dev/null; then
		skipped "assemble --agent codex vs codex" "needs unshare and ip to run Codex offline"
	else
		mkdir -p "$tmp/codex-home/.codex"
		(cd "$tmp/codex/sub" && RUNS=$((RUNS / 2)) faster_than "assemble --agent codex vs codex" \
			"codex" 10 "$codex_assemble" \
			"env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=$tmp/codex-home CODEX_HOME=$tmp/codex-home/.codex OPENAI_API_KEY=sk-dummy TERM=dumb $codex_bin debug prompt-input -c model_provider=local -c model_providers.local.name=local -c model_providers.local.base_url=http://127.0.0.1:9/v1 hi")
	fi

	if [[ -d $tmp/git ]]; then
		more_than "build with git status" "git status" 2 \
			"$bin -C $tmp/git --trust-project build" \
			"git -C $tmp/git status --porcelain -b"
	fi

	if command -v ruler >/dev/null; then
		mkdir -p "$tmp/ruler10/.ruler" "$tmp/ruler10k/.ruler"
		cp "$small"/.mecatl/rules/*.md "$small"/.claude/rules/*.md "$tmp/ruler10/.ruler/"
		cp -r "$tmp/many/.claude/rules/." "$tmp/ruler10k/.ruler/"
		(cd "$tmp/ruler10" && reference "assemble vs ruler, 10 rules" \
			"$bin -C $small --trust-project assemble --no-instructions --no-soul --no-memory" \
			"ruler apply --dry-run")
		(cd "$tmp/ruler10k" && RUNS=3 ROUNDS=1 reference "assemble vs ruler, 10,000 rules" \
			"$bin -C $tmp/many --trust-project assemble --no-instructions" "ruler apply --dry-run")
	fi

	own_time "assemble --agent claude, small workspace" 3 8192 \
		"$bin -C $small --trust-project --agent claude assemble"
	if selected "monorepo"; then
		make_monorepo "$tmp/mono"
		local at=l1/l2/l3/l4/l5/l6/l7/l8/l9/l10/l11/l12
		local mono="$bin -C $tmp/mono --trust-project --agent claude assemble --at $at"
		own_time "assemble --agent claude, 100,000-file monorepo, --at 12 deep" 5 8192 "$mono"
		against "assemble --agent claude, monorepo 12 deep vs small workspace" \
			"assemble --agent claude, small" 1.5 8192 \
			"$mono" "$bin -C $small --trust-project --agent claude assemble"
		if command -v strace >/dev/null; then
			local listed calls=()
			listed=$(dirs_listed "$bin" -C "$tmp/mono" --trust-project --agent claude assemble --at "$at")
			row "claude monorepo, directories listed (strace)" "-" "-" "-" "-" "-" "-" \
				"<= 12 + 8 directories, got $listed" "$(verdict "$(le "$listed" 20)")"
			# shellcheck disable=SC2086,SC2207 # $mono is a command line; the answer is four words
			calls=($(syscalls_per_level "$tmp/mono/$at" $mono))
			row "claude monorepo, system calls (strace -c)" "-" "-" "-" "-" "-" "-" \
				"<= 20 per level, got ${calls[0]} (${calls[1]} calls, ${calls[2]} failing readlink, ${calls[3]} levels)" \
				"$(verdict "$(le "${calls[0]}" 20)")"
		fi
		local gmono="$bin -C $tmp/mono --trust-project --agent gemini assemble --at $at"
		own_time "assemble --agent gemini, 100,000-file monorepo, --at 12 deep" 5 8192 "$gmono"
		if command -v strace >/dev/null; then
			local glisted gcalls=()
			glisted=$(dirs_listed "$bin" -C "$tmp/mono" --trust-project --agent gemini assemble --at "$at")
			row "gemini monorepo, directories listed (strace)" "-" "-" "-" "-" "-" "-" \
				"<= 12 + 8 directories, got $glisted" "$(verdict "$(le "$glisted" 20)")"
			# shellcheck disable=SC2086,SC2207 # $gmono is a command line; the answer is four words
			gcalls=($(syscalls_per_level "$tmp/mono/$at" $gmono))
			row "gemini monorepo, system calls (strace -c)" "-" "-" "-" "-" "-" "-" \
				"<= 20 per level, got ${gcalls[0]} (${gcalls[1]} calls, ${gcalls[2]} failing readlink, ${gcalls[3]} levels)" \
				"$(verdict "$(le "${gcalls[0]}" 20)")"
		fi
	fi

	print_table
	local failures
	failures=$(awk -F '\t' '$9 == "FAIL"' "$tmp/table.tsv" | wc -l)
	((failures == 0)) || {
		echo "bench: $failures target(s) missed" >&2
		exit 1
	}
}

print_table() {
	{
		printf 'scenario\tmedian ms\tbaseline\tbaseline ms\tratio\town ms\tpeak RSS\ttarget\tresult\t\n'
		cat "$tmp/table.tsv"
	} | awk -F '\t' '
		{ for (i = 1; i < NF; i++) { cell[NR, i] = $i; w = length($i); if (w > width[i]) width[i] = w } cols = NF - 1; n = NR }
		END {
			for (r = 1; r <= n; r++) {
				line = ""
				for (i = 1; i <= cols; i++) line = line sprintf("%-" width[i] "s", cell[r, i]) (i < cols ? " | " : "")
				sub(/ +$/, "", line); print line
				if (r == 1) { sep = ""; for (i = 1; i <= cols; i++) { s = ""; for (j = 0; j < width[i]; j++) s = s "-"; sep = sep s (i < cols ? "-|-" : "") } print sep }
			}
		}'
	echo
	echo "runs: $RUNS per command and round, $ROUNDS rounds; $(nproc) CPUs; $([[ $TIMER == hyperfine ]] && hyperfine --version || echo 'bash timing loop')${RT:+; real-time priority}${PIN:+; single-process scenarios pinned to one CPU}"
}

main "$@"
