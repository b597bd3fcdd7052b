-- formd: edit a formd form in a Neovim buffer.
--
--   require('formd').setup({ on_submit = function(values, info) ... end })
--   require('formd').open('login.json')            -- or  :Formd login.json
--   require('formd').attach(socket, 'default')     -- or  :FormdAttach SOCKET [FORM]
--
-- formd keeps the form (text, caret, first responder, validity, undo); this plugin sends
-- what the person does at the caret (formd.keys) over Neovim's own JSON-RPC client
-- (vim.lsp.rpc, formd.transport) and redraws the buffer from formd's events only
-- (formd.session, formd.render). See clients/nvim/README.md and :help formd.

local Session = require('formd.session')
local keys = require('formd.keys')
local render = require('formd.render')

local M = {}

M.version = '0.2.0'

local defaults = {
  bin = nil, -- formd executable; else g:formd_bin, $FORMD_BIN, 'formd'
  on_submit = nil, -- fun(values, info): values = {field id = text}; info = {form, withheld}
  on_cancel = nil, -- fun(reason): the form was closed without being submitted
  include_secrets = false, -- hand secure fields' text to on_submit
  autofocus = true, -- focus the first field that can take focus when the form opens
  split = nil, -- nil: current window; else an Ex command such as 'split', 'vsplit', 'tabnew'
  timeout = 5000, -- ms to wait for a synchronous answer (get_state)
  key_timeout = 1000, -- ms a key that moves focus or edits in normal mode waits for formd,
                      -- so the keys typed after it see its result (0: do not wait)
}

local config = vim.deepcopy(defaults)

--- Sessions by buffer number.
M.sessions = {}

function M.setup(opts)
  config = vim.tbl_extend('force', vim.deepcopy(defaults), opts or {})
  return M
end

local nonempty = Session.nonempty

--- The formd executable for these options.
function M.bin(opts)
  opts = opts or {}
  return nonempty(opts.bin) or nonempty(config.bin) or nonempty(vim.g.formd_bin) or nonempty(os.getenv('FORMD_BIN'))
    or 'formd'
end

local function unique_name(base)
  local name, n = base, 1
  while vim.fn.bufexists(name) == 1 do
    n = n + 1
    name = base .. ' (' .. n .. ')'
  end
  return name
end

-- Starts a session on argv and shows it in a new buffer. Returns the session, or nil and
-- a message.
local function show(opts, target)
  local bin = target.argv[1]
  if vim.fn.executable(bin) ~= 1 then
    Session.notify(string.format('cannot start %s: not an executable (set g:formd_bin or $FORMD_BIN)', bin),
      vim.log.levels.ERROR)
    return nil, bin .. ' is not executable'
  end
  render.setup_highlights()
  opts.version = M.version
  local self = Session.new(opts, target)
  local ok, err = self:start()
  if not ok then
    Session.notify('cannot start ' .. bin .. ': ' .. tostring(err), vim.log.levels.ERROR)
    return nil, err
  end

  local buf = vim.api.nvim_create_buf(false, true)
  self.buf = buf
  M.sessions[buf] = self
  self.on_close = function()
    M.sessions[buf] = nil
  end
  vim.api.nvim_buf_set_name(buf, unique_name(target.name))
  -- No swap file, undo history or undo file: nothing of the form is kept by the buffer.
  for k, v in pairs({ buftype = 'nofile', bufhidden = 'wipe', swapfile = false, undolevels = -1, undofile = false,
    modeline = false }) do
    vim.bo[buf][k] = v
  end
  if nonempty(opts.mods) then
    vim.cmd(opts.mods .. ' split')
  elseif nonempty(opts.split) then
    vim.cmd(opts.split)
  end
  keys.attach(self)
  vim.api.nvim_win_set_buf(0, buf)
  vim.bo[buf].filetype = 'formd'
  return self
end

--- Opens a form file in a buffer, with a private formd. Returns the session (nil and a
--- message on failure). opts: bin, on_submit, on_cancel, include_secrets, autofocus, split,
--- mods, timeout, key_timeout (defaults from setup()).
function M.open(path, opts)
  opts = vim.tbl_extend('force', vim.deepcopy(config), opts or {})
  if type(path) ~= 'string' or path == '' then
    Session.notify('usage: :Formd FORM.json', vim.log.levels.ERROR)
    return nil, 'no form file'
  end
  local full = vim.fn.fnamemodify(vim.fn.expand(path), ':p')
  if vim.fn.filereadable(full) ~= 1 then
    Session.notify('cannot read ' .. path, vim.log.levels.ERROR)
    return nil, 'cannot read ' .. path
  end
  return show(opts, { argv = { M.bin(opts), '--form', full }, name = 'formd://' .. full, path = full })
end

--- Shows form `form` (default "default") of a running `formd --listen SOCKET` daemon,
--- through `formd attach SOCKET`. Closing the buffer leaves the daemon running. Same opts
--- as open(). Returns the session (nil and a message on failure).
function M.attach(socket, form, opts)
  opts = vim.tbl_extend('force', vim.deepcopy(config), opts or {})
  if type(socket) ~= 'string' or socket == '' then
    Session.notify('usage: :FormdAttach SOCKET [FORM]', vim.log.levels.ERROR)
    return nil, 'no socket'
  end
  local full = vim.fn.fnamemodify(vim.fn.expand(socket), ':p')
  form = nonempty(form) or 'default'
  return show(opts, {
    argv = { M.bin(opts), 'attach', full },
    name = 'formd://' .. full .. '#' .. form,
    socket = full,
    form = form,
  })
end

--- The session of a buffer (default: the current one).
function M.session(buf)
  if buf == nil or buf == 0 then
    buf = vim.api.nvim_get_current_buf()
  end
  return M.sessions[buf]
end

return M
