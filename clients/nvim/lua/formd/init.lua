-- formd: edit a formd form in a Neovim buffer.
--
--   require('formd').setup({ on_submit = function(values, info) ... end })
--   require('formd').open('login.json')          -- or  :Formd login.json
--
-- formd keeps the form (text, first responder, validity); this plugin forwards what the
-- person does (edits, <CR>, <BS> on an empty field, <Tab>/<S-Tab>, moving to another line)
-- and redraws the buffer from formd's events only. See clients/nvim/README.md.

local rpc = require('formd.rpc')
local render = require('formd.render')
local val = rpc.val

local M = {}

M.version = '0.1.0'

local defaults = {
  bin = nil, -- formd executable; else g:formd_bin, $FORMD_BIN, 'formd'
  on_submit = nil, -- fun(values, info): values = {field id = text}; info = {form, withheld}
  on_cancel = nil, -- fun(reason): the form was closed without being submitted
  include_secrets = false, -- hand secure fields' text to on_submit (submit includeSecrets)
  autofocus = true, -- focus the first field that can take focus when the form opens
  split = nil, -- nil: current window; else an Ex command such as 'split', 'vsplit', 'tabnew'
  timeout = 5000, -- ms to wait for a synchronous answer (get_state)
  key_timeout = 1000, -- ms a key that moves focus waits for formd, so typed-ahead keys land
                      -- on the line focus moved to (0: do not wait)
}

local config = vim.deepcopy(defaults)

--- Sessions by buffer number.
M.sessions = {}

function M.setup(opts)
  config = vim.tbl_extend('force', vim.deepcopy(defaults), opts or {})
  return M
end

local function notify(msg, level)
  vim.notify('formd: ' .. msg, level or vim.log.levels.INFO)
end

local function nonempty(s)
  if type(s) == 'string' and s ~= '' then
    return s
  end
  return nil
end

--- The formd executable for these options.
function M.bin(opts)
  opts = opts or {}
  return nonempty(opts.bin) or nonempty(config.bin) or nonempty(vim.g.formd_bin) or nonempty(os.getenv('FORMD_BIN')) or 'formd'
end

