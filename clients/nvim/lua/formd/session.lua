-- formd.session: one form shown in one buffer.
--
-- The model (fields, first responder, each field's caret) is fed by formd's events only;
-- the buffer is redrawn from it once no request is outstanding, and the cursor is put on
-- formd's caret. Positions are UTF-8 bytes (initialize positionEncoding "utf-8"), as
-- Neovim counts columns, so a column minus the label's width is a position in formd (a
-- masked field's `•` is 3 bytes both in the buffer and in formd). What the person does is
-- turned into requests by formd.keys.

local transport = require('formd.transport')
local render = require('formd.render')
local val = transport.val

local Session = {}
Session.__index = Session

local function notify(msg, level)
  vim.notify('formd: ' .. msg, level or vim.log.levels.INFO)
end
Session.notify = notify

--- s when it is a non-empty string, else nil.
local function nonempty(s)
  if type(s) == 'string' and s ~= '' then
    return s
  end
  return nil
end
Session.nonempty = nonempty

--- A new session (not started). target: {argv, name, form, path?, socket?}.
function Session.new(opts, target)
  return setmetatable({
    opts = opts,
    argv = target.argv,
    path = target.path,
    socket = target.socket,
    form = target.form or 'default',
    attached = target.socket ~= nil, -- a shared daemon: closing leaves it running
    model = { fields = {}, firstResponder = nil, seq = nil },
    prefixes = {},
    show_errors = {}, -- field ids whose errors show although not touched (failed submit)
    caret_moved = {}, -- field ids whose text or caret changed since the last render
    placed = nil, -- {row, col} where the last render left the cursor
    last_row = 1,
    dirty = false,
    ready = false,
    closed = false,
  }, Session)
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
  return vim.fn.win_findbuf(self.buf)[1]
end

--- Whether a field can take focus (enabled and canBecomeFirstResponder): a demand for
--- one that cannot would be refused, or stay pending until it is enabled.
function Session.can_focus(f)
  return f.enabled ~= false and f.canBecomeFirstResponder ~= false
end

--- The caret of a field: the moving end of its selection (a byte position in its display).
function Session.caret(f)
  local sel = f.selection or {}
  local pos = sel.backward and sel.start or sel['end']
  return pos or #render.display(f)
end

----------------------------------------------------------------------------------------
-- Requests

-- Sends a request; renders once nothing is outstanding (by then every event the request
-- caused has been applied to the model). cb may return true to keep an error quiet.
function Session:request(method, params, cb)
  if self.byte_changes then
    self:send_changes() -- buffer changes not sent yet go first
  end
  params = params or {}
  if params.form == nil and method ~= 'initialize' and method ~= 'shutdown' then
    params.form = self.form
  end
  return self.rpc:request(method, params, function(err, result)
    if err ~= nil then
      if not self.closed and not self.rpc.exited and not (cb and cb(err, nil) == true) then
        notify(string.format('%s failed: %s', method, tostring(val(err.message))), vim.log.levels.WARN)
      end
    elseif cb then
      cb(nil, result)
    end
    self:_maybe_render()
  end)
end

--- The form's state as formd reports it (synchronously; not from inside a callback).
function Session:get_state(include_secrets)
  return self.rpc:request_sync('getState', { form = self.form, includeSecrets = include_secrets or nil },
    self.opts.timeout)
end

-- Waits (a little) for the answer to request `id`, so that the keys typed after a key
-- that moves focus or edits in normal mode see the buffer formd's answer drew.
function Session:await(id)
  local ms = self.opts.key_timeout or 0
  if id ~= nil and ms > 0 then
    vim.wait(ms, function()
      return not self.rpc:pending(id)
    end, 1)
  end
end

function Session:focus(id)
  return self:request('demandFocus', { field = id, demand = 'become' }, function(_, r)
    if r and r.outcome == 'refused' then
      self.focus_moved = true -- put the cursor back on the first responder
      self.dirty = true
    end
  end)
end

function Session:focus_next()
  self:await(self:request('focusNext', {}))
end

function Session:focus_previous()
  self:await(self:request('focusPrevious', {}))
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
  local id = self:target()
  if id ~= nil then
    self:await(self:request('pressReturn', { field = id }))
  end
end

--- `delete` backward by one character (on an empty field `deleteOnEmpty` applies).
function Session:delete(id)
  id = id or self:target()
  if id ~= nil then
    self:await(self:request('delete', { field = id }))
  end
end

--- Submits (what pressing Return on a `returnAction: submit` field does).
function Session:submit()
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
      table.insert(parts, label .. ': ' .. render.error_text(e.errors))
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
    fields[#fields + 1] = f
  end
  self.model.fields = fields
  self.model.firstResponder = val(s.firstResponder)
  self.show_errors = {}
  self.focus_moved = true
end

local events = {}

function events.formDefined(self, p)
  self:_set_snapshot(p)
end

events.formReset = events.formDefined

function events.fieldAdded(self, p)
  local index = math.max(0, math.min(val(p.index) or #self.model.fields, #self.model.fields))
  table.insert(self.model.fields, index + 1, p.field)
end

function events.fieldRemoved(self, p)
  local row = self:row_of(p.field)
  if row then
    table.remove(self.model.fields, row)
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
  for k, v in pairs(p.changes or {}) do
    f[k] = val(v)
  end
  if p.changes and (p.changes.selection or p.changes.display) then
    self.caret_moved[f.id] = true
  end
end

function events.textChanged(self, p)
  local f = self:field(p.field)
  if not f then
    return
  end
  f.refused = nil
  f.text = p.text
  f.display = p.display or ''
  f.length = p.length or 0
  f.selection = p.selection
  self.caret_moved[f.id] = true
end

function events.selectionChanged(self, p)
  local f = self:field(p.field)
  if f then
    f.selection = p.selection
    self.caret_moved[f.id] = true
  end
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
  local from = self:field(p.from)
  if from then
    from.refused = nil
  end
  self.model.firstResponder = p.to
  self.focus_left = p.to == nil and p.from or nil -- the cursor stays on the field left
  self.focus_moved = true
end

function events.demandChanged(self, p)
  local f = self:field(p.field)
  if f then
    f.demand = p.demand
  end
end

function events.validityChanged(self, p)
  local f = self:field(p.field)
  if f then
    f.valid = p.valid == true
    f.errors = val(p.errors) or {}
  end
end

-- Refusals a person should hear about; `empty` (Backspace on an empty field: deleteOnEmpty's
-- business) and `boundary` (nothing to delete there) are as quiet as in a text field.
local loud_reasons = { disabled = true, maxLength = true, inputFilter = true }

function events.changeRejected(self, p)
  local f = self:field(p.field)
  if f and loud_reasons[p.reason] then
    local label = nonempty(f.label) or f.id
    notify(string.format('%s: change refused (%s)', label, tostring(p.reason)), vim.log.levels.WARN)
    -- Also on the field's line, until its next change: in insert mode Neovim draws
    -- "-- INSERT --" over a message.
    f.refused = 'change refused (' .. tostring(p.reason) .. ')'
  end
end

function events.submitFailed(self, p)
  self:_show_errors(val(p.errors))
end

function events.submitted(self, p)
  self:_finish(p.values or {}, val(p.withheld) or {})
end

function events.error(self, p)
  notify(tostring(p.message or 'error'), vim.log.levels.WARN)
end

function events.shutdown(self)
  notify('the formd daemon is shutting down; the form is closed', vim.log.levels.WARN)
  self:close('exited')
end

function Session:_on_event(method, p)
  if self.closed then
    return
  end
  if method ~= 'error' and method ~= 'shutdown' and p.form ~= nil and p.form ~= self.form then
    return
  end
  local seq = val(p.seq)
  if seq ~= nil and self.model.seq ~= nil and method ~= 'formDefined' and method ~= 'formReset'
      and seq ~= self.model.seq + 1 then
    self:_resync() -- missed events: ask for the whole state
  end
  if seq ~= nil then
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
      self.model.seq = r.seq
      self.dirty = true
    end
  end)
end

----------------------------------------------------------------------------------------
-- Drawing

function Session:_maybe_render()
  if self.dirty and self.ready and not self.closed and self.rpc.outstanding == 0 and not self.byte_changes then
    self:render()
  end
end

-- Redraws as soon as the main loop is free (from callbacks that may not change the buffer).
function Session:render_soon()
  self.dirty = true
  vim.schedule(function()
    self:_maybe_render()
  end)
end

-- Writes lines keeping every window's cursor on the same character.
function Session:_write(first, last, lines)
  local cursors = {}
  local old = vim.api.nvim_buf_get_lines(self.buf, 0, -1, false)
  for _, win in ipairs(vim.fn.win_findbuf(self.buf)) do
    local c = vim.api.nvim_win_get_cursor(win)
    cursors[win] = { c[1], vim.fn.charidx(old[c[1]] or '', c[2]) }
  end
  self.writing = true
  local ok, err = pcall(vim.api.nvim_buf_set_lines, self.buf, first, last, false, lines)
  self.writing = false
  if not ok then
    notify('could not draw the form: ' .. tostring(err), vim.log.levels.ERROR)
  end
  local now = vim.api.nvim_buf_get_lines(self.buf, 0, -1, false)
  for win, c in pairs(cursors) do
    local row = math.max(1, math.min(c[1], #now))
    local col = c[2] >= 0 and vim.fn.byteidx(now[row] or '', c[2]) or 0
    pcall(vim.api.nvim_win_set_cursor, win, { row, math.max(col, 0) })
  end
end

--- Puts the cursor on a field's caret (row: the field's line).
function Session:place_cursor(win, row)
  local f = self:field_at(row)
  if not f then
    return
  end
  local prefix = self.prefixes[row] or ''
  pcall(vim.api.nvim_win_set_cursor, win, { row, #prefix + Session.caret(f) })
  self.last_row = row
end

--- Redraws the buffer from the model; the cursor goes to formd's caret.
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
  render.decorate(self.buf, self.model, prefixes, self.show_errors)
  vim.bo[self.buf].modified = false

  local win = self:window()
  -- In Visual mode the cursor is the Visual selection's end: the person's, not formd's.
  local visual = ({ v = true, V = true, ['\22'] = true })[vim.api.nvim_get_mode().mode]
  if win and not visual then
    local cursor_row = vim.api.nvim_win_get_cursor(win)[1]
    local responder = self:row_of(self.model.firstResponder)
    local left = self:row_of(self.focus_left)
    if self.focus_moved and (responder or left) then
      self:place_cursor(win, responder or left)
    else
      -- The field being typed into: the first responder, else the one under the cursor.
      local row = responder or cursor_row
      local f = self:field_at(row)
      if f and row == cursor_row and self.caret_moved[f.id] then
        self:place_cursor(win, row)
      end
    end
    local c = vim.api.nvim_win_get_cursor(win)
    local prefix = prefixes[c[1]]
    if prefix and c[2] < #prefix then
      pcall(vim.api.nvim_win_set_cursor, win, { c[1], #prefix }) -- never in a label
    end
    self.placed = vim.api.nvim_win_get_cursor(win)
  end
  self.focus_moved = false
  self.focus_left = nil
  self.caret_moved = {}
end

----------------------------------------------------------------------------------------
-- Opening and closing

--- Starts formd (or the bridge to a daemon) and draws the form in a new buffer.
--- Returns true, or false and a message.
function Session:start()
  local client, err = transport.start(self.argv, {
    on_event = function(method, params)
      self:_on_event(method, params)
    end,
    on_exit = function(code)
      self:_on_exit(code)
    end,
    on_error = function(message)
      if not self.closed then
        notify('JSON-RPC: ' .. message, vim.log.levels.WARN)
      end
    end,
  })
  if not client then
    return false, err
  end
  self.rpc = client
  self:request('initialize', {
    clientInfo = { name = 'formd.nvim', version = self.opts.version },
    positionEncoding = 'utf-8',
  }, function(e)
    if e then
      notify('initialize failed: ' .. tostring(e.message), vim.log.levels.ERROR)
      self:close('exited')
    end
    return true
  end)
  self:request('getState', {}, function(e, state)
    if e then
      notify(string.format('cannot show form %q: %s', self.form, tostring(e.message)), vim.log.levels.ERROR)
      self:close('exited')
      return true
    end
    self:_set_snapshot(state)
    self.model.seq = state.seq
    self.ready = true
    self.dirty = true
    self.focus_moved = false
    if self.opts.autofocus and self.model.firstResponder == nil then
      self:request('focusNext', {})
    end
  end)
  return true
end

function Session:_finish(values, withheld)
  if self.finishing then
    return
  end
  self.finishing = true
  -- The `submitted` event never holds a masked field's text: these are the shown values.
  local order = {}
  for _, f in ipairs(self.model.fields) do
    if values[f.id] ~= nil then
      order[#order + 1] = f.id
    end
  end
  local function deliver(v, w)
    local cb = self.opts.on_submit
    local left_insert = self:close('submitted')
    vim.g.formd_last_submit = {
      form = self.form,
      values = next(values) and values or vim.empty_dict(),
      withheld = w,
    }
    if cb then
      local ok, err = pcall(cb, v, { form = self.form, withheld = w })
      if not ok then
        notify('on_submit failed: ' .. tostring(err), vim.log.levels.ERROR)
      end
    else
      local parts = {}
      for _, id in ipairs(order) do
        parts[#parts + 1] = string.format('%s=%s', id, values[id])
      end
      local msg = 'submitted ' .. (#parts > 0 and table.concat(parts, ', ') or '(no values)')
      if #withheld > 0 then
        msg = msg .. ' (withheld: ' .. table.concat(withheld, ', ') .. ')'
      end
      -- After the redraw that closing the buffer (and leaving insert mode) causes, so it stays
      -- in view.
      local show = vim.schedule_wrap(function()
        notify(msg)
      end)
      if left_insert then
        vim.api.nvim_create_autocmd('InsertLeave', { once = true, callback = show })
      else
        show()
      end
    end
    vim.api.nvim_exec_autocmds('User', { pattern = 'FormdSubmitted', modeline = false })
  end
  if self.opts.include_secrets and #withheld > 0 then
    -- Asked for explicitly: the secure fields' text, by getState (a second submit would
    -- submit the shared form again).
    self.rpc:request('getState', { form = self.form, includeSecrets = true }, function(err, r)
      local all = vim.deepcopy(values)
      if err == nil and r then
        for _, f in ipairs(r.fields or {}) do
          if all[f.id] == nil and f.text ~= nil then
            all[f.id] = f.text
          end
        end
        deliver(all, {})
      else
        deliver(values, withheld)
      end
    end)
  else
    deliver(values, withheld)
  end
end

--- Closes the form: the buffer goes; a private formd is shut down, a shared daemon is left
--- running (only the bridge to it stops). `reason` is passed to on_cancel unless the form
--- was submitted. Returns true when it ended insert mode (that happens once the current
--- key is handled).
function Session:close(reason)
  if self.closed then
    return
  end
  self.closed = true
  if self.on_close then
    self.on_close(self)
  end
  local stopped = false
  if self:valid_buf() and vim.api.nvim_get_current_buf() == self.buf
      and vim.api.nvim_get_mode().mode:sub(1, 1) ~= 'n' then
    vim.cmd('stopinsert') -- do not leave the person typing into whatever buffer comes next
    stopped = true
  end
  pcall(vim.api.nvim_del_augroup_by_id, self.augroup)
  if reason ~= 'wiped' and self:valid_buf() then
    pcall(vim.api.nvim_buf_delete, self.buf, { force = true })
  end
  if self.rpc then
    if self.attached then
      self.rpc:terminate()
    else
      self.rpc:shutdown()
    end
  end
  if reason ~= 'submitted' and self.opts.on_cancel then
    local ok, err = pcall(self.opts.on_cancel, reason or 'closed')
    if not ok then
      notify('on_cancel failed: ' .. tostring(err), vim.log.levels.ERROR)
    end
  end
  return stopped
end

--- 1-based line carrying the first-responder marker, or nil.
function Session:marked_line()
  if not self:valid_buf() then
    return nil
  end
  return render.marked_line(self.buf)
end

-- Why formd (or the bridge) stopped: vim.lsp.rpc keeps a process's stderr for its log
-- only, so the command is run once more with no input to read its message.
function Session:_exit_reason()
  local out = vim.fn.system(self.argv, '')
  local last
  for line in tostring(out):gmatch('[^\n]+') do
    last = line
  end
  return last
end

function Session:_on_exit(code)
  if self.closed then
    return
  end
  local what = self.attached and ('formd attach ' .. self.socket) or ('formd for ' .. tostring(self.path))
  if not self.ready then
    local reason = code ~= 0 and self:_exit_reason() or nil
    notify(string.format('%s could not start (status %d)%s', what, code, reason and (': ' .. reason) or ''),
      vim.log.levels.ERROR)
  else
    notify(string.format('%s exited (status %d)', what, code), vim.log.levels.ERROR)
  end
  self:close('exited')
end

return Session
