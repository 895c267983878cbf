-- Driven by scripts/nvim-lsp-test.sh: Neovim 0.7's client against
-- `mecatl-prompt lsp`. Prints one transcript line per step; quits with 1 on
-- the first mismatch.
local bin = os.getenv('MECATL_LSP_BIN')
local ws = os.getenv('MECATL_LSP_WS')

local function say(line)
  io.stdout:write(line .. '\n')
end

local function fail(why)
  say('FAIL: ' .. why)
  vim.cmd('cquit 1')
end

local function check(ok, why)
  if not ok then
    fail(why)
  end
end

local function has_mp009(bufnr)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == 'MP009' then
      return d
    end
  end
  return nil
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. ws .. '/CLAUDE.md')
  local claude = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'mecatl-prompt',
    cmd = { bin, '--trust-project', 'lsp' },
    root_dir = ws,
    init_options = { debounceMs = 50 },
  })
  check(id ~= nil, 'the client starts')
  vim.lsp.buf_attach_client(claude, id)
  local client = vim.lsp.get_client_by_id(id)
  check(vim.wait(10000, function() return client.initialized end), 'initialize answered')
  say('> initialize: ' .. client.server_capabilities.positionEncoding .. ', change '
    .. client.server_capabilities.textDocumentSync.change)

  check(vim.wait(10000, function() return has_mp009(claude) ~= nil end), 'MP009 published on open')
  local d = has_mp009(claude)
  say('< publishDiagnostics CLAUDE.md: ' .. d.code .. ' line ' .. d.lnum .. ': ' .. d.message)

  -- AGENTS.md made equal to CLAUDE.md, unsaved, through incremental changes.
  vim.cmd('edit ' .. ws .. '/AGENTS.md')
  local agents = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(agents, id)
  local lines = vim.api.nvim_buf_get_lines(claude, 0, -1, false)
  vim.api.nvim_buf_set_lines(agents, 0, -1, false, lines)
  say('> didChange AGENTS.md (incremental, unsaved): ' .. #lines .. ' lines')
  check(vim.wait(10000, function() return has_mp009(claude) == nil end),
    "CLAUDE.md's MP009 goes away when AGENTS.md says the same")
  say('< publishDiagnostics CLAUDE.md: ' .. #vim.diagnostic.get(claude) .. ' diagnostics')

  local uri = vim.uri_from_fname(ws .. '/CLAUDE.md')
  local hover = client.request_sync('textDocument/hover', {
    textDocument = { uri = vim.uri_from_fname(ws .. '/web/src/app.ts') },
    position = { line = 0, character = 0 },
  }, 10000, claude)
  check(hover and hover.result, 'hover answered')
  local value = hover.result.contents.value
  check(value:find('**Claude Code** adds 2 files', 1, true) ~= nil, 'hover names what Claude Code adds')
  check(value:find('strict TypeScript', 1, true) == nil, 'hover shows no content')
  say('< hover web/src/app.ts:')
  for line in value:gmatch('[^\n]+') do
    say('    ' .. line)
  end

  local lenses = client.request_sync('textDocument/codeLens', { textDocument = { uri = uri } }, 10000, claude)
  check(lenses and lenses.result and #lenses.result > 0, 'code lenses answered')
  local claude_lens
  for _, lens in ipairs(lenses.result) do
    say('< codeLens CLAUDE.md: ' .. lens.command.title)
    if lens.command.arguments[1].agent == 'claude' then
      claude_lens = lens
    end
  end
  check(claude_lens ~= nil, "a lens for Claude Code")

  local explained = client.request_sync('workspace/executeCommand', {
    command = claude_lens.command.command,
    arguments = claude_lens.command.arguments,
  }, 10000, claude)
  check(explained and explained.result and explained.result.agent == 'claude', 'explain answered')
  say('< executeCommand mecatl-prompt.explain: ' .. explained.result.file.detail)

  local definition = client.request_sync('textDocument/definition', {
    textDocument = { uri = uri },
    position = { line = 2, character = 6 },
  }, 10000, claude)
  check(definition and definition.result, 'definition answered')
  local target = definition.result.uri or definition.result[1].uri
  check(target == vim.uri_from_fname(ws .. '/docs/guide.md'), 'definition opens docs/guide.md, got ' .. tostring(target))
  say('< definition @docs/guide.md: ' .. target:gsub('.*/ws/', ''))

  client.stop()
  check(vim.wait(10000, function() return client.is_stopped() end), 'the server stops')
  say('> shutdown, exit: stopped')
end)
if not ok then
  fail(tostring(err))
end
vim.cmd('qall!')
