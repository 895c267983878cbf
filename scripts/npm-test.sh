#!/usr/bin/env bash
# SPEC §20.3: the npm round trip.
#
#   scripts/npm-test.sh ARCHIVES_DIR [BINARY]
#
# Packs the release archives in ARCHIVES_DIR with scripts/npm-pack.sh,
# checks that no package has an install script, installs the launcher and
# this machine's platform package from the tarballs into a temp project with
# no registry access (`npm install --offline`, a temp cache), and checks that
# `npx mecatl-prompt` gives the same output and exit status as BINARY
# (default: target/debug/mecatl-prompt, the cargo-built binary) for
# `--version`, `lint` on examples/demo and `lint` on tests/fixtures/lint
# (exit 1). Then, with the launcher alone installed, `npx mecatl-prompt`
# must fail with its one-line error. Needs node and npm; no network.
set -euo pipefail

[ "$#" -ge 1 ] || { echo "usage: scripts/npm-test.sh ARCHIVES_DIR [BINARY]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
archives_dir=$1
binary=$(realpath "${2:-$root/target/debug/mecatl-prompt}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export npm_config_cache=$work/npm-cache npm_config_update_notifier=false HOME=$work/home
mkdir -p "$HOME"

"$root/scripts/npm-pack.sh" "$archives_dir" "$work/tarballs"
for tarball in "$work"/tarballs/*.tgz; do
  tar -xzOf "$tarball" package/package.json | node -e '
    const pkg = JSON.parse(require("fs").readFileSync(0, "utf8"));
    const hooks = Object.keys(pkg.scripts || {}).filter((s) => /install|prepare/.test(s));
    if (hooks.length) { console.error(`${pkg.name} has install scripts: ${hooks}`); process.exit(1); }'
done

platform=$(node -p 'process.platform + "-" + process.arch')
launcher=$(ls "$work"/tarballs/mecatl-prompt-[0-9]*.tgz)
native=$(ls "$work/tarballs/mecatl-prompt-$platform"-[0-9]*.tgz)

# A temp project with the given tarballs installed offline.
install_into() {
  local dir=$1
  shift
  mkdir -p "$dir"
  echo '{"name": "npm-test", "version": "1.0.0", "private": true}' > "$dir/package.json"
  (cd "$dir" && npm install --offline --no-audit --no-fund "$@")
}

install_into "$work/project" "$launcher" "$native"
status=0
# Runs one command both ways and compares stdout, stderr and exit status.
same() {
  local want_code=$1 got_code=0 ref_code=0
  shift
  (cd "$work/project" && npx --offline mecatl-prompt "$@") > "$work/got.out" 2> "$work/got.err" || got_code=$?
  (cd "$work/project" && "$binary" "$@") > "$work/ref.out" 2> "$work/ref.err" || ref_code=$?
  if [ "$got_code" != "$ref_code" ] || [ "$ref_code" != "$want_code" ] \
    || ! diff -u "$work/ref.out" "$work/got.out" || ! diff -u "$work/ref.err" "$work/got.err"; then
    echo "npm-test.sh: npx mecatl-prompt $* differs (exit $got_code, cargo binary $ref_code, expected $want_code)" >&2
    status=1
  else
    echo "npx mecatl-prompt $*: same output as the cargo binary, exit $got_code"
  fi
}
same 0 --version
same 0 -C "$root/examples/demo" lint
same 1 -C "$root/tests/fixtures/lint" lint

install_into "$work/bare" "$launcher"
code=0
(cd "$work/bare" && npx --offline mecatl-prompt --version) > "$work/bare.out" 2> "$work/bare.err" || code=$?
if [ "$code" != 2 ] || ! grep -q "^mecatl-prompt: no binary for $platform" "$work/bare.err"; then
  echo "npm-test.sh: without a platform package the launcher exits $code: $(cat "$work/bare.err")" >&2
  status=1
else
  echo "launcher alone: $(cat "$work/bare.err")"
fi
exit "$status"
