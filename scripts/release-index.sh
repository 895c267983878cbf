#!/usr/bin/env bash
# SPEC §20.2–§20.3: indexes the release archives in a directory.
#
#   scripts/release-index.sh VERSION OUTDIR
#
# Writes OUTDIR/SHA256SUMS over every mecatl-prompt-VERSION-* archive in
# OUTDIR (`sha256sum -c` checks it), and OUTDIR/mecatl-prompt.rb: the
# Homebrew formula of packaging/homebrew/mecatl-prompt.rb with the URL and
# SHA-256 of the archive for each macOS and Linux platform present. A
# formula has one archive per OS and CPU: on x86_64 Linux that is the static
# musl build when present (it runs whatever the system's C library), else the
# glibc one. URLs are MECATL_PROMPT_RELEASE_BASE/vVERSION/ARCHIVE, the base
# defaulting to the GitHub releases of OWNER/mecatl-prompt (the release
# workflow sets it). scripts/release.sh runs this after building; the release
# workflow runs it once more over the archives of every build machine.
set -euo pipefail

[ "$#" -eq 2 ] || { echo "usage: scripts/release-index.sh VERSION OUTDIR" >&2; exit 2; }
version=$1
outdir=$2
root=$(cd "$(dirname "$0")/.." && pwd)
base=${MECATL_PROMPT_RELEASE_BASE:-https://github.com/OWNER/mecatl-prompt/releases/download}

if command -v sha256sum >/dev/null; then
  sha256() { sha256sum "$@"; }
else
  sha256() { shasum -a 256 "$@"; }
fi

cd "$outdir"
shopt -s nullglob
archives=("mecatl-prompt-$version-"*.tar.gz "mecatl-prompt-$version-"*.zip)
if [ "${#archives[@]}" -eq 0 ]; then
  echo "release-index.sh: no mecatl-prompt-$version-* archive in $outdir" >&2
  exit 1
fi
sorted=()
while IFS= read -r file; do sorted+=("$file"); done < <(printf '%s\n' "${archives[@]}" | LC_ALL=C sort)
sha256 "${sorted[@]}" > SHA256SUMS

# The formula's `url` and `sha256` lines for the first of the targets given
# whose archive is here, indented for an `on_<cpu>` block inside `on_<os>`.
archive_lines() {
  local target file
  for target in "$@"; do
    file=mecatl-prompt-$version-$target.tar.gz
    if [ -f "$file" ]; then
      printf '      url "%s/v%s/%s"\n' "$base" "$version" "$file"
      printf '      sha256 "%s"\n' "$(sha256 "$file" | cut -d ' ' -f 1)"
      return
    fi
  done
}

# One `on_<os>` block with an `on_<cpu>` block per CPU that has an archive.
os_block() {
  local os=$1 arm=$2 intel=$3 body='' lines
  lines=$(archive_lines $arm)
  [ -z "$lines" ] || body+="    on_arm do"$'\n'"$lines"$'\n'"    end"$'\n'
  lines=$(archive_lines $intel)
  [ -z "$lines" ] || body+="    on_intel do"$'\n'"$lines"$'\n'"    end"$'\n'
  [ -z "$body" ] || printf '  on_%s do\n%s  end\n' "$os" "$body"
}

platforms=$(
  os_block macos aarch64-apple-darwin x86_64-apple-darwin
  os_block linux aarch64-unknown-linux-gnu "x86_64-unknown-linux-musl x86_64-unknown-linux-gnu"
)
# The template's own comment (lines from column 0 with `#`) is left out.
{
  echo "# mecatl-prompt $version, written by scripts/release-index.sh from packaging/homebrew/mecatl-prompt.rb."
  while IFS= read -r line; do
    case "$line" in
      '#'*) ;;
      '  @PLATFORMS@') printf '%s\n' "$platforms" ;;
      *) printf '%s\n' "${line//@VERSION@/$version}" ;;
    esac
  done < "$root/packaging/homebrew/mecatl-prompt.rb"
} > mecatl-prompt.rb
echo "SHA256SUMS: ${#sorted[@]} archives; mecatl-prompt.rb: $(grep -c '^ *url ' mecatl-prompt.rb) of them"
