#!/usr/bin/env bash
# Regenerates the checked-in shell completion shims (completions/) and the
# man page (man/mecatl-prompt.1) from the binary, so they match its clap
# definitions. tests/cli/assets.rs fails when they are stale.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

cargo build --quiet --bin mecatl-prompt
bin() { cargo run --quiet --bin mecatl-prompt -- "$@"; }

mkdir -p completions man
bin completions bash >completions/mecatl-prompt.bash
bin completions zsh >completions/_mecatl-prompt
bin completions fish >completions/mecatl-prompt.fish
bin completions elvish >completions/mecatl-prompt.elv
bin completions powershell >completions/_mecatl-prompt.ps1
bin man >man/mecatl-prompt.1

echo "regenerated completions/ and man/mecatl-prompt.1"
