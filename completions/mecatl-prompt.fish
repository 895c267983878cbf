complete --keep-order --exclusive --command mecatl-prompt --arguments "(COMPLETE=fish mecatl-prompt -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
