#!/usr/bin/env bash
# SPEC §20.3: turns release archives into npm package tarballs.
#
#   scripts/npm-pack.sh ARCHIVES_DIR OUTDIR
#
# For each mecatl-prompt-VERSION-TARGET archive in ARCHIVES_DIR (as
# scripts/release.sh writes them) it packs the platform package
# @mecatl-prompt/PLATFORM (npm/platform/package.json filled with the name,
# version, `os`, `cpu` and, on Linux, `libc`; the binary in bin/), and then
# the launcher package mecatl-prompt (npm/mecatl-prompt) with those packages
# as exact-version optionalDependencies. The tarballs go to OUTDIR/*.tgz.
# Needs node and npm; makes no network request and runs no install script.
set -euo pipefail

[ "$#" -eq 2 ] || { echo "usage: scripts/npm-pack.sh ARCHIVES_DIR OUTDIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
archives_dir=$(cd "$1" && pwd)
mkdir -p "$2"
outdir=$(cd "$2" && pwd)

# TARGET → npm platform name, os, cpu, libc ("" where npm should not filter).
platform_of() {
  case "$1" in
    x86_64-unknown-linux-gnu) echo "linux-x64 linux x64 glibc" ;;
    x86_64-unknown-linux-musl) echo "linux-x64-musl linux x64 musl" ;;
    aarch64-unknown-linux-gnu) echo "linux-arm64 linux arm64 glibc" ;;
    x86_64-pc-windows-gnu) echo "win32-x64 win32 x64 " ;;
    aarch64-apple-darwin) echo "darwin-arm64 darwin arm64 " ;;
    x86_64-apple-darwin) echo "darwin-x64 darwin x64 " ;;
  esac
}
targets=(x86_64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-gnu
  x86_64-pc-windows-gnu aarch64-apple-darwin x86_64-apple-darwin)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
export npm_config_cache=$stage/npm-cache npm_config_update_notifier=false

version=''
platforms=()
shopt -s nullglob
for archive in "$archives_dir"/mecatl-prompt-*.tar.gz "$archives_dir"/mecatl-prompt-*.zip; do
  file=$(basename "$archive")
  stem=${file%.tar.gz}
  stem=${stem%.zip}
  target=''
  for known in "${targets[@]}"; do
    case "$stem" in *"-$known") target=$known ;; esac
  done
  if [ -z "$target" ]; then
    echo "npm-pack.sh: $file: no npm package is defined for its target; skipped" >&2
    continue
  fi
  archive_version=${stem#mecatl-prompt-}
  archive_version=${archive_version%"-$target"}
  if [ -n "$version" ] && [ "$archive_version" != "$version" ]; then
    echo "npm-pack.sh: $file is version $archive_version, other archives are $version" >&2
    exit 2
  fi
  version=$archive_version
  read -r platform os cpu libc <<< "$(platform_of "$target")"

  mkdir -p "$stage/x"
  case "$file" in
    *.zip) python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$archive" "$stage/x" ;;
    *) tar -xzf "$archive" -C "$stage/x" ;;
  esac
  pkg=$stage/$platform
  mkdir -p "$pkg/bin"
  exe=mecatl-prompt
  [ "$os" != win32 ] || exe=mecatl-prompt.exe
  install -m 755 "$stage/x/$stem/$exe" "$pkg/bin/$exe"
  cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$pkg/"
  printf '# @mecatl-prompt/%s\n\nThe mecatl-prompt %s binary for %s (Rust target `%s`). Install the `mecatl-prompt` package, which runs it.\n' \
    "$platform" "$version" "$platform" "$target" > "$pkg/README.md"
  node - "$root/npm/platform/package.json" "$pkg/package.json" "$platform" "$version" "$os" "$cpu" "$libc" <<'JS'
const fs = require("fs");
const [template, dest, platform, version, os, cpu, libc] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(template, "utf8"));
pkg.name = `@mecatl-prompt/${platform}`;
pkg.version = version;
pkg.os = [os];
pkg.cpu = [cpu];
if (libc) pkg.libc = [libc];
fs.writeFileSync(dest, JSON.stringify(pkg, null, 2) + "\n");
JS
  (cd "$pkg" && npm pack --silent --pack-destination "$outdir" >/dev/null)
  rm -rf "$stage/x"
  platforms+=("$platform")
  echo "@mecatl-prompt/$platform@$version from $file"
done

if [ "${#platforms[@]}" -eq 0 ]; then
  echo "npm-pack.sh: no release archive in $archives_dir" >&2
  exit 1
fi

launcher=$stage/launcher
cp -R "$root/npm/mecatl-prompt" "$launcher"
cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$launcher/"
node - "$launcher/package.json" "$version" "${platforms[@]}" <<'JS'
const fs = require("fs");
const [file, version, ...platforms] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
pkg.version = version;
pkg.optionalDependencies = Object.fromEntries(platforms.map((p) => [`@mecatl-prompt/${p}`, version]));
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
JS
(cd "$launcher" && npm pack --silent --pack-destination "$outdir" >/dev/null)
echo "mecatl-prompt@$version with ${platforms[*]}"
