#!/usr/bin/env bash
# SPEC §20.4: the install step of action.yml. Installs mecatl-prompt into
# $RUNNER_TEMP/mecatl-prompt/bin from the release archive for the runner,
# checked against the release's SHA256SUMS; builds it from the action's own
# checkout with `cargo install --locked --path` only when there is no archive
# to take, and says so in the log.
#
# The version is MECATL_PROMPT_VERSION (the `version` input), else the
# action's ref when it names a release (`v0.1.0`). Archives are fetched with
# curl from MECATL_PROMPT_RELEASE_BASE/vVERSION/ (any URL curl reads, e.g.
# `file://` in tests or a mirror), by default the GitHub releases of the
# action's repository. MECATL_ACTION_REF and MECATL_ACTION_REPOSITORY carry
# `github.action_ref` and `github.action_repository`; the runner leaves them
# empty in some composite actions (actions/runner#2473), so the action's
# path (`…/_actions/OWNER/REPO/REF`) is read instead.
#
# Choices: on x86_64 Linux the glibc build, or the static musl build where
# the system's C library is musl; a checksum that does not match, or an
# archive missing from SHA256SUMS, fails the step (it is never a reason to
# build from source); a download that fails for any reason falls back.
set -euo pipefail

dest=${RUNNER_TEMP:?}/mecatl-prompt
source_dir=${GITHUB_ACTION_PATH:?}
ref=${MECATL_ACTION_REF:-}
repository=${MECATL_ACTION_REPOSITORY:-}
if [ -z "$ref" ] || [ -z "$repository" ]; then
  case "$source_dir" in
    */_actions/*/*/*)
      after=${source_dir#*/_actions/}
      owner=${after%%/*}
      after=${after#*/}
      repository=${repository:-$owner/${after%%/*}}
      ref=${ref:-${after#*/}}
      ;;
  esac
fi

version=${MECATL_PROMPT_VERSION:-}
if [ -z "$version" ] && [[ $ref =~ ^v?[0-9]+\.[0-9]+\.[0-9]+ ]]; then
  version=$ref
fi
version=${version#v}

os=${RUNNER_OS:-$(uname -s)}
arch=${RUNNER_ARCH:-$(uname -m)}
target=''
case "$os/$arch" in
  Linux/X64 | Linux/x86_64)
    if ldd --version 2>&1 | grep -qi musl; then
      target=x86_64-unknown-linux-musl
    else
      target=x86_64-unknown-linux-gnu
    fi
    ;;
  Linux/ARM64 | Linux/aarch64) target=aarch64-unknown-linux-gnu ;;
  macOS/ARM64 | Darwin/arm64) target=aarch64-apple-darwin ;;
  macOS/X64 | Darwin/x86_64) target=x86_64-apple-darwin ;;
  Windows/X64) target=x86_64-pc-windows-gnu ;;
esac
exe=mecatl-prompt
archive_ext=.tar.gz
if [ "$target" = x86_64-pc-windows-gnu ]; then
  exe=mecatl-prompt.exe
  archive_ext=.zip
fi

# Builds from the action's checkout, saying why in the log.
build_from_source() {
  echo "::notice title=mecatl-prompt::$1; building from source with cargo install --locked --path (a few minutes)"
  cargo install --locked --path "$source_dir" --root "$dest"
  exit 0
}

[ -n "$version" ] || build_from_source "the action's ref '${ref}' names no release and the version input is empty"
[ -n "$target" ] || build_from_source "no release archive is built for $os/$arch"
if [ -n "${MECATL_PROMPT_RELEASE_BASE:-}" ]; then
  base=$MECATL_PROMPT_RELEASE_BASE
elif [ -n "$repository" ]; then
  base=${GITHUB_SERVER_URL:-https://github.com}/$repository/releases/download
else
  build_from_source "the action's repository is unknown"
fi

archive=mecatl-prompt-$version-$target$archive_ext
url=$base/v$version
download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT
for file in SHA256SUMS "$archive"; do
  if ! curl -fsSL --retry 3 -o "$download/$file" "$url/$file"; then
    build_from_source "no release archive $archive at $url (fetching $file failed)"
  fi
done

want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$download/SHA256SUMS")
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$download/$archive" | cut -d ' ' -f 1)
else
  got=$(shasum -a 256 "$download/$archive" | cut -d ' ' -f 1)
fi
if [ -z "$want" ]; then
  echo "::error title=mecatl-prompt::$url/SHA256SUMS has no line for $archive; refusing to install it"
  exit 1
fi
if [ "$got" != "$want" ]; then
  echo "::error title=mecatl-prompt::$archive has SHA-256 $got, but SHA256SUMS says $want; refusing to install it"
  exit 1
fi

case "$archive_ext" in
  .zip)
    if command -v unzip >/dev/null; then
      unzip -q "$download/$archive" -d "$download"
    else
      7z x -bd -o"$download" "$download/$archive" >/dev/null
    fi
    ;;
  *) tar -xzf "$download/$archive" -C "$download" ;;
esac
mkdir -p "$dest/bin"
install -m 755 "$download/${archive%"$archive_ext"}/$exe" "$dest/bin/$exe"
echo "Installed mecatl-prompt $version ($target) from $url/$archive, SHA-256 $got as SHA256SUMS says"
"$dest/bin/$exe" --version
