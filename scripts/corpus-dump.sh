#!/usr/bin/env bash
# corpus-dump.sh OUT_DIR [BINARY]
#
# Runs every read-only subcommand of mecatl-prompt over every workspace of
# ../shared/corpus (text and JSON, trusted and untrusted) and writes each
# run's stdout, stderr and exit status under OUT_DIR, one file per run.
# Two dumps made from two builds compare with `diff -r OLD NEW`: this is
# how a refactoring shows that outputs stayed byte-identical.
#
# The environment is cleared (HOME and XDG dirs point into an empty temp
# directory, fixed --date), so a dump depends only on the corpus and the
# binary. Nothing is written outside OUT_DIR and the temp directory.
set -euo pipefail

out=${1:?usage: corpus-dump.sh OUT_DIR [BINARY]}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${2:-$here/target/release/mecatl-prompt}
corpus=${CORPUS_DIR:-$here/../shared/corpus}
[ -x "$bin" ] || { echo "corpus-dump: no binary at $bin (cargo build --release)" >&2; exit 2; }
[ -d "$corpus" ] || { echo "corpus-dump: no corpus at $corpus" >&2; exit 2; }

mkdir -p "$out"
# A fixed temp path: user-tier paths appear in outputs, and two dumps must
# compare equal. One dump at a time per machine.
tmp=${TMPDIR:-/tmp}/mecatl-corpus-dump
rm -rf "$tmp"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/config" "$tmp/data"

run() { # NAME ARGS...
  local name=$1; shift
  local status=0
  env -i PATH="$PATH" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" \
    XDG_DATA_HOME="$tmp/data" NO_COLOR=1 LC_ALL=C \
    "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err" || status=$?
  echo "$status" >"$out/$name.status"
}

for ws in "$corpus"/*/; do
  ws=${ws%/}
  w=$(basename "$ws")
  [ "$w" = "README.md" ] && continue
  for trust in trust-project no-trust-project; do
    for fmt in text json; do
      tag="$w.$trust.$fmt"
      common=(-C "$ws" "--$trust" --format "$fmt" -v)
      run "$tag.commands" "${common[@]}" commands list
      run "$tag.rules" "${common[@]}" rules list
      run "$tag.rules-check" "${common[@]}" rules list --check
      run "$tag.assemble" "${common[@]}" assemble --no-memory --no-user-model
      run "$tag.assemble-stats" "${common[@]}" assemble --no-memory --no-user-model --stats
      run "$tag.snapshot" "${common[@]}" snapshot
      run "$tag.build" "${common[@]}" build --no-git-status --date 2026-01-01 --cwd /w --shell /bin/sh --model m
    done
    # explain every command and rule name the listing shows, and one miss
    names=$(env -i PATH="$PATH" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" \
      XDG_DATA_HOME="$tmp/data" "$bin" -C "$ws" "--$trust" --format json -q commands list 2>/dev/null |
      sed -n 's/^      "name": "\(.*\)",$/\1/p' | head -20 || true)
    rules=$(env -i PATH="$PATH" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" \
      XDG_DATA_HOME="$tmp/data" "$bin" -C "$ws" "--$trust" --format json -q rules list 2>/dev/null |
      sed -n 's/^      "name": "\(.*\)",$/\1/p' | head -20 || true)
    i=0
    for n in $names; do
      i=$((i + 1))
      run "$w.$trust.explain-cmd-$i" -C "$ws" "--$trust" -v explain "/$n"
      run "$w.$trust.expand-$i" -C "$ws" "--$trust" -v expand "/$n" first second
    done
    i=0
    for n in $rules; do
      i=$((i + 1))
      run "$w.$trust.explain-rule-$i" -C "$ws" "--$trust" --format json -v explain --rule "$n"
    done
    run "$w.$trust.explain-miss" -C "$ws" "--$trust" -v explain no-such-name
  done
done
echo "corpus-dump: $(find "$out" -name '*.status' | wc -l) runs in $out"
