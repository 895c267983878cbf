#!/usr/bin/env bash
# Builds the tool and its tests for x86_64-pc-windows-gnu and runs the
# library's unit tests and the CLI test binary under Wine (SPEC §20.1,
# §20.6). Wine 8 lacks ProcessPrng in bcryptprimitives.dll, which Rust's
# standard library imports: a shim built from scripts/processprng-shim.c
# is put into a private Wine prefix (under the target directory) and
# loaded in place of the built-in DLL. Extra arguments go to `cargo test`
# (a test name filter after `--`); both test binaries run unless they name
# one themselves (`--lib`, or `--test cli`).
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-pc-windows-gnu
for tool in x86_64-w64-mingw32-gcc wine wineboot; do
  if ! command -v "$tool" >/dev/null; then
    echo "wine-test: $tool is missing (Debian: apt-get install gcc-mingw-w64-x86-64 wine)" >&2
    exit 2
  fi
done
if ! rustup target list --installed | grep -qx "$target"; then
  rustup target add "$target"
fi

target_dir=$(cargo metadata --no-deps --format-version 1 --offline |
  sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
export WINEPREFIX="$target_dir/wine-prefix"
export WINEDEBUG=-all
export WINEARCH=win64
shim="$target_dir/wine-shim/bcryptprimitives.dll"
mkdir -p "$(dirname "$shim")"
if [ ! -f "$shim" ] || [ scripts/processprng-shim.c -nt "$shim" ]; then
  x86_64-w64-mingw32-gcc -shared -O2 -o "$shim" scripts/processprng-shim.c -ladvapi32
fi
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  # No Mono or Gecko prompts: the tests need neither.
  WINEDLLOVERRIDES="mscoree,mshtml=" wineboot --init >/dev/null 2>&1
  wineserver --wait
fi
cp "$shim" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"

# The shim, not Wine's built-in DLL, for bcryptprimitives.
export WINEDLLOVERRIDES="bcryptprimitives=n;mscoree,mshtml="
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
targets=(--lib --test cli)
for arg in "$@"; do
  case $arg in
    --lib | --test) targets=() ;;
    --) break ;;
  esac
done
cargo test --target "$target" "${targets[@]}" "$@"
