#!/usr/bin/env bash
# SPEC §15.5, §20.4: the lint step of action.yml. Runs the binary the install
# step put in $RUNNER_TEMP/mecatl-prompt/bin with `--format github lint`, so
# findings appear as annotations. The `agents` and `args` inputs arrive as
# MECATL_LINT_AGENTS and MECATL_LINT_ARGS: data, split on spaces, never run.
set -euo pipefail
read -ra extra <<< "${MECATL_LINT_ARGS:-}"
agents=()
if [ -n "${MECATL_LINT_AGENTS:-}" ]; then agents=(--agents "$MECATL_LINT_AGENTS"); fi
"$RUNNER_TEMP/mecatl-prompt/bin/mecatl-prompt" --format github lint ${agents[@]+"${agents[@]}"} ${extra[@]+"${extra[@]}"}
