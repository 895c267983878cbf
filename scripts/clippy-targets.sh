#!/usr/bin/env bash
# Lints the tier-2 targets (SPEC §20.1, §20.6): `cargo clippy --target T
# -- -D warnings` for each (the library and the binary; CLIPPY_ALL_TARGETS=1
# adds the tests and benchmarks), after `rustup target add` where its
# standard library is missing, and `cargo check` for x86_64-pc-windows-msvc
# (type-check only: its linker is not here). A target whose standard library
# cannot be installed is named on stderr and fails the run: never skipped
# silently. Targets may be given as arguments instead of the default list.
#
# The default list is one target per set of cfgs the code tells apart: the
# source distinguishes Linux, other Unix (macOS) and Windows, and never the
# architecture or the C library's ABI, so aarch64-unknown-linux-gnu and
# x86_64-apple-darwin lint as their siblings do. musl stays for its libc
# bindings, which differ from glibc's; x86_64-pc-windows-msvc is type-checked
# only when named, as it shares every cfg with windows-gnu.
set -uo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  targets=(aarch64-apple-darwin x86_64-unknown-linux-musl x86_64-pc-windows-gnu)
fi

scope=()
if [ "${CLIPPY_ALL_TARGETS:-0}" = 1 ]; then
  scope=(--all-targets)
fi
failed=()
uninstallable=()
installed=$(rustup target list --installed)
for target in "${targets[@]}"; do
  if ! grep -qx "$target" <<<"$installed" && ! rustup target add "$target"; then
    echo "clippy-targets: $target: its standard library cannot be installed; not checked" >&2
    uninstallable+=("$target")
    continue
  fi
  if [ "$target" = x86_64-pc-windows-msvc ]; then
    echo "== cargo check ${scope[*]} --target $target (type-check only)"
    cargo check "${scope[@]}" --target "$target" || failed+=("$target")
  else
    echo "== cargo clippy ${scope[*]} --target $target -- -D warnings"
    cargo clippy "${scope[@]}" --target "$target" -- -D warnings || failed+=("$target")
  fi
done
if [ "${#uninstallable[@]}" -gt 0 ]; then
  echo "clippy-targets: not installable: ${uninstallable[*]}" >&2
fi
if [ "${#failed[@]}" -gt 0 ]; then
  echo "clippy-targets: failed: ${failed[*]}" >&2
fi
[ "${#failed[@]}" -eq 0 ] && [ "${#uninstallable[@]}" -eq 0 ]