-- Characters (code points) of a UTF-8 string.
local function chars(s)
  local out = {}
  for ch in s:gmatch('[%z\1-\127\194-\244][\128-\191]*') do
    out[#out + 1] = ch
  end
  return out
end

-- Number of characters in the first `nbytes` bytes of s.
local function char_index(s, nbytes)
  return #chars(s:sub(1, nbytes))
end

-- Byte length of the first `n` characters of s.
local function byte_index(s, n)
  local cs = chars(s)
  local b = 0
  for i = 1, math.min(n, #cs) do
    b = b + #cs[i]
  end
  return b
end

local BULLET = '•'

local Session = {}
Session.__index = Session

-- A field whose text the buffer must not show.
local function masked(f)
  return f.secure == true and f.revealed ~= true
end

function Session:field_at(row)
  return self.model.fields[row]
end

function Session:row_of(id)
  if id == nil then
    return nil
  end
  for i, f in ipairs(self.model.fields) do
    if f.id == id then
      return i
    end
  end
  return nil
end

function Session:field(id)
  local row = self:row_of(id)
  return row and self.model.fields[row] or nil
end

function Session:valid_buf()
  return self.buf ~= nil and vim.api.nvim_buf_is_valid(self.buf)
end

-- The window to move the cursor in: the current one if it shows the form, else another.
function Session:window()
  if not self:valid_buf() then
    return nil
  end
  local cur = vim.api.nvim_get_current_win()
  if vim.api.nvim_win_get_buf(cur) == self.buf then
    return cur
  end
  local wins = vim.fn.win_findbuf(self.buf)
  return wins[1]
end

----------------------------------------------------------------------------------------
-- Requests

-- Sends a request; renders once nothing is outstanding (by then every event the request
-- caused has been applied to the model).
function Session:request(method, params, cb)
  params = params or {}
  if params.form == nil and method ~= 'initialize' and method ~= 'shutdown' then
    params.form = self.form
  end
  return self.rpc:request(method, params, function(err, result)
    if err ~= nil and not self.closed and not self.rpc.exited and not (cb and cb(err, result) == true) then
      notify(string.format('%s failed: %s', method, tostring(val(err.message))), vim.log.levels.WARN)
    elseif err == nil and cb then
      cb(nil, result)
    end
    self:_maybe_render()
  end)
end

--- The form's state as formd reports it (synchronously; not from inside a callback).
function Session:get_state(include_secrets)
  return self.rpc:request_sync('getState', { form = self.form, includeSecrets = include_secrets or nil }, self.opts.timeout)
end

function Session:focus(id)
  self:request('demandFocus', { field = id, demand = 'become' }, function(_, r)
    if r and r.outcome == 'refused' then
      self.focus_moved = true -- put the cursor back on the first responder
      self.dirty = true
    end
  end)
end

-- Waits (a little) for the answer to request `id`: keys that move focus do, so that the
-- keys typed after them go to the line focus moved to, as in a macro.
function Session:_await(id)
  local ms = self.opts.key_timeout or 0
  if id ~= nil and ms > 0 then
    vim.wait(ms, function()
      return self.rpc.callbacks[id] == nil
    end, 2)
  end
end

function Session:focus_next()
  self:sync()
  self:_await(self:request('focusNext', {}))
end

function Session:focus_previous()
  self:sync()
  self:_await(self:request('focusPrevious', {}))
end

-- The field a key acts on: the first responder, else the field under the cursor.
function Session:target()
  if self.model.firstResponder ~= nil then
    return self.model.firstResponder
  end
  local win = self:window()
  if win then
    local f = self:field_at(vim.api.nvim_win_get_cursor(win)[1])
    return f and f.id
  end
  return nil
end

function Session:press_return()
  self:sync()
  local id = self:target()
  if id ~= nil then
    self:_await(self:request('pressReturn', { field = id }))
  end
end

--- `delete` (one character backward; on an empty field `deleteOnEmpty` applies).
function Session:delete(id)
  self:sync()
  id = id or self:target()
  if id ~= nil then
    self:_await(self:request('delete', { field = id }))
  end
end

--- Submits (what pressing Return on a `returnAction: submit` field does).
function Session:submit()
  self:sync()
  self:request('submit', {}, function(_, r)
    if r and r.valid == false then
      self:_show_errors(r.errors)
    end
  end)
end

function Session:_show_errors(errors)
  local parts = {}
  for _, e in ipairs(type(errors) == 'table' and errors or {}) do
    local f = self:field(e.field)
    if f then
      self.show_errors[f.id] = true
      local label = nonempty(f.label) or f.id
      table.insert(parts, label .. ' ' .. table.concat(e.errors or {}, ', '))
    end
  end
  self.dirty = true
  if #parts > 0 then
    notify('cannot submit: ' .. table.concat(parts, '; '), vim.log.levels.WARN)
  end
end

----------------------------------------------------------------------------------------
-- The model, fed by events only

function Session:_set_snapshot(s)
  local fields = {}
  for _, f in ipairs(val(s.fields) or {}) do
    table.insert(fields, self:_normalize(f))
  end
  self.model.fields = fields
  self.model.firstResponder = val(s.firstResponder)
  self.show_errors = {}
  self.focus_moved = true
  self.structure_changed = true
end

function Session:_normalize(f)
  local out = {}
  for k, v in pairs(f) do
    out[k] = val(v)
  end
  out.id = f.id
  self:_learn_text(out.id, out.text, out.length)
  return out
end

-- What the client knows of a field's real text: formd sends it for fields that are not
-- masked; for masked ones only the client's own edits tell it (or getState includeSecrets).
function Session:_learn_text(id, text, length)
  if text ~= nil then
    self.known[id] = text
  elseif length == 0 then
    self.known[id] = ''
  elseif (self.setting[id] or 0) == 0 then
    self.known[id] = nil
  end
end

local events = {}

function events.formDefined(self, p)
  self:_set_snapshot(p)
end

events.formReset = events.formDefined

function events.fieldAdded(self, p)
  local f = self:_normalize(p.field)
  local index = math.max(0, math.min(val(p.index) or #self.model.fields, #self.model.fields))
  table.insert(self.model.fields, index + 1, f)
  self.structure_changed = true
end

function events.fieldRemoved(self, p)
  local row = self:row_of(p.field)
  if row then
    table.remove(self.model.fields, row)
    self.known[p.field] = nil
    self.structure_changed = true
  end
  if self.model.firstResponder == p.field then
    self.model.firstResponder = nil
  end
end

function events.fieldChanged(self, p)
  local f = self:field(p.field)
  if not f then
    return
  end
  for k, v in pairs(val(p.changes) or {}) do
    f[k] = val(v)
  end
  if val((p.changes or {}).text) ~= nil then
    self.known[f.id] = val(p.changes.text)
  end
  if (p.changes or {}).label ~= nil then
    self.structure_changed = true -- prefixes may change width
  end
end

function events.textChanged(self, p)
  local f = self:field(p.field)
  if not f then
    return
  end
  f.text = val(p.text)
  f.display = val(p.display) or ''
  f.length = val(p.length) or 0
  self:_learn_text(f.id, f.text, f.length)
end

function events.responderChanged(self, p)
  local f = self:field(p.field)
  if f then
    f.isFirstResponder = p.isFirstResponder == true
  end
  if p.isFirstResponder == true then
    self.model.firstResponder = p.field
  elseif self.model.firstResponder == p.field then
    self.model.firstResponder = nil
  end
end

function events.focusChanged(self, p)
  self.model.firstResponder = val(p.to)
  self.focus_moved = true
end

function events.demandChanged(self, p)
  local f = self:field(p.field)
  if f then
    f.demand = val(p.demand)
  end
end

function events.validityChanged(self, p)
  local f = self:field(p.field)
  if f then
    f.valid = p.valid == true
    f.errors = val(p.errors) or {}
  end
end

function events.changeRejected(self, p)
  local f = self:field(p.field)
  if not f then
    return
  end
  -- The edit did not happen: redraw the line from formd's text, and forget what we
  -- assumed the text of a masked field to be.
  self.force_rows[p.field] = true
  if masked(f) then
    self.known[f.id] = nil
  else
    self.known[f.id] = f.text
  end
  -- "empty" is a Backspace on an empty field: deleteOnEmpty's business, not an error.
  if val(p.reason) ~= 'empty' then
    local label = nonempty(f.label) or f.id
    notify(string.format('%s: change refused (%s)', label, tostring(val(p.reason))), vim.log.levels.WARN)
  end
end

function events.submitFailed(self, p)
  self:_show_errors(val(p.errors))
end

function events.submitted(self, p)
  self:_finish(val(p.values) or {}, val(p.withheld) or {})
end

function events.error(self, p)
  notify(tostring(val(p.message) or 'error'), vim.log.levels.WARN)
end

function Session:_on_event(method, p)
  if self.closed then
    return
  end
  if method ~= 'error' and p.form ~= nil and p.form ~= self.form then
    return
  end
  local seq = val(p.seq)
  if method ~= 'error' and seq ~= nil then
    if self.model.seq ~= nil and seq ~= self.model.seq + 1 and method ~= 'formDefined' and method ~= 'formReset' then
      self:_resync() -- missed events: ask for the whole state
    end
    self.model.seq = seq
  end
  local handler = events[method]
  if handler then
    handler(self, p)
  end
  self.dirty = true
  self:_maybe_render()
end

function Session:_resync()
  self:request('getState', {}, function(_, r)
    if r then
      self:_set_snapshot(r)
      self.model.seq = val(r.seq)
      self.dirty = true
    end
  end)
end

-- Asks formd for the text of masked fields the client does not know (a form file's
-- initial secret, a reset, a refused edit), so that edits can be computed.
function Session:_refresh_secrets()
  if self.fetching_secrets or self.closed then
    return
  end
  local missing = false
  for _, f in ipairs(self.model.fields) do
    if masked(f) and self.known[f.id] == nil and (f.length or 0) > 0 then
      missing = true
    end
  end
  if not missing then
    return
  end
  self.fetching_secrets = true
  self:request('getState', { includeSecrets = true }, function(_, r)
    self.fetching_secrets = false
    for _, f in ipairs(r and val(r.fields) or {}) do
      local mine = self:field(f.id)
      if mine and masked(mine) and self.known[f.id] == nil and (self.setting[f.id] or 0) == 0 then
        self.known[f.id] = val(f.text)
      end
    end
    self.dirty = true
  end)
end

----------------------------------------------------------------------------------------
-- Drawing

function Session:_maybe_render()
  if self.dirty and self.rpc.outstanding == 0 and self.ready then
    self:render()
  end
end

-- Writes lines keeping every window's cursor on the same character.
function Session:_write(first, last, lines)
  local cursors = {}
  local old = vim.api.nvim_buf_get_lines(self.buf, 0, -1, false)
  for _, win in ipairs(vim.fn.win_findbuf(self.buf)) do
    local c = vim.api.nvim_win_get_cursor(win)
    cursors[win] = { c[1], char_index(old[c[1]] or '', c[2]) }
  end
  self.writing = true
  local ok, err = pcall(vim.api.nvim_buf_set_lines, self.buf, first, last, false, lines)
  self.writing = false
  if not ok then
    notify('could not draw the form: ' .. tostring(err), vim.log.levels.ERROR)
  end
  self.mirror = vim.api.nvim_buf_get_lines(self.buf, 0, -1, false)
  for win, c in pairs(cursors) do
    local row = math.max(1, math.min(c[1], #self.mirror))
    local line = self.mirror[row] or ''
    pcall(vim.api.nvim_win_set_cursor, win, { row, byte_index(line, c[2]) })
  end
end

-- The characters a masked field's line stands for, aligned with its bullets.
function Session:_reset_shadow(f)
  local known = self.known[f.id]
  if known ~= nil and #chars(known) == #chars(render.display(f)) then
    self.shadow[f.id] = chars(known)
  elseif render.display(f) == '' then
    self.shadow[f.id] = {}
  else
    self.shadow[f.id] = false -- unknown: edits wait for getState includeSecrets
  end
  self.typed[f.id] = {}
end

--- Redraws the buffer from the model.
function Session:render()
  if self.closed or not self:valid_buf() then
    return
  end
  self.dirty = false
  local lines, prefixes = render.lines(self.model)
  self.prefixes = prefixes
  local current = vim.api.nvim_buf_get_lines(self.buf, 0, -1, false)
  if #current ~= #lines then
    self:_write(0, -1, lines)
  else
    for i, line in ipairs(lines) do
      if current[i] ~= line then
        self:_write(i - 1, i, { line })
      end
    end
  end
  self.mirror = vim.api.nvim_buf_get_lines(self.buf, 0, -1, false)
  self.lines = vim.deepcopy(self.mirror)
  self.structure_changed = false
  self.force_rows = {}
  self.edited = {}
  for _, f in ipairs(self.model.fields) do
    if masked(f) then
      self:_reset_shadow(f)
    else
      self.shadow[f.id] = nil
    end
  end
  render.decorate(self.buf, self.model, prefixes, self.show_errors)
  vim.api.nvim_buf_set_option(self.buf, 'modified', false)
  if self.focus_moved then
    self.focus_moved = false
    local row = self:row_of(self.model.firstResponder)
    local win = self:window()
    if row and win then
      self.last_row = row
      pcall(vim.api.nvim_win_set_cursor, win, { row, #lines[row] })
    end
  end
  self:_refresh_secrets()
end

----------------------------------------------------------------------------------------
-- Reading the person's edits

-- on_bytes: keeps the mirror of the buffer and, for masked fields, the real characters
-- behind the bullets. Typed characters arrive as bullets (InsertCharPre swapped them) and
-- are taken from the typed queue in order; other inserted text is taken literally (and
-- masked again at the next sync).
function Session:_on_bytes(start_row, start_col, old_end_row, old_end_col, new_end_row, new_end_col)
  if self.writing or self.closed then
    return
  end
  if old_end_row ~= 0 or new_end_row ~= 0 then
    self.structure_changed = true
    return
  end
  local row = start_row + 1
  local old_line = self.mirror[row]
  local new_line = vim.api.nvim_buf_get_lines(self.buf, start_row, start_row + 1, false)[1]
  self.mirror[row] = new_line
  local f = self:field_at(row)
  if f == nil or old_line == nil or not masked(f) then
    return
  end
  self.edited[f.id] = true
  local shadow = self.shadow[f.id]
  local prefix = self.prefixes[row] or ''
  if not shadow or start_col < #prefix then
    self.shadow[f.id] = false
    return
  end
  local old_tail = old_line:sub(#prefix + 1)
  local from = char_index(old_tail, start_col - #prefix)
  local to = char_index(old_tail, start_col - #prefix + old_end_col)
  local inserted = chars(new_line:sub(start_col + 1, start_col + new_end_col))
  local queue = self.typed[f.id] or {}
  local real = {}
  for _, ch in ipairs(inserted) do
    if ch == BULLET and #queue > 0 then
      table.insert(real, table.remove(queue, 1))
    elseif ch == BULLET then
      self.shadow[f.id] = false -- a bullet we cannot read (pasted from the form itself?)
      return
    else
      table.insert(real, ch)
    end
  end
  local out = {}
  for i = 1, from do
    out[#out + 1] = shadow[i]
  end
  for _, ch in ipairs(real) do
    out[#out + 1] = ch
  end
  for i = to + 1, #shadow do
    out[#out + 1] = shadow[i]
  end
  self.shadow[f.id] = out
end

-- InsertCharPre: on a masked field the typed character is kept here and a bullet goes
-- into the buffer instead, so the text never reaches the buffer, the screen or a register.
function Session:_insert_char_pre()
  local win = self:window()
  if not win then
    return
  end
  local cursor = vim.api.nvim_win_get_cursor(win)
  local f = self:field_at(cursor[1])
  if f == nil then
    return
  end
  local prefix = self.prefixes[cursor[1]] or ''
  if cursor[2] < #prefix then
    vim.v.char = '' -- never type into the label
    return
  end
  if masked(f) then
    self.typed[f.id] = self.typed[f.id] or {}
    table.insert(self.typed[f.id], vim.v.char)
    vim.v.char = BULLET
  end
end

-- Puts one line back the way the model draws it.
function Session:_revert_row(row)
  local lines = render.lines(self.model)
  if lines[row] ~= nil then
    self:_write(row - 1, row, { lines[row] })
    self.lines[row] = lines[row]
  end
  local f = self:field_at(row)
  if f and masked(f) then
    self:_reset_shadow(f)
  end
end

--- Reads the buffer and sends an edit (setText) for every field line the person changed.
--- Runs on TextChanged/TextChangedI and before every key that talks to formd.
function Session:sync()
  if self.closed or not self.ready or not self:valid_buf() then
    return
  end
  local lines = vim.api.nvim_buf_get_lines(self.buf, 0, -1, false)
  if self.structure_changed or #lines ~= #self.model.fields then
    -- Lines were added, removed or joined: the form's shape is formd's, not ours.
    self.dirty = true
    self:render()
    return
  end
  for row, f in ipairs(self.model.fields) do
    local line = lines[row]
    -- (A masked line can change without looking different: R over bullets.)
    if line ~= self.lines[row] or self.force_rows[f.id] or self.edited[f.id] then
      self.force_rows[f.id] = nil
      self.edited[f.id] = nil
      local prefix = self.prefixes[row] or ''
      local text
      if line:sub(1, #prefix) == prefix then
        local tail = line:sub(#prefix + 1)
        if not masked(f) then
          text = tail
        elseif tail == '' then
          text = ''
          self.shadow[f.id] = {}
        elseif self.shadow[f.id] then
          text = table.concat(self.shadow[f.id])
          local bullets = string.rep(BULLET, #self.shadow[f.id])
          if tail ~= bullets then
            self:_write(row - 1, row, { prefix .. bullets }) -- mask pasted text at once
            line = prefix .. bullets
          end
        end
      end
      if text == nil then
        self:_revert_row(row)
      else
        self.lines[row] = line
        if text ~= self.known[f.id] then
          self:_set_text(f, text)
        end
      end
    end
    self.typed[f.id] = {}
  end
end

function Session:_set_text(f, text)
  self.known[f.id] = text
  self.setting[f.id] = (self.setting[f.id] or 0) + 1
  self:request('setText', { field = f.id, text = text }, function()
    self.setting[f.id] = (self.setting[f.id] or 1) - 1
    self.dirty = true
  end)
end

-- The cursor went to another line: that field is asked to become first responder (and
-- if it refuses, the cursor goes back). In insert mode the cursor stays out of labels.
function Session:_cursor_moved(insert)
  if self.closed or not self.ready then
    return
  end
  local win = vim.api.nvim_get_current_win()
  if vim.api.nvim_win_get_buf(win) ~= self.buf then
    return
  end
  local cursor = vim.api.nvim_win_get_cursor(win)
  local prefix = self.prefixes[cursor[1]]
  if insert and prefix and cursor[2] < #prefix then
    vim.api.nvim_win_set_cursor(win, { cursor[1], #prefix })
  end
  if cursor[1] ~= self.last_row then
    self.last_row = cursor[1]
    local f = self:field_at(cursor[1])
    if f and f.id ~= self.model.firstResponder then
      self:focus(f.id)
    end
  end
end

-- <BS> in insert mode: an empty field sends `delete` (deleteOnEmpty may step back);
-- otherwise an ordinary backspace that never eats into the label.
function Session:_backspace()
  local win = vim.api.nvim_get_current_win()
  local cursor = vim.api.nvim_win_get_cursor(win)
  local f = self:field_at(cursor[1])
  local prefix = self.prefixes[cursor[1]]
  if f == nil or prefix == nil then
    return ''
  end
  local line = vim.api.nvim_get_current_line()
  if line:sub(#prefix + 1) == '' then
    -- An expr mapping may not change the buffer; <Cmd> runs the delete in key order.
    self.backspace_field = f.id
    return string.format('<Cmd>lua require("formd")._backspace_on_empty(%d)<CR>', self.buf)
  end
  if cursor[2] <= #prefix then
    return ''
  end
  return '<BS>'
end

----------------------------------------------------------------------------------------
-- Opening and closing

function Session:_finish(values, withheld)
  if self.finishing then
    return
  end
  self.finishing = true
  local function deliver(v, w)
    local cb = self.opts.on_submit
    self:close('submitted')
    if cb then
      local ok, err = pcall(cb, v, { form = self.form, withheld = w })
      if not ok then
        notify('on_submit failed: ' .. tostring(err), vim.log.levels.ERROR)
      end
    end
  end
  if self.opts.include_secrets and #withheld > 0 then
    -- The `submitted` event withholds secure fields; ask for them explicitly.
    self.rpc:request('submit', { form = self.form, includeSecrets = true }, function(err, r)
      if err == nil and r and r.valid then
        deliver(val(r.values) or {}, val(r.withheld) or {})
      else
        deliver(values, withheld)
      end
    end)
  else
    deliver(values, withheld)
  end
end

--- Closes the form: the buffer goes and formd is shut down. `reason` is passed to
--- on_cancel unless the form was submitted.
function Session:close(reason)
  if self.closed then
    return
  end
  self.closed = true
  M.sessions[self.buf] = nil
  if vim.api.nvim_get_current_buf() == self.buf and vim.api.nvim_get_mode().mode:sub(1, 1) == 'i' then
    vim.cmd('stopinsert') -- do not leave the person typing into whatever buffer comes next
  end
  pcall(vim.api.nvim_del_augroup_by_id, self.augroup)
  if reason ~= 'wiped' and self:valid_buf() then
    pcall(vim.api.nvim_buf_delete, self.buf, { force = true })
  end
  self.rpc:close()
  if reason ~= 'submitted' and self.opts.on_cancel then
    local ok, err = pcall(self.opts.on_cancel, reason or 'closed')
    if not ok then
      notify('on_cancel failed: ' .. tostring(err), vim.log.levels.ERROR)
    end
  end
end

--- 1-based line carrying the first-responder marker, or nil.
function Session:marked_line()
  if not self:valid_buf() then
    return nil
  end
  return render.marked_line(self.buf)
end

function Session:_on_exit(code, stderr)
  if self.closed then
    return
  end
  local last = stderr[#stderr]
  if not self.ready then
    notify(string.format('formd could not open %s (status %d)%s', self.path, code, last and (': ' .. last) or ''),
      vim.log.levels.ERROR)
  else
    notify(string.format('formd exited (status %d)%s', code, last and (': ' .. last) or ''), vim.log.levels.ERROR)
  end
  self:close('exited')
end

local function unique_name(path)
  local base = 'formd://' .. path
  local name, n = base, 1
  while vim.fn.bufexists(name) == 1 do
    n = n + 1
    name = base .. ' (' .. n .. ')'
  end
  return name
end

local function set_window_options(win)
  vim.api.nvim_win_call(win, function()
    vim.cmd('setlocal signcolumn=yes nowrap nospell nolist')
  end)
end

function Session:_attach()
  local buf = self.buf
  local group = vim.api.nvim_create_augroup('formd_' .. buf, { clear = true })
  self.augroup = group
  local function au(event, fn)
    vim.api.nvim_create_autocmd(event, { group = group, buffer = buf, callback = fn })
  end
  au({ 'TextChanged', 'TextChangedI', 'TextChangedP' }, function()
    self:sync()
  end)
  au('InsertCharPre', function()
    self:_insert_char_pre()
  end)
  au('InsertEnter', function()
    local f = self:field_at(vim.api.nvim_win_get_cursor(0)[1])
    self.last_row = vim.api.nvim_win_get_cursor(0)[1]
    if f and f.id ~= self.model.firstResponder and self.ready then
      self:focus(f.id)
    end
  end)
  au('CursorMoved', function()
    self:_cursor_moved(false)
  end)
  au('CursorMovedI', function()
    self:_cursor_moved(true)
  end)
  au('BufWinEnter', function()
    set_window_options(vim.api.nvim_get_current_win())
  end)
  au('BufWipeout', function()
    self:close('wiped')
  end)
  vim.api.nvim_buf_attach(buf, false, {
    on_bytes = function(_, _, _, sr, sc, _, oer, oec, _, ner, nec, _)
      if self.closed then
        return true
      end
      self:_on_bytes(sr, sc, oer, oec, ner, nec)
    end,
  })

  local map = function(modes, lhs, fn, extra)
    local o = vim.tbl_extend('force', { buffer = buf, silent = true, nowait = true }, extra or {})
    vim.keymap.set(modes, lhs, fn, o)
  end
  map({ 'n', 'i' }, '<CR>', function()
    self:press_return()
  end, { desc = 'formd: pressReturn' })
  map('i', '<BS>', function()
    return self:_backspace()
  end, { expr = true, desc = 'formd: backspace / delete on empty' })
  map('i', '<C-h>', function()
    return self:_backspace()
  end, { expr = true, desc = 'formd: backspace / delete on empty' })
  map({ 'n', 'i' }, '<Tab>', function()
    self:focus_next()
  end, { desc = 'formd: focusNext' })
  map({ 'n', 'i' }, '<S-Tab>', function()
    self:focus_previous()
  end, { desc = 'formd: focusPrevious' })

  vim.api.nvim_buf_create_user_command(buf, 'FormdSubmit', function()
    self:submit()
  end, { desc = 'formd: submit the form' })
  vim.api.nvim_buf_create_user_command(buf, 'FormdClose', function()
    self:close('closed')
  end, { desc = 'formd: close the form without submitting' })
end

--- Opens a form file in a buffer. Returns the session (nil and a message on failure).
--- opts: bin, on_submit, on_cancel, include_secrets, autofocus, split, mods, timeout
--- (defaults from setup()).
function M.open(path, opts)
  opts = vim.tbl_extend('force', vim.deepcopy(config), opts or {})
  if type(path) ~= 'string' or path == '' then
    notify('usage: :Formd FORM.json', vim.log.levels.ERROR)
    return nil, 'no form file'
  end
  local full = vim.fn.fnamemodify(vim.fn.expand(path), ':p')
  if vim.fn.filereadable(full) ~= 1 then
    notify('cannot read ' .. path, vim.log.levels.ERROR)
    return nil, 'cannot read ' .. path
  end
  render.setup_highlights()

  local self = setmetatable({
    path = full,
    opts = opts,
    form = 'default',
    model = { fields = {}, firstResponder = nil, seq = nil },
    known = {}, -- field id -> its real text, as far as the client knows
    setting = {}, -- field id -> setText requests not yet answered
    shadow = {}, -- masked field id -> the characters behind its bullets (false: unknown)
    typed = {}, -- masked field id -> characters typed since the last sync
    edited = {}, -- masked field id -> true when on_bytes saw a change not yet synced
    lines = {}, -- the buffer's lines as of the last render or sync
    mirror = {}, -- the buffer's lines as they are now (kept by on_bytes)
    prefixes = {},
    force_rows = {},
    show_errors = {},
    dirty = false,
    ready = false,
    closed = false,
  }, Session)

  local bin = M.bin(opts)
  if vim.fn.executable(bin) ~= 1 then
    notify(string.format('cannot start %s: not an executable (set g:formd_bin or $FORMD_BIN)', bin),
      vim.log.levels.ERROR)
    return nil, bin .. ' is not executable'
  end
  local client, err = rpc.start({ bin, '--form', full }, {
    on_event = function(method, params)
      self:_on_event(method, params)
    end,
    on_exit = function(code, stderr)
      self:_on_exit(code, stderr)
    end,
    on_bad_line = function()
      notify('formd wrote a line that is not JSON', vim.log.levels.WARN)
    end,
  })
  if not client then
    notify('cannot start ' .. bin .. ': ' .. tostring(err), vim.log.levels.ERROR)
    return nil, err
  end
  self.rpc = client

  local buf = vim.api.nvim_create_buf(false, true)
  self.buf = buf
  M.sessions[buf] = self
  vim.api.nvim_buf_set_name(buf, unique_name(full))
  for k, v in pairs({ buftype = 'nofile', bufhidden = 'wipe', swapfile = false, undolevels = -1, modeline = false }) do
    vim.api.nvim_buf_set_option(buf, k, v)
  end
  if nonempty(opts.mods) then
    vim.cmd(opts.mods .. ' split')
  elseif nonempty(opts.split) then
    vim.cmd(opts.split)
  end
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, buf)
  set_window_options(win)
  self.last_row = 1
  self:_attach()
  vim.api.nvim_buf_set_option(buf, 'filetype', 'formd')

  self:request('initialize', { clientInfo = { name = 'formd.nvim', version = M.version } }, function()
    return true -- optional: an old formd without it is fine
  end)
  self:request('getState', {}, function(_, state)
    if not state then
      return
    end
    self:_set_snapshot(state)
    self.model.seq = val(state.seq)
    self.ready = true
    self.dirty = true
    self.focus_moved = false
    if opts.autofocus and self.model.firstResponder == nil then
      self:request('focusNext', {})
    end
  end)
  return self
end

-- <BS> on an empty field (the <Cmd> its expr mapping returns).
function M._backspace_on_empty(buf)
  local s = M.sessions[buf]
  if s and not s.closed then
    s:delete(s.backspace_field)
  end
end

--- The session of a buffer (default: the current one).
function M.session(buf)
  if buf == nil or buf == 0 then
    buf = vim.api.nvim_get_current_buf()
  end
  return M.sessions[buf]
end

return M
