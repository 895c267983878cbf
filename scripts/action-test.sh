#!/usr/bin/env bash
# SPEC §20.4: runs action.yml's two steps as a Linux x64 runner would, with
# the release archives in ARCHIVES_DIR served from a `file://` directory.
#
#   scripts/action-test.sh ARCHIVES_DIR [BINARY]
#
# Checks that the install step installs the archive's binary (and never runs
# cargo), that the lint step's output and exit status on tests/fixtures/lint
# equal BINARY's (default: target/debug/mecatl-prompt, the cargo-built one),
# that an archive whose sum differs from SHA256SUMS is refused, and that with
# no archive for the version the step says so and runs
# `cargo install --locked --path` (a stand-in cargo records the call). No
# network.
set -euo pipefail

[ "$#" -ge 1 ] || { echo "usage: scripts/action-test.sh ARCHIVES_DIR [BINARY]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
archives_dir=$(cd "$1" && pwd)
binary=$(realpath "${2:-$root/target/debug/mecatl-prompt}")
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
target=x86_64-unknown-linux-gnu
archive=mecatl-prompt-$version-$target.tar.gz

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The steps' `run` lines, in order: install, then lint.
mapfile -t runs < <(sed -n 's/^      run: //p' "$root/action.yml")
[ "${#runs[@]}" -eq 2 ] || { echo "action-test.sh: action.yml has ${#runs[@]} run lines, not 2" >&2; exit 1; }

# A release directory as GitHub serves it: BASE/vVERSION/FILE.
mkdir -p "$work/releases-good/v$version" "$work/releases-bad/v$version"
cp "$archives_dir/$archive" "$archives_dir/SHA256SUMS" "$work/releases-good/v$version/"
cp "$archives_dir/$archive" "$work/releases-bad/v$version/"
# The wrong sum: that of another file.
echo "$(sha256sum "$archives_dir/SHA256SUMS" | cut -d ' ' -f 1)  $archive" > "$work/releases-bad/v$version/SHA256SUMS"

# A cargo that records its arguments and installs nothing.
mkdir -p "$work/bin"
cat > "$work/bin/cargo" <<'SH'
#!/bin/sh
echo "$*" > "$CARGO_CALLED"
SH
chmod +x "$work/bin/cargo"

# Runs the install step as runner $1 with the given extra environment.
install_step() {
  local runner=$work/$1
  shift
  mkdir -p "$runner"
  env RUNNER_OS=Linux RUNNER_ARCH=X64 RUNNER_TEMP="$runner" GITHUB_ACTION_PATH="$root" \
    MECATL_ACTION_REF="v$version" MECATL_ACTION_REPOSITORY=OWNER/mecatl-prompt \
    CARGO_CALLED="$runner/cargo-called" PATH="$work/bin:$PATH" "$@" \
    bash --noprofile --norc -eo pipefail -c "${runs[0]}" > "$runner/log" 2>&1
}
fail() {
  echo "action-test.sh: $*" >&2
  exit 1
}

# 1. The archive of the action's ref installs, and lint runs from it.
install_step runner MECATL_PROMPT_VERSION='' MECATL_PROMPT_RELEASE_BASE="file://$work/releases-good" \
  || fail "install failed: $(cat "$work/runner/log")"
[ ! -e "$work/runner/cargo-called" ] || fail "cargo ran although the archive was there"
grep -q "^Installed mecatl-prompt $version ($target)" "$work/runner/log" || fail "no install line: $(cat "$work/runner/log")"
tar -xzf "$archives_dir/$archive" -C "$work"
cmp "$work/runner/mecatl-prompt/bin/mecatl-prompt" "$work/mecatl-prompt-$version-$target/mecatl-prompt" \
  || fail "the installed binary is not the archive's"
echo "install step: $(head -n 1 "$work/runner/log")"
step_code=0
direct_code=0
(cd "$root/tests/fixtures/lint" && env RUNNER_TEMP="$work/runner" GITHUB_ACTION_PATH="$root" \
  MECATL_LINT_AGENTS='' MECATL_LINT_ARGS='' bash --noprofile --norc -eo pipefail -c "${runs[1]}") \
  > "$work/step.out" || step_code=$?
(cd "$root/tests/fixtures/lint" && "$binary" --format github lint) > "$work/direct.out" || direct_code=$?
diff -u "$work/direct.out" "$work/step.out" || fail "the lint step's output differs from the direct run"
[ "$step_code" = 1 ] && [ "$direct_code" = 1 ] || fail "lint step exit $step_code, direct $direct_code, expected 1"
echo "lint step: same $(wc -l < "$work/step.out") lines and exit 1 as the direct run"

# 2. A sum that does not match is refused; nothing is installed or built.
if install_step bad MECATL_PROMPT_VERSION='' MECATL_PROMPT_RELEASE_BASE="file://$work/releases-bad"; then
  fail "an archive with the wrong SHA-256 was installed"
fi
grep -q '^::error title=mecatl-prompt::.*refusing to install it' "$work/bad/log" || fail "no refusal: $(cat "$work/bad/log")"
[ ! -e "$work/bad/mecatl-prompt" ] && [ ! -e "$work/bad/cargo-called" ] || fail "something was installed after a bad sum"
echo "wrong SHA256SUMS: $(grep '^::error' "$work/bad/log")"

# 3. No archive for the version: built from the action's checkout, said in the log.
install_step none MECATL_PROMPT_VERSION=v9.9.9 MECATL_PROMPT_RELEASE_BASE="file://$work/releases-good" \
  || fail "the fallback failed: $(cat "$work/none/log")"
grep -q '^::notice title=mecatl-prompt::no release archive mecatl-prompt-9.9.9-' "$work/none/log" || fail "no notice: $(cat "$work/none/log")"
[ "$(cat "$work/none/cargo-called")" = "install --locked --path $root --root $work/none/mecatl-prompt" ] \
  || fail "cargo ran as: $(cat "$work/none/cargo-called")"
echo "no archive: $(grep '^::notice' "$work/none/log")"
