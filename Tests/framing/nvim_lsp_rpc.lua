-- Neovim's own JSON-RPC client (vim.lsp.rpc, the LSP base protocol) driving the real formd:
-- a login form's requests and results, events reaching the notification dispatcher, an
-- error with its code, multi-byte text. Run headless by Tests/framing/run:
--   FORMD_BIN=... nvim --headless -u NONE -c 'luafile Tests/framing/nvim_lsp_rpc.lua'
local rpc = require('vim.lsp.rpc')
local formd = os.getenv('FORMD_BIN')
local failures, checks = 0, 0

local function check(ok, what)
  checks = checks + 1
  if not ok then
    failures = failures + 1
    io.stderr:write('FAIL: ' .. what .. '\n')
  end
end

local events = {}
local exited = nil
local dispatchers = {
  notification = function(method, params) table.insert(events, { method = method, params = params }) end,
  server_request = function() return nil, rpc.rpc_response_error(-32601) end,
  on_exit = function(code) exited = code end,
  on_error = function(code, err) check(false, 'client error ' .. tostring(code) .. ' ' .. vim.inspect(err)) end,
}

-- 0.7-0.9: start(cmd, args, dispatchers); 0.10 and later: start({cmd, args...}, dispatchers).
local client
if vim.fn.has('nvim-0.10') == 1 then
  client = rpc.start({ formd }, dispatchers)
else
  client = rpc.start(formd, {}, dispatchers)
end

-- A request, waited for: its error and result.
local function request(method, params)
  local done, err, res = false, nil, nil
  client.request(method, params, function(e, r) done, err, res = true, e, r end)
  check(vim.wait(5000, function() return done end, 5), 'no answer to ' .. method)
  return err, res
end

local text = 'héllo wörld 👍🏽' -- 13 characters, 22 bytes
local err, init = request('initialize', { clientInfo = { name = 'nvim' } })
check(err == nil and init.framing == 'contentLength', 'initialize framing: ' .. vim.inspect(init))
err = request('defineForm', { fields = { { id = 'user', required = true }, { id = 'password', secure = true } } })
check(err == nil, 'defineForm: ' .. vim.inspect(err))
local _, focus = request('demandFocus', { field = 'user', demand = 'become' })
check(focus and focus.outcome == 'fulfilled', 'demandFocus: ' .. vim.inspect(focus))
local _, typed = request('insertText', { text = text })
check(typed and typed.applied == true, 'insertText: ' .. vim.inspect(typed))
err = request('setText', { field = 'nobody', text = 'x' })
check(err ~= nil and err.code == -32001, 'an unknown field is -32001: ' .. vim.inspect(err))
local _, utf8 = request('initialize', { positionEncoding = 'utf-8' })
check(utf8 and utf8.positionEncoding == 'utf-8', 'utf-8 positions')
-- An empty Lua table is a JSON array; formd takes named params, so `{}` is vim.empty_dict().
local _, state = request('getState', vim.empty_dict())
local user = state and state.fields[1] or {}
check(user.text == text and user.selection.start == 22 and user.length == 13, 'getState user: ' .. vim.inspect(user))

-- The events reached the notification dispatcher, in order, the text intact.
local names, changed = {}, nil
for _, e in ipairs(events) do
  table.insert(names, e.method)
  if e.method == 'textChanged' then changed = e.params end
end
check(names[1] == 'formDefined', 'first event: ' .. tostring(names[1]))
check(vim.tbl_contains(names, 'responderChanged'), 'responderChanged arrived')
check(changed ~= nil and changed.text == text and changed.length == 13, 'textChanged: ' .. vim.inspect(changed))

-- A failed notification comes back as an `error` notification.
local before = #events
client.notify('setText', { field = 'nobody', text = 'x' })
check(vim.wait(5000, function() return #events > before end, 5), 'no error notification')
local last = events[#events] or {}
check(last.method == 'error' and last.params.code == -32001, 'error notification: ' .. vim.inspect(last))

local _, bye = request('shutdown', vim.empty_dict())
check(bye ~= nil and next(bye) == nil, 'shutdown answers {}')
check(vim.wait(5000, function() return exited ~= nil end, 5) and exited == 0, 'formd exit status: ' .. tostring(exited))

print(string.format('nvim vim.lsp.rpc (%s): %d passed, %d failed', tostring(vim.version().minor), checks - failures, failures))
vim.cmd(failures == 0 and 'qall!' or 'cquit! 1')
