#!/usr/bin/env bash
# SPEC §20.2: builds the release archives.
#
#   scripts/release.sh VERSION OUTDIR [TARGET…]
#
# For each target (default: the tier-1 targets of SPEC §20.1) it builds the
# stripped release binary and writes OUTDIR/mecatl-prompt-VERSION-TARGET.tar.gz
# (.zip for Windows), each holding one directory of that name with the binary,
# README.md, the licences, man/mecatl-prompt.1 and completions/. Then
# scripts/release-index.sh writes OUTDIR/SHA256SUMS and the Homebrew formula
# over every archive of VERSION in OUTDIR, so runs for other targets (on other
# machines) into the same OUTDIR add up.
#
# VERSION must be the crate's version (the binary reports it). Needs cargo;
# rustup to add a missing target's standard library; for
# x86_64-pc-windows-gnu the mingw-w64 linker (Debian: gcc-mingw-w64-x86-64)
# and `zip` or python3 to write the zip. Runs offline once the dependencies
# are fetched (`cargo fetch`). Archives are reproducible: file times are the
# last commit's, owners are root, entries are sorted (GNU tar).
set -euo pipefail

usage() {
  echo "usage: scripts/release.sh VERSION OUTDIR [TARGET…]" >&2
  exit 2
}
[ "$#" -ge 2 ] || usage
version=$1
outdir=$2
shift 2
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  targets=(x86_64-unknown-linux-gnu x86_64-unknown-linux-musl x86_64-pc-windows-gnu)
fi

root=$(cd "$(dirname "$0")/.." && pwd)
crate_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)
if [ "$version" != "$crate_version" ]; then
  echo "release.sh: VERSION $version is not the crate's version $crate_version (Cargo.toml)" >&2
  exit 2
fi
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
target_dir=${CARGO_TARGET_DIR:-$root/target}
host=$(rustc -vV | sed -n 's/^host: //p')

# Reproducible archives: every file dated at the last commit.
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 0)}
export SOURCE_DATE_EPOCH=$epoch

# The files every archive holds beside the binary.
payload=(README.md LICENSE-MIT LICENSE-APACHE man/mecatl-prompt.1
  completions/mecatl-prompt.bash completions/_mecatl-prompt completions/mecatl-prompt.fish
  completions/mecatl-prompt.elv completions/_mecatl-prompt.ps1)

# Writes the zip archive $2 of directory $1 (relative to the current directory).
write_zip() {
  if command -v zip >/dev/null; then
    find "$1" -exec touch -h -d "@$epoch" {} +
    find "$1" -print | LC_ALL=C sort | TZ=UTC zip -X -q "$2" -@
  elif command -v python3 >/dev/null; then
    python3 - "$1" "$2" "$epoch" <<'PY'
import os, sys, time, zipfile
src, dest, epoch = sys.argv[1], sys.argv[2], int(sys.argv[3])
stamp = time.gmtime(max(epoch, 315532800))[:6]
with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            info = zipfile.ZipInfo(path, stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (os.stat(path).st_mode & 0o777) << 16
            with open(path, "rb") as f:
                z.writestr(info, f.read())
PY
  else
    echo "release.sh: writing a .zip needs \`zip\` or python3; neither is on PATH" >&2
    exit 2
  fi
}

# Writes the tar.gz archive $2 of directory $1 (relative to the current directory).
write_tar() {
  if tar --version 2>/dev/null | grep -q 'GNU tar'; then
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$1" | gzip -9n > "$2"
  else
    tar -cf - "$1" | gzip -9n > "$2"
  fi
}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

for target in "${targets[@]}"; do
  case "$target" in
    *-windows-*) ext=.exe archive_ext=.zip ;;
    *) ext='' archive_ext=.tar.gz ;;
  esac
  if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target"
  fi
  if [ "$target" = x86_64-pc-windows-gnu ] && ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    echo "release.sh: $target links with x86_64-w64-mingw32-gcc (Debian: gcc-mingw-w64-x86-64), which is not on PATH" >&2
    exit 2
  fi
  echo "== $target: cargo build --release"
  CARGO_PROFILE_RELEASE_STRIP=symbols cargo build --manifest-path "$root/Cargo.toml" \
    --release --locked --target "$target" --bin mecatl-prompt
  binary=$target_dir/$target/release/mecatl-prompt$ext
  # A binary this machine runs must say the version the archive is named for.
  if [ "$target" = "$host" ] || { [ "$host" = x86_64-unknown-linux-gnu ] && [ "$target" = x86_64-unknown-linux-musl ]; }; then
    reported=$("$binary" --version)
    if [ "$reported" != "mecatl-prompt $version" ]; then
      echo "release.sh: $binary says \"$reported\", not mecatl-prompt $version" >&2
      exit 1
    fi
  fi

  name=mecatl-prompt-$version-$target
  rm -rf "${stage:?}/$name"
  mkdir -p "$stage/$name/man" "$stage/$name/completions"
  install -m 755 "$binary" "$stage/$name/mecatl-prompt$ext"
  for file in "${payload[@]}"; do
    install -m 644 "$root/$file" "$stage/$name/$file"
  done
  rm -f "$outdir/$name$archive_ext"
  if [ "$archive_ext" = .zip ]; then
    (cd "$stage" && write_zip "$name" "$outdir/$name$archive_ext")
  else
    (cd "$stage" && write_tar "$name" "$outdir/$name$archive_ext")
  fi
  echo "$name$archive_ext: $(wc -c < "$binary") bytes of binary, $(wc -c < "$outdir/$name$archive_ext") bytes of archive"
done

"$root/scripts/release-index.sh" "$version" "$outdir"
