-- formd.keys: what the person does in a form buffer, sent to formd as what it is.
--
-- Typed text (InsertCharPre; an IME commit arrives the same way) is `insertText`, and never
-- enters the buffer: v:char is emptied, the buffer is redrawn from formd's events. Backspace,
-- Delete and word/line deletes are `delete` with their direction and unit; caret keys and
-- cursor motion in a field's text are `moveCaret`/`select`; u and <C-r> are formd's undo and
-- redo; a paste is `editAction paste`; normal-mode x X D dw r are `g@` on Vim's own motion,
-- whose range becomes one `select` plus `delete` (or `insertText`). Every way into insert mode first puts formd's caret
-- where the insert goes, then starts insert mode on it. Any other change to the buffer (an
-- operator, a visual delete, :s) is read back from the buffer (on_bytes) and sent as
-- `select` of the range it replaced plus `insertText` of what replaced it; changes to labels
-- or to the number of lines are drawn over from formd's model.

local Session = require('formd.session')
local render = require('formd.render')

local M = {}

local function quiet()
  return true
end

-- The byte offset after the character (with its composing characters) that starts at `pos`.
local function next_char(s, pos)
  if pos >= #s then
    return #s
  end
  local n = vim.fn.byteidx(s:sub(pos + 1), 1)
  if n <= 0 then
    return #s
  end
  return pos + n
end

-- A pasted text for a one-line field, as formd tui pastes it: line breaks and tabs become
-- spaces, a final line break is dropped.
local function single_line(s)
  s = s:gsub('[\r\n]+$', '')
  s = s:gsub('\r\n', ' '):gsub('[\r\n\t]', ' ')
  return s
end
M.single_line = single_line

local function caret_is(f, pos)
  local sel = f.selection or {}
  return sel.start == pos and sel['end'] == pos
end

----------------------------------------------------------------------------------------
-- Requests at the caret

-- An edit at formd's caret while typing: formd's first responder (not named, so keys typed
-- ahead of a focus move follow the focus), else the field on the cursor's line.
function Session:edit(method, params, cb)
  params = params or {}
  if self.model.firstResponder == nil then
    local f = self:cursor_spot()
    if not f then
      return nil
    end
    params.field = f.id
  end
  return self:request(method, params, cb)
end

--- The field on the cursor's line, the cursor's position in its text (a byte offset in its
--- display, clamped to it) and whether the cursor is where the last redraw put it.
function Session:cursor_spot()
  local win = vim.api.nvim_get_current_win()
  if not self:valid_buf() or vim.api.nvim_win_get_buf(win) ~= self.buf then
    return nil
  end
  local c = vim.api.nvim_win_get_cursor(win)
  local f = self:field_at(c[1])
  if not f then
    return nil
  end
  local prefix = self.prefixes[c[1]] or ''
  local pos = math.max(0, math.min(c[2] - #prefix, #render.display(f)))
  local untouched = self.placed ~= nil and self.placed[1] == c[1] and self.placed[2] == c[2]
  return f, pos, untouched
end

-- A caret at `pos` of field f (no request when it is there already and no answer that could
-- move it is still to come). Returns the request id.
function Session:select_at(f, pos)
  if caret_is(f, pos) and self.rpc.outstanding == 0 then
    return nil
  end
  return self:request('select', { field = f.id, start = pos, ['end'] = pos }, quiet)
end

-- Waits until formd has answered everything and the buffer shows it.
function Session:settle()
  local ms = self.opts.key_timeout or 0
  if ms > 0 then
    vim.wait(ms, function()
      return self.closed or self.rpc.outstanding == 0
    end, 1)
  end
end

-- Where `a` (and `p`) puts the caret: after the cursor's character, or at the end when the
-- cursor shows formd's caret at the end of the text.
local function after_cursor(f, pos, untouched)
  local d = render.display(f)
  if untouched and Session.caret(f) >= #d then
    return #d
  end
  return next_char(d, pos)
end

-- A normal-mode command: requests on the cursor's field, then wait for formd, so the keys
-- that follow see the buffer it drew.
function Session:normal(fn)
  if not self.ready or self.closed then
    return
  end
  self:settle() -- the model and the cursor as of every request sent so far
  local f, pos, untouched = self:cursor_spot()
  if f then
    fn(f, pos, untouched)
    self:settle()
  end
end

function Session:delete_at_cursor(direction, unit)
  self:normal(function(f, pos)
    self:select_at(f, pos)
    self:request('delete', { field = f.id, direction = direction, unit = unit })
  end)
end

-- What the operator `g@` does next in a form (x X D dw <Del> r): {direction} deletes the
-- range, {replace = char} types char over each of its characters. It stays for `.`.
local pending_op

--- 'operatorfunc' of x X D dw r: the range Vim's motion covered (marks '[ and ']), within
--- the field's line, becomes one formd edit (one undo step): `select` of it, then `delete`
--- or `insertText`. Nothing enters the buffer or a register.
function M.operator(kind)
  local self = require('formd').session()
  if not self or not pending_op or not self.ready or self.closed then
    return
  end
  local first = vim.api.nvim_buf_get_mark(self.buf, '[')
  local last = vim.api.nvim_buf_get_mark(self.buf, ']')
  local row = first[1]
  local f, prefix = self:field_at(row), self.prefixes[row]
  if not f or not prefix then
    return
  end
  local d = render.display(f)
  local start = math.max(0, math.min(first[2] - #prefix, #d))
  local stop = #d -- a motion past the line (2dw on its last word, 3D) stops at its end
  if kind == 'line' then
    start = 0 -- V: the whole text
  elseif last[1] == row then
    stop = last[2] < #prefix and 0 or math.min(next_char(d, last[2] - #prefix), #d)
  end
  self.redo = nil -- Vim's own `.` repeats g@
  if stop <= start then
    return
  end
  self:request('select', { field = f.id, start = start, ['end'] = stop }, quiet)
  if pending_op.replace then
    local n = vim.fn.strchars(d:sub(start + 1, stop))
    self:request('insertText', { field = f.id, text = string.rep(pending_op.replace, n) })
  else
    self:request('delete', { field = f.id, direction = pending_op.direction })
  end
  self:settle()
end

-- Starts `g@{motion}` on M.operator with `op` (an expression mapping's result).
local function operate(op, motion)
  pending_op = op
  vim.o.operatorfunc = "v:lua.require'formd.keys'.operator"
  return 'g@' .. motion
end

-- r{char}: the character is read here, so it never reaches the buffer or the `.` register.
-- In Visual mode (v_r) the operator's range is the selection.
local function replace_op()
  local ok, ch = pcall(vim.fn.getcharstr)
  local visual = vim.fn.mode():find('^[vV\22]') ~= nil
  if not ok or ch == '' or ch == '\27' or ch == '\3' or ch:find('^[\r\n]') or ch:byte(1) == 0x80 then
    return visual and '<Esc>' or '' -- cancelled, or not a character (r<CR> would split the line)
  end
  return operate({ replace = ch }, visual and '' or 'l')
end

-- u and <C-r>: formd's undo and redo of the cursor's field; like Neovim, says so when
-- there is nothing (more) to take back or make again.
function Session:history(method)
  local count = vim.v.count1
  self:normal(function(f)
    for _ = 1, count do
      self:request(method, { field = f.id }, function(_, r)
        if r and r.applied == false and (r.reason == 'nothingToUndo' or r.reason == 'nothingToRedo') then
          Session.notify(r.reason == 'nothingToUndo' and 'already at the oldest change' or 'already at the newest change')
        end
      end)
    end
  end)
end

--- Pastes text: at formd's caret (insert mode), or before/after the cursor ('before', 'after').
--- Into an autoAdvance field that has focus (a one-time-code box) the text is typed one
--- character at a time, so a whole code fills the boxes in turn (formd refuses it whole
--- by maxLength, and leaves splitting it to the client).
function Session:paste(text, where)
  text = single_line(text or '')
  if text == '' or not self.ready or self.closed then
    return
  end
  local function paste_into(f)
    local target = f or self:field(self.model.firstResponder)
    if target and target.autoAdvance and target.id == self.model.firstResponder then
      for _, ch in ipairs(vim.fn.split(text, '\\zs')) do
        self:request('insertText', { text = ch }, quiet) -- past the last box: no first responder
      end
      return
    end
    self:request('editAction', { field = f and f.id, action = 'paste', text = text }, function(_, r)
      if r and r.performed == false and r.reason == 'unsupported' then
        Session.notify('this field does not take a paste', vim.log.levels.WARN)
      end
    end)
  end
  if where == nil then
    local f = self.model.firstResponder == nil and self:cursor_spot() or nil
    if self.model.firstResponder ~= nil or f then
      paste_into(f)
      self:record('editAction', { action = 'paste', text = text })
    end
    return
  end
  self:normal(function(f, pos, untouched)
    self:select_at(f, where == 'after' and after_cursor(f, pos, untouched) or pos)
    paste_into(f)
  end)
end

-- Removes [start, stop) of a field's display for `s S cc C` as typing over it (a select and
-- an empty insertText): the text typed next joins that undo step, so one `u` brings the old
-- text back, as after `cw`.
function Session:clear_range(f, start, stop)
  if stop > start then
    self:request('select', { field = f.id, start = start, ['end'] = stop }, quiet)
    self:request('insertText', { field = f.id, text = '' })
  end
end

-- Every way into insert mode: formd's caret goes where the insert goes (and `s S cc C`
-- delete first), then insert (or replace) mode starts on formd's caret.
local entries = {
  i = function(s, f, pos, untouched)
    s:select_at(f, untouched and Session.caret(f) or pos)
  end,
  a = function(s, f, pos, untouched)
    s:select_at(f, after_cursor(f, pos, untouched))
  end,
  I = function(s, f)
    s:request('moveCaret', { field = f.id, to = 'start' })
  end,
  A = function(s, f)
    s:request('moveCaret', { field = f.id, to = 'end' })
  end,
  s = function(s, f, pos, _, count)
    local stop = pos
    for _ = 1, count do
      stop = next_char(render.display(f), stop)
    end
    s:clear_range(f, pos, stop)
  end,
  S = function(s, f)
    s:clear_range(f, 0, #render.display(f))
  end,
  C = function(s, f, pos)
    s:clear_range(f, pos, #render.display(f))
  end,
}
entries.R = entries.i

--- Starts insert (or replace) mode the way `how` does; with `replay` (the actions recorded
--- while typing after it) does it again instead, for `.`, and stays in normal mode.
function Session:enter_insert(how, replay)
  local count = vim.v.count1
  local id
  self:normal(function(f, pos, untouched)
    if not Session.can_focus(f) then
      Session.notify((Session.nonempty(f.label) or f.id) .. ' cannot take focus', vim.log.levels.WARN)
      return
    end
    id = f.id
    if f.id ~= self.model.firstResponder then
      self:focus(f.id)
    end
    entries[how](self, f, pos, untouched, count)
  end)
  local f = id and self:field(id)
  local win = self:window()
  if not f or self.closed or not win then
    return
  end
  local row = self:row_of(self.model.firstResponder) or self:row_of(id)
  f = row and self:field_at(row)
  if not f then
    return
  end
  if replay then
    self:replay(replay)
    return
  end
  self:place_cursor(win, row)
  self.placed = vim.api.nvim_win_get_cursor(win)
  self.entering = how -- for InsertEnter's recording
  local at_end = Session.caret(f) >= #render.display(f)
  if how == 'R' then
    vim.cmd(at_end and 'startreplace!' or 'startreplace')
  else
    vim.cmd(at_end and 'startinsert!' or 'startinsert')
  end
end

----------------------------------------------------------------------------------------
-- `.`: typed text never enters the buffer, so Vim's redo does not hold it. What was typed
-- after an insert command (into a field that is not secure) is recorded as the requests it
-- made and `.` makes them again; `self.redo` is that, or nil when Vim's own `.` repeats the
-- last change (an operator, x X D dw r).

-- Records a request made while typing (InsertEnter starts a recording).
function Session:record(method, params)
  local rec = self.recording
  if rec then
    local f = self:field(self.model.firstResponder)
    if f and f.secure then
      rec.secure = true -- nothing typed into a secure field is kept
      rec.actions = {}
    elseif not rec.secure then
      table.insert(rec.actions, { method, vim.deepcopy(params) })
    end
  end
end

function Session:_insert_started()
  -- `how` of i I a A s S cc C R; a change Vim just made (c{motion}) is repeated by Vim's `.`.
  self.recording = { how = self.entering, native = self.native_change, actions = {} }
  self.entering = nil
end

function Session:_insert_ended()
  local rec = self.recording
  self.recording = nil
  if not rec or (not rec.how and not rec.native) then
    return -- an insert Vim started (gi, a click): its `.` is Vim's
  end
  if rec.secure or rec.broken then
    local why = rec.secure and 'typing into a secure field is not repeated' or 'nothing to repeat'
    self.redo = function()
      Session.notify('. : ' .. why)
    end
  elseif rec.how then
    self.redo = function()
      self:enter_insert(rec.how, rec.actions)
    end
  else
    local function again()
      vim.cmd('normal! .') -- the c{motion}'s deletion, read back as a change
      self:settle()
      self:replay(rec.actions)
      self.redo = again -- the insert `normal! .` made recorded nothing
    end
    self.redo = again
  end
end

function Session:replay(actions)
  for _, a in ipairs(actions) do
    self:edit(a[1], vim.deepcopy(a[2]), quiet)
  end
  self:settle()
end

function Session:repeat_last()
  if self.redo then
    self.redo()
  else
    vim.cmd('normal! ' .. (vim.v.count > 0 and vim.v.count or '') .. '.')
  end
end

----------------------------------------------------------------------------------------
-- Autocommands

-- InsertCharPre: the character goes to formd as typing; the buffer gets nothing.
function Session:_insert_char_pre()
  local ch = vim.v.char
  vim.v.char = ''
  if not self.ready or self.closed then
    return
  end
  if vim.fn.mode():sub(1, 1) == 'R' then
    self:edit('moveCaret', { to = 'right', extend = true }, quiet) -- replace the next character
    self:record('moveCaret', { to = 'right', extend = true })
  end
  self:edit('insertText', { text = ch })
  self:record('insertText', { text = ch })
end

-- The cursor moved: to another line, that field is asked to become first responder (the
-- cursor goes back if it refuses); along a field's text, formd's caret follows. The cursor
-- never rests in a label.
function Session:_cursor_moved(insert)
  if self.closed or not self.ready then
    return
  end
  local win = vim.api.nvim_get_current_win()
  if vim.api.nvim_win_get_buf(win) ~= self.buf then
    return
  end
  local c = vim.api.nvim_win_get_cursor(win)
  if self.placed and self.placed[1] == c[1] and self.placed[2] == c[2] then
    return -- where a redraw put it
  end
  local row, col = c[1], c[2]
  local prefix = self.prefixes[row] or ''
  if col < #prefix then
    col = #prefix
    pcall(vim.api.nvim_win_set_cursor, win, { row, col })
    self.placed = { row, col }
  end
  local f = self:field_at(row)
  if not f then
    return
  end
  local clicked = self.clicked
  self.clicked = nil
  if row ~= self.last_row then
    self.last_row = row
    if f.id ~= self.model.firstResponder and Session.can_focus(f) then
      self:focus(f.id)
      if clicked then -- a click puts the caret where it went; j and k keep the field's
        self:select_at(f, math.min(col - #prefix, #render.display(f)))
      end
    end
    return
  end
  if vim.api.nvim_get_mode().mode == 'v' then
    return self:_visual_moved()
  end
  local d = render.display(f)
  local pos = math.min(col - #prefix, #d)
  local caret = Session.caret(f)
  if not insert and caret == #d and pos < #d and next_char(d, pos) == #d then
    return -- in normal mode the cursor on the last character shows the caret at the end
  end
  self:select_at(f, pos)
end

-- Characterwise Visual mode on one field's line: the Visual selection is formd's selection
-- (anchor where Visual mode started, caret on the cursor's side, both ends inclusive).
function Session:_visual_moved()
  local c = vim.api.nvim_win_get_cursor(0)
  local anchor = vim.fn.getpos('v')
  local f = self:field_at(c[1])
  if not f or anchor[2] ~= c[1] then
    return
  end
  local prefix = self.prefixes[c[1]] or ''
  local d = render.display(f)
  local function clamp(col)
    return math.max(0, math.min(col - #prefix, #d))
  end
  local a, pos = clamp(anchor[3] - 1), clamp(c[2])
  local start, stop = a, next_char(d, pos)
  if pos < a then
    start, stop = next_char(d, a), pos
  end
  local sel = f.selection or {}
  if math.min(start, stop) ~= sel.start or math.max(start, stop) ~= sel['end'] or (stop < start) ~= (sel.backward == true) then
    self:request('select', { field = f.id, start = start, ['end'] = stop }, quiet)
  end
end

-- Leaving Visual mode for Normal mode collapses formd's selection to a caret at the cursor.
function Session:_visual_left()
  local f, pos = self:cursor_spot()
  if f and self.ready and not self.closed then
    self:select_at(f, pos)
  end
end

-- on_bytes: a change the keys above did not make (an operator, a visual-mode edit, :s,
-- <C-r><C-r>): sent as the replacement of the range it changed; anything touching a label
-- or the lines themselves is drawn over.
function Session:_on_bytes(start_row, start_col, old_end_row, old_end_col, new_end_row, new_end_col)
  if self.writing or self.closed or not self.ready then
    return
  end
  -- Vim's own change: its `.` repeats it (and the insert that follows in the same command,
  -- c{motion}'s, is part of it).
  self.native_change = true
  vim.schedule(function()
    self.native_change = nil
  end)
  self.redo = nil
  local row = start_row + 1
  local f = self:field_at(row)
  local prefix = self.prefixes[row]
  if old_end_row == 0 and new_end_row == 0 and f and prefix and start_col >= #prefix then
    -- Neovim may report a change before it writes it (`:s` does): what replaced the range
    -- is read from the line when the change is sent, before any other request, or once this
    -- command is done.
    if not self.byte_changes then
      self.byte_changes = {}
      vim.schedule(function()
        self:send_changes()
      end)
    end
    table.insert(self.byte_changes, { row = row, id = f.id, col = start_col, start = start_col - #prefix,
      old = old_end_col, new = new_end_col })
  end -- else lines added, removed or joined, or a label changed: drawn over
  self:render_soon()
end

-- Changes left to right on one line (`:s///g`) as one: the range from the first one's start
-- to the last one's end, in the text before them. Returns nil when they are not like that.
local function merged(changes)
  local first, shift = changes[1], 0
  for i, c in ipairs(changes) do
    if c.row ~= first.row or (i > 1 and c.start < changes[i - 1].start + changes[i - 1].new) then
      return nil
    end
    if i < #changes then
      shift = shift + c.new - c.old
    end
  end
  local last = changes[#changes]
  return { row = first.row, id = first.id, col = first.col, start = first.start,
    old = last.start + last.old - shift - first.start, new = last.start + last.new - first.start }
end

--- Sends the changes on_bytes saw, in order: each a `select` of the range it replaced and an
--- `insertText` of what the line now holds there (one edit, so one undo step, when they are
--- left to right on one line).
function Session:send_changes()
  local changes = self.byte_changes
  self.byte_changes = nil
  if not changes or self.closed or not self:valid_buf() then
    return
  end
  local one = #changes > 1 and merged(changes)
  if one then
    changes = { one }
  end
  for _, c in ipairs(changes) do
    local line = vim.api.nvim_buf_get_lines(self.buf, c.row - 1, c.row, false)[1] or ''
    self:request('select', { field = c.id, start = c.start, ['end'] = c.start + c.old }, quiet)
    self:request('insertText', { field = c.id, text = line:sub(c.col + 1, c.col + c.new) })
  end
end

----------------------------------------------------------------------------------------
-- Wiring

local function paste_hook()
  local original = vim.paste
  vim.paste = function(lines, phase)
    local s = require('formd').session()
    if not s or s.closed then
      return original(lines, phase)
    end
    -- Chunks of one paste continue each other; it is sent whole at its last phase.
    if phase == -1 or phase == 1 then
      s.pasting = {}
    end
    s.pasting = s.pasting or {}
    table.insert(s.pasting, table.concat(lines, '\n'))
    if phase == -1 or phase == 3 then
      local text = table.concat(s.pasting)
      s.pasting = nil
      local insert = vim.api.nvim_get_mode().mode:sub(1, 1) == 'i'
      s:paste(text, not insert and 'after' or nil)
    end
    return true
  end
end

--- Maps the keys and sets the autocommands of a session's buffer.
function M.attach(self)
  if not M.paste_hooked then
    M.paste_hooked = true
    paste_hook()
  end
  local buf = self.buf
  local group = vim.api.nvim_create_augroup('formd_' .. buf, { clear = true })
  self.augroup = group
  local function au(event, fn)
    vim.api.nvim_create_autocmd(event, { group = group, buffer = buf, callback = fn })
  end
  au('InsertCharPre', function()
    self:_insert_char_pre()
  end)
  au('InsertEnter', function()
    -- With 'paste' set Neovim skips InsertCharPre and would put typed text in the buffer.
    if vim.o.paste then
      self.paste_option = true
      vim.o.paste = false
      Session.notify("'paste' is off while typing into the form (it would put typed text in the buffer)")
    end
    local f = self:field_at(vim.api.nvim_win_get_cursor(0)[1])
    self.last_row = vim.api.nvim_win_get_cursor(0)[1]
    if f and f.id ~= self.model.firstResponder and self.ready and Session.can_focus(f) then
      self:focus(f.id)
    end
    self:_insert_started()
  end)
  au('InsertLeave', function()
    if self.paste_option then
      self.paste_option = nil
      vim.o.paste = true
    end
    -- Leaving insert mode steps the cursor back one character: formd's caret stays, and
    -- i continues where the typing stopped.
    self.placed = vim.api.nvim_win_get_cursor(0)
    self:_insert_ended()
  end)
  au('CursorMoved', function()
    self:_cursor_moved(false)
  end)
  au('CursorMovedI', function()
    self:_cursor_moved(true)
  end)
  au('ModeChanged', function()
    local ev = vim.v.event
    if ev.new_mode == 'v' then
      self:_visual_moved()
    elseif ev.old_mode == 'v' and ev.new_mode == 'n' then
      self:_visual_left()
    end
  end)
  au('BufWinEnter', function()
    -- onemore: in normal mode too the cursor can stand after the text, where formd's caret is.
    vim.cmd('setlocal signcolumn=yes nowrap nospell nolist virtualedit=onemore')
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

  local function map(modes, lhs, fn, desc)
    vim.keymap.set(modes, lhs, fn, { buffer = buf, silent = true, nowait = true, desc = 'formd: ' .. desc })
  end
  local function typing(lhs, method, params, desc)
    map('i', lhs, function()
      self:edit(method, vim.deepcopy(params))
      self:record(method, params)
    end, desc)
  end
  -- Typing that moves focus is not repeated by `.`.
  local function unrepeatable()
    if self.recording then
      self.recording.broken = true
    end
  end
  map({ 'n', 'i' }, '<CR>', function()
    unrepeatable()
    self:press_return()
  end, 'pressReturn')
  map({ 'n', 'i' }, '<Tab>', function()
    unrepeatable()
    self:focus_next()
  end, 'focusNext')
  map({ 'n', 'i' }, '<S-Tab>', function()
    unrepeatable()
    self:focus_previous()
  end, 'focusPrevious')
  vim.keymap.set({ 'n', 'i' }, '<LeftMouse>', function()
    self.clicked = true
    return '<LeftMouse>'
  end, { buffer = buf, expr = true, silent = true, desc = 'formd: the caret where you click' })
  map('n', '.', function()
    self:repeat_last()
  end, 'repeat the last change')

  typing('<BS>', 'delete', { direction = 'backward', unit = 'character' }, 'Backspace (delete on empty)')
  typing('<C-h>', 'delete', { direction = 'backward', unit = 'character' }, 'Backspace (delete on empty)')
  typing('<Del>', 'delete', { direction = 'forward', unit = 'character' }, 'delete forward')
  typing('<C-w>', 'delete', { direction = 'backward', unit = 'word' }, 'delete the word before the caret')
  typing('<C-u>', 'delete', { direction = 'backward', unit = 'line' }, 'delete to the start of the line')
  for lhs, to in pairs({
    ['<Left>'] = 'left', ['<Right>'] = 'right', ['<Home>'] = 'start', ['<End>'] = 'end',
    ['<S-Left>'] = 'wordLeft', ['<C-Left>'] = 'wordLeft', ['<S-Right>'] = 'wordRight', ['<C-Right>'] = 'wordRight',
  }) do
    typing(lhs, 'moveCaret', { to = to }, 'moveCaret ' .. to)
  end

  for _, how in ipairs({ 'i', 'a', 'I', 'A', 's', 'S', 'C', 'R' }) do
    map('n', how, function()
      self:enter_insert(how)
    end, 'insert (' .. how .. ') at the caret')
  end
  -- A form's lines are its fields: no line to open.
  map('n', 'o', function() end, 'no line to open in a form')
  map('n', 'O', function() end, 'no line to open in a form')
  map('n', 'cc', function()
    self:enter_insert('S')
  end, 'change the field (cc)')
  map('n', '<BS>', function()
    self.redo = function()
      self:delete_at_cursor('backward', 'character')
    end
    self.redo()
  end, 'Backspace (delete on empty)')
  local function operator(lhs, fn, desc)
    vim.keymap.set('n', lhs, fn, { buffer = buf, expr = true, silent = true, nowait = true, desc = 'formd: ' .. desc })
  end
  for lhs, d in pairs({
    x = { 'forward', 'l', 'delete the character under the cursor' },
    ['<Del>'] = { 'forward', 'l', 'delete the character under the cursor' },
    X = { 'backward', 'h', 'delete the character before the cursor' },
    D = { 'forward', '$', 'delete to the end of the field' },
    dw = { 'forward', 'w', 'delete to the start of the next word' },
  }) do
    operator(lhs, function()
      return operate({ direction = d[1] }, d[2])
    end, d[3])
  end
  operator('r', replace_op, 'replace the character under the cursor')
  operator('gr', replace_op, 'replace the character under the cursor')
  vim.keymap.set('x', 'r', replace_op, { buffer = buf, expr = true, silent = true, nowait = true,
    desc = 'formd: replace every character of the selection' })
  map('n', 'u', function()
    self:history('undo')
  end, 'undo')
  map('n', '<C-r>', function()
    self:history('redo')
  end, 'redo')
  for lhs, where in pairs({ p = 'after', P = 'before' }) do
    map('n', lhs, function()
      local text = vim.fn.getreg(vim.v.register)
      if vim.fn.getregtype(vim.v.register) == 'V' then
        -- A line yanked from a form (yy): its field's text, without the label.
        for _, prefix in ipairs(self.prefixes) do
          if vim.startswith(text, prefix) then
            text = text:sub(#prefix + 1)
            break
          end
        end
      end
      self.redo = function()
        self:paste(text, where)
      end
      self.redo()
    end, 'paste ' .. where .. ' the cursor')
  end

  vim.api.nvim_buf_create_user_command(buf, 'FormdSubmit', function()
    self:submit()
  end, { desc = 'formd: submit the form' })
  vim.api.nvim_buf_create_user_command(buf, 'FormdClose', function()
    self:close('closed')
  end, { desc = 'formd: close the form without submitting' })
end

return M
