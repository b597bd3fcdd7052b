-- Headless tests for the formd Neovim plugin, against the real formd binary.
--
-- Run by clients/nvim/test:
--   nvim --headless -u NONE -i NONE -n --cmd 'set rtp^=clients/nvim' -c 'luafile tests/run.lua'
-- Keys are fed with nvim_input() (as if typed, mappings apply) and every test waits for the
-- effects with a polling timer, yielding to the main loop so that the keys, formd's output
-- and the autocommands are processed for real. Prints one line per test and a final
-- "N passed, N failed"; exits non-zero when a test failed.

local root = assert(os.getenv('FORMD_ROOT'), 'FORMD_ROOT is not set')
local LOGIN = root .. '/examples/login.json'
local SECRET = 'QZJ9XKW7V' -- no character of it appears in a label or the email

local formd = require('formd')
local render = require('formd.render')

local function out(fmt, ...)
  io.stdout:write(string.format(fmt, ...) .. '\n')
  io.stdout:flush()
end

----------------------------------------------------------------------------------------
-- Waiting (the test body runs in a coroutine; waiting yields to the main loop)

local co

local function sleep_until(pred, timeout_ms)
  local deadline = vim.loop.now() + (timeout_ms or 5000)
  local timer = vim.loop.new_timer()
  local result = false
  timer:start(5, 10, vim.schedule_wrap(function()
    if timer:is_closing() then
      return
    end
    local ok, v = pcall(pred)
    local done = ok and v
    if done or vim.loop.now() > deadline then
      result = done and true or false
      timer:stop()
      timer:close()
      local ok2, err = coroutine.resume(co)
      if not ok2 then
        out('harness error: %s', tostring(err))
        vim.cmd('cquit 3')
      end
    end
  end))
  coroutine.yield()
  return result
end

local function wait_for(what, pred, timeout_ms)
  if not sleep_until(pred, timeout_ms) then
    error('timed out waiting for ' .. what, 2)
  end
end

local mark_n = 0
-- Waits until every key fed so far has been handled and formd has answered everything.
local function settle(s)
  mark_n = mark_n + 1
  local n = mark_n
  vim.api.nvim_input('<Cmd>lua _G.formd_test_mark = ' .. n .. '<CR>')
  wait_for('keys to be processed', function()
    return _G.formd_test_mark == n
  end)
  local quiet = 0
  wait_for('formd to answer', function()
    if s == nil or s.closed or (s.rpc.outstanding == 0 and not s.dirty) then
      quiet = quiet + 1
    else
      quiet = 0
    end
    return quiet >= 3
  end)
end

local function keys(s, k)
  vim.api.nvim_input(k)
  settle(s)
end

----------------------------------------------------------------------------------------
-- Assertions

local function fmt(v)
  return type(v) == 'string' and string.format('%q', v) or vim.inspect(v)
end

local function eq(expected, actual, what)
  if not vim.deep_equal(expected, actual) then
    error(string.format('%s: expected %s, got %s', what or 'value', fmt(expected), fmt(actual)), 2)
  end
end

local function truthy(v, what)
  if not v then
    error(what or 'expected true', 2)
  end
end

----------------------------------------------------------------------------------------
-- Sessions and what they show

local seen_lines = {} -- every line any form buffer ever held (on_lines)
local all_sessions = {}

local function watch(buf)
  vim.api.nvim_buf_attach(buf, false, {
    on_lines = function(_, b, _, first, _, new_last)
      for _, l in ipairs(vim.api.nvim_buf_get_lines(b, first, new_last, false)) do
        table.insert(seen_lines, l)
      end
    end,
  })
end

local function open(opts, path)
  local s = assert(formd.open(path or LOGIN, vim.tbl_extend('force', { autofocus = false, key_timeout = 5000 }, opts or {})))
  table.insert(all_sessions, s)
  watch(s.buf)
  wait_for('the form to load', function()
    return s.ready
  end)
  settle(s)
  return s
end

local function lines(s)
  return vim.api.nvim_buf_get_lines(s.buf, 0, -1, false)
end

local function cursor_row()
  return vim.api.nvim_win_get_cursor(0)[1]
end

local function mode()
  return vim.api.nvim_get_mode().mode
end

local function state(s, secrets)
  local st = assert(s:get_state(secrets))
  local by = {}
  for _, f in ipairs(st.fields) do
    by[f.id] = f
  end
  return st, by
end

local function virt_texts(s, row)
  local texts = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(s.buf, render.ns, { row - 1, 0 }, { row - 1, -1 }, { details = true })) do
    for _, chunk in ipairs(m[4].virt_text or {}) do
      table.insert(texts, chunk[1])
    end
  end
  return table.concat(texts, '')
end

local function bullets(n)
  return string.rep('•', n)
end

local function messages()
  return vim.api.nvim_exec('messages', true)
end

-- Feeds each step's keys and checks the result with check(expected, what).
local function steps(s, list, check)
  for _, step in ipairs(list) do
    keys(s, step[1])
    check(step[2], step[3])
  end
end

-- Focuses the email field with <Tab> and types an address (ends in insert mode on it).
local function type_email(s, email)
  keys(s, '<Tab>')
  eq(1, s:marked_line(), 'marked line after <Tab>')
  keys(s, 'A' .. email)
  eq('Email:    ' .. email, lines(s)[1], 'email line')
end

----------------------------------------------------------------------------------------
-- Tests

local tests = {}
local function test(name, fn)
  table.insert(tests, { name = name, fn = fn })
end

test('opens the login form: one line per field, aligned labels, nothing marked', function()
  local s = open()
  eq({ 'Email:    ', 'Password: ' }, lines(s), 'lines')
  eq(nil, s:marked_line(), 'marked line')
  eq('nofile', vim.bo[s.buf].buftype, 'buftype')
  eq('formd', vim.bo[s.buf].filetype, 'filetype')
  eq('you@example.com', virt_texts(s, 1), 'email placeholder')
  eq('at least 8 characters', virt_texts(s, 2), 'password placeholder')
  s:close()
end)

test('autofocus (the default) marks the first field and puts the cursor on it', function()
  local s = open({ autofocus = true })
  wait_for('the marker', function()
    return s:marked_line() == 1
  end)
  eq(1, cursor_row(), 'cursor line')
  local st = state(s)
  eq('email', st.firstResponder, 'formd first responder')
  s:close()
end)

test('<Tab> and <S-Tab> move focus through the fields, wrapping; the cursor follows', function()
  local s = open()
  keys(s, '<Tab>')
  eq({ 1, 1 }, { s:marked_line(), cursor_row() }, 'marked and cursor line after <Tab>')
  keys(s, '<Tab>')
  eq({ 2, 2 }, { s:marked_line(), cursor_row() }, 'after a second <Tab>')
  keys(s, '<Tab>')
  eq({ 1, 1 }, { s:marked_line(), cursor_row() }, 'after a third <Tab> (wraps)')
  keys(s, '<S-Tab>')
  eq({ 2, 2 }, { s:marked_line(), cursor_row() }, 'after <S-Tab> (wraps back)')
  eq('password', state(s).firstResponder, 'formd first responder')
  s:close()
end)

test('login chain: focus, type, Return, Backspace on empty steps back, submit', function()
  local got
  local s = open({
    on_submit = function(values, info)
      got = { values = values, info = info }
    end,
  })
  -- focus + type
  type_email(s, 'ada@example.com')
  eq('i', mode(), 'mode while typing')
  local _, f = state(s)
  eq('ada@example.com', f.email.text, 'formd has the email')
  -- Return moves to the password line, still in insert mode, no line added
  keys(s, '<CR>')
  eq({ 'Email:    ada@example.com', 'Password: ' }, lines(s), 'lines after Return')
  eq({ 2, 2 }, { s:marked_line(), cursor_row() }, 'marked and cursor line after Return')
  eq('i', mode(), 'mode after Return')
  -- a character, Backspace deletes it, Backspace on the empty field steps back
  keys(s, 'x')
  eq('Password: ' .. bullets(1), lines(s)[2], 'one masked character')
  keys(s, '<BS>')
  eq('Password: ', lines(s)[2], 'after Backspace')
  eq(2, s:marked_line(), 'still on the password')
  keys(s, '<BS>')
  eq({ 1, 1 }, { s:marked_line(), cursor_row() }, 'marked and cursor line after Backspace on empty')
  eq({ 'Email:    ada@example.com', 'Password: ' }, lines(s), 'lines after stepping back')
  -- back to the password, type it, Return submits
  keys(s, '<Tab>')
  eq({ 2, 2 }, { s:marked_line(), cursor_row() }, 'after <Tab>')
  keys(s, SECRET)
  eq('Password: ' .. bullets(#SECRET), lines(s)[2], 'masked password')
  local buf = s.buf
  keys(s, '<CR>')
  wait_for('on_submit', function()
    return got ~= nil
  end)
  eq({ email = 'ada@example.com' }, got.values, 'values (secure field withheld)')
  eq({ 'password' }, got.info.withheld, 'withheld')
  eq('default', got.info.form, 'form')
  truthy(not vim.api.nvim_buf_is_valid(buf), 'the form buffer is gone')
  wait_for('formd to exit', function()
    return s.rpc.exited
  end)
  eq(0, s.rpc.exit_code, 'formd exit status')
  wait_for('normal mode once the form is gone', function()
    return mode() == 'n'
  end)
end)

test('include_secrets: on_submit gets the password too', function()
  local got
  local s = open({
    include_secrets = true,
    on_submit = function(values, info)
      got = { values = values, info = info }
    end,
  })
  type_email(s, 'ada@example.com')
  keys(s, '<CR>')
  eq(2, s:marked_line(), 'marked line after Return')
  keys(s, SECRET .. '<CR>')
  wait_for('on_submit', function()
    return got ~= nil
  end)
  eq({ email = 'ada@example.com', password = SECRET }, got.values, 'values')
  eq({}, got.info.withheld, 'withheld')
  wait_for('formd to exit', function()
    return s.rpc.exited
  end)
end)

test('Return on the empty email is ignored (enablesReturnKeyAutomatically)', function()
  local s = open()
  keys(s, '<Tab>A<CR>')
  eq({ 1, 1 }, { s:marked_line(), cursor_row() }, 'marked and cursor line')
  eq({ 'Email:    ', 'Password: ' }, lines(s), 'no line added')
  s:close()
end)

test('a short password does not submit: errors shown, focus to the first invalid field', function()
  local submitted = false
  local s = open({
    on_submit = function()
      submitted = true
    end,
  })
  type_email(s, 'ada@example.com')
  keys(s, '<CR>abc<CR>')
  eq(false, submitted, 'submitted')
  truthy(not s.closed, 'the form stays open')
  eq({ 2, 2 }, { s:marked_line(), cursor_row() }, 'marked and cursor line (first invalid field)')
  eq('Password: ' .. bullets(3), lines(s)[2], 'password line')
  truthy(virt_texts(s, 2):find('Use at least 8 characters.', 1, true), 'error shown: ' .. virt_texts(s, 2))
  truthy(messages():find('cannot submit: Password: Use at least 8 characters.', 1, true), 'message')
  s:close()
end)

test('editing inside a secure field sends the right text (insert, <BS>, <Del>, <C-u>, paste, x, R, <C-w>)', function()
  local s = open()
  keys(s, '<Tab><Tab>A')
  eq(2, s:marked_line(), 'on the password')
  keys(s, 'abcdef<Left><Left>XY<BS>')
  eq('Password: ' .. bullets(7), lines(s)[2], 'masked line')
  local _, f = state(s, true)
  eq('abcdXef', f.password.text, 'formd text after insert in the middle')
  keys(s, '<End><BS><Left><Del>')
  _, f = state(s, true)
  eq('abcdX', f.password.text, 'after <BS> at the end and <Del> in the middle')
  keys(s, '<C-u>')
  _, f = state(s, true)
  eq('', f.password.text, 'after <C-u>')
  vim.fn.setreg('a', SECRET)
  keys(s, '<C-r>a')
  eq('Password: ' .. bullets(#SECRET), lines(s)[2], 'pasted text is masked')
  _, f = state(s, true)
  eq(SECRET, f.password.text, 'formd text after paste')
  keys(s, '<Esc>x$hx')
  _, f = state(s, true)
  eq(SECRET:sub(1, 6) .. SECRET:sub(8, 8), f.password.text, 'after normal-mode x')
  keys(s, '0Rab<Esc>')
  _, f = state(s, true)
  eq('ab' .. SECRET:sub(3, 6) .. SECRET:sub(8, 8), f.password.text, 'after R')
  eq('Password: ' .. bullets(7), lines(s)[2], 'line after R')
  keys(s, 'A<C-w>')
  _, f = state(s, true)
  eq('', f.password.text, 'after <C-w>')
  s:close()
end)

test("with 'paste' set, typed text still goes to formd and not into the buffer", function()
  local s = open()
  vim.o.paste = true
  keys(s, '<Tab><Tab>AabcXYZ12')
  eq('Password: ' .. bullets(8), lines(s)[2], 'masked line')
  eq(false, vim.o.paste, "'paste' is off while typing")
  local _, f = state(s, true)
  eq('abcXYZ12', f.password.text, 'formd text')
  keys(s, '<Esc>')
  eq(true, vim.o.paste, "'paste' is back")
  vim.o.paste = false
  s:close()
end)

test('a secure field with initial text and maxLength: edits, a refused edit is undone', function()
  local path = vim.fn.tempname() .. '.json'
  vim.fn.writefile({ '{"fields": [{"id": "pin", "label": "PIN", "secure": true, "text": "1234", "maxLength": 6}]}' }, path)
  local s = open({}, path)
  eq({ 'PIN: ' .. bullets(4) }, lines(s), 'lines')
  keys(s, '<Tab>A56')
  eq('PIN: ' .. bullets(6), lines(s)[1], 'after typing')
  local _, f = state(s, true)
  eq('123456', f.pin.text, 'formd text')
  keys(s, '7')
  eq('PIN: ' .. bullets(6), lines(s)[1], 'the refused character is gone')
  truthy(messages():find('PIN: change refused', 1, true), 'message')
  truthy(virt_texts(s, 1):find('change refused (maxLength)', 1, true), 'on the line too (seen in insert mode)')
  keys(s, '<BS>')
  _, f = state(s, true)
  eq('12345', f.pin.text, 'formd text after <BS>')
  truthy(not virt_texts(s, 1):find('refused', 1, true), 'gone after the next change')
  eq('PIN: ' .. bullets(5), lines(s)[1], 'line after <BS>')
  s:close()
end)

test('normal-mode x X D dw <BS> are deletes at the cursor; u and <C-r> are formd\'s undo and redo', function()
  local s = open()
  type_email(s, 'ada@example.com')
  keys(s, '<Esc>x')
  eq('Email:    ada@example.co', lines(s)[1], 'line after x on the last character')
  local _, f = state(s)
  eq('ada@example.co', f.email.text, 'formd text after x')
  steps(s, {
    { '0X', 'ada@example.co', 'X at the start deletes nothing' },
    { 'lX', 'da@example.co', 'after lX' },
    { 'fe<BS>', 'daexample.co', 'normal <BS> deletes the character before the cursor' },
    { 'dw', 'da.co', 'after dw (formd\'s forward word delete)' },
    { 'D', 'da', 'after D' },
    { 'u', 'da.co', 'u undoes D' },
    { 'u', 'daexample.co', 'u undoes dw' },
    { '<C-r>', 'da.co', '<C-r> redoes dw' },
  }, function(text, what)
    eq(text, state(s).fields[1].text, what)
  end)
  eq('Email:    da.co', lines(s)[1], 'the line shows formd\'s text')
  eq(0, #vim.fn.undotree().entries, 'the buffer keeps no undo history')
  s:close()
end)

test('normal-mode <BS> on an empty field steps back (deleteOnEmpty)', function()
  local s = open()
  type_email(s, 'ada@example.com')
  keys(s, '<Esc><Tab>')
  eq({ 2, 2 }, { s:marked_line(), cursor_row() }, 'on the empty password')
  keys(s, '<BS>')
  eq({ 1, 1 }, { s:marked_line(), cursor_row() }, 'back on the email')
  eq('ada@example.com', state(s).fields[1].text, 'nothing deleted')
  s:close()
end)

test('u undoes a typing run in one step, as in formd tui', function()
  local s = open()
  type_email(s, 'ada@example.com')
  keys(s, '<Esc>')
  keys(s, 'A.uk<Esc>')
  eq('ada@example.com.uk', state(s).fields[1].text, 'typed')
  keys(s, 'u')
  eq('ada@example.com', state(s).fields[1].text, 'one u takes back the whole run')
  eq('Email:    ada@example.com', lines(s)[1], 'line')
  keys(s, 'u')
  eq('', state(s).fields[1].text, 'the first run')
  keys(s, 'u')
  truthy(messages():find('formd: already at the oldest change', 1, true), 'nothing more to undo is said')
  s:close()
end)

test('S cc C s and the typing after them are one undo step, as cw', function()
  local s = open()
  type_email(s, 'one two')
  keys(s, '<Esc>')
  for _, k in ipairs({ 'Snew<Esc>', 'ccnew<Esc>', '0lCnew<Esc>', '0sn<Esc>', '02sn<Esc>' }) do
    keys(s, k)
    truthy(state(s).fields[1].text ~= 'one two', k .. ' changed the text')
    keys(s, 'u')
    eq('one two', state(s).fields[1].text, 'one u after ' .. k)
  end
  s:close()
end)

test('x X D dw r: counts, dw to the next word, one undo step each, repeated by .', function()
  local s = open()
  type_email(s, 'one two three four')
  keys(s, '<Esc>')
  steps(s, {
    { '0dw', 'two three four', 'dw deletes to the start of the next word, as in Vim' },
    { '2dw', 'four', '2dw' },
    { 'u', 'two three four', 'one u takes back 2dw' },
    { '03x', ' three four', '3x' },
    { '.', 'ree four', '. repeats 3x' },
    { 'u', ' three four', 'one u takes back the repeated 3x' },
    { '$2X', ' three fr', '2X' },
    { '03rZ', 'ZZZree fr', '3rZ' },
    { 'w.', 'ZZZree ZZ', '. repeats r' },
    { '0wD', 'ZZZree ', 'D' },
    { 'Aa b<Esc>0', 'ZZZree a b', '0' },
    { 'd2w', 'b', 'd2w (Vim\'s own operator, read back from the buffer) agrees' },
  }, function(text, what)
    eq(text, state(s).fields[1].text, what)
  end)
  -- r in a secure field: the character reaches neither the line nor the `.` register.
  keys(s, '<Tab>AQZJ9<Esc>0')
  keys(s, 'rW')
  local _, f = state(s, true)
  eq('WZJ9', f.password.text, 'r in the password')
  eq('Password: ' .. bullets(4), lines(s)[2], 'the line after r')
  truthy(not vim.fn.getreg('.'):find('W', 1, true), 'r left its character in the . register')
  local seen = #seen_lines
  keys(s, '0lvl')
  keys(s, 'rK')
  _, f = state(s, true)
  eq('WKK9', f.password.text, 'Visual r in the password')
  for i = seen + 1, #seen_lines do
    truthy(not seen_lines[i]:find('K', 1, true), 'Visual r put its character in the line: ' .. seen_lines[i])
  end
  s:close()
end)

test('. repeats typing after an insert command and c{motion}, not an older change; never a password', function()
  local s = open()
  type_email(s, 'one two three')
  keys(s, '<Esc>')
  steps(s, {
    { '0de', ' two three', 'de' },
    { 'A!<Esc>', ' two three!', 'A!' },
    { '.', ' two three!!', '. types ! again (not de)' },
    { '0wcwTWO<Esc>', ' TWO three!!', 'cw' },
    { 'w.', ' TWO TWO!!', '. changes the next word too' },
    { 'u', ' TWO three!!', 'one u takes it back' },
  }, function(text, what)
    eq(text, state(s).fields[1].text, what)
  end)
  keys(s, '<Tab>Aab<Esc>')
  keys(s, '.')
  local _, f = state(s, true)
  eq('ab', f.password.text, '. does not type into a password again')
  truthy(messages():find('typing into a secure field is not repeated', 1, true), 'says why')
  s:close()
end)

test(':s on a field\'s line is sent as what it wrote (Neovim reports it before writing it)', function()
  local s = open()
  type_email(s, 'abc def def')
  keys(s, '<Esc>:s/def/XYZW/g<CR>')
  eq('abc XYZW XYZW', state(s).fields[1].text, 'formd text after :s')
  eq('Email:    abc XYZW XYZW', lines(s)[1], 'the line')
  keys(s, 'u')
  eq('abc def def', state(s).fields[1].text, 'u takes it back')
  s:close()
end)

test('p of a line yanked from the form (yy) pastes its text, not its label', function()
  local s = open()
  type_email(s, 'ada@example.com')
  keys(s, '<Esc>yy<Tab>')
  keys(s, 'p')
  local _, f = state(s, true)
  eq('ada@example.com', f.password.text, 'the pasted text')
  s:close()
end)

-- The cursor's byte column on its line, as a position in the field's text.
local function caret_col(s)
  local c = vim.api.nvim_win_get_cursor(0)
  return c[2] - #s.prefixes[c[1]]
end

test('every way into insert mode lands in the field\'s text at formd\'s caret (i I a A s S cc C R)', function()
  local s = open()
  type_email(s, 'abcdef')
  local function check(text, what)
    eq(text, state(s).fields[1].text, what)
    eq('Email:    ' .. text, lines(s)[1], what .. ' (line)')
  end
  steps(s, {
    { '<Esc>0iX<Esc>', 'Xabcdef', '0i from the label' },
    { '$aY<Esc>', 'XabcdefY', '$a' },
    { 'IS<Esc>', 'SXabcdefY', 'I' },
    { 'AE<Esc>', 'SXabcdefYE', 'A' },
    { '03lsZ<Esc>', 'SXaZcdefYE', '3ls' },
    { '0fdCq<Esc>', 'SXaZcq', 'C' },
    { '0fZRzy<Esc>', 'SXazyq', 'R replaces' },
    { 'ccnew<Esc>', 'new', 'cc' },
    { 'Sold', 'old', 'S' },
  }, check)
  eq('i', mode(), 'insert mode')
  eq(3, caret_col(s), 'the cursor is at formd\'s caret')
  keys(s, '<Left><Left>')
  eq(1, caret_col(s), 'after <Left><Left>')
  eq({ start = 1, ['end'] = 1 }, state(s).fields[1].selection, 'formd\'s caret after <Left><Left>')
  steps(s, {
    { '-', 'o-ld', 'typing in the middle' },
    { '<Home>^<End>$', '^o-ld$', '<Home> and <End>' },
    { '<C-w>', '^o-', '<C-w> deletes the word before the caret' },
    { '<C-u>', '', '<C-u> deletes to the start' },
  }, check)
  s:close()
end)

test('a mouse click or a motion along the field moves formd\'s caret', function()
  local s = open()
  type_email(s, 'abcdef')
  keys(s, '<Esc>0ll')
  eq({ start = 2, ['end'] = 2 }, state(s).fields[1].selection, 'caret after 0ll')
  keys(s, 'i+')
  eq('ab+cdef', state(s).fields[1].text, 'typed at the caret')
  keys(s, '<Esc>')
  eq({ start = 3, ['end'] = 3 }, state(s).fields[1].selection, '<Esc> leaves formd\'s caret where typing stopped')
  keys(s, 'i-')
  eq('ab+-cdef', state(s).fields[1].text, 'i continues there')
  -- A click on another field's text: focus, and the caret where the click went.
  keys(s, '<Esc><Tab>')
  eq(2, s:marked_line(), 'on the password')
  keys(s, '<LeftMouse><15,0>') -- the sign column (2) and "Email:    " (10), then 3 characters
  eq(1, s:marked_line(), 'the click focused the email')
  eq({ start = 3, ['end'] = 3 }, state(s).fields[1].selection, 'formd\'s caret where the click went')
  keys(s, 'i=')
  eq('ab+=-cdef', state(s).fields[1].text, 'typed where the click went')
  s:close()
end)

test('a Visual selection on a field is formd\'s selection, and goes with Visual mode', function()
  local s = open()
  type_email(s, 'abcdef')
  keys(s, '<Esc>0lvll')
  eq({ start = 1, ['end'] = 4 }, state(s).fields[1].selection, 'after vll from b')
  keys(s, 'h')
  eq({ start = 1, ['end'] = 3 }, state(s).fields[1].selection, 'after h')
  keys(s, '<Esc>')
  eq({ start = 2, ['end'] = 2 }, state(s).fields[1].selection, 'a caret at the cursor after <Esc>')
  keys(s, '$vhh')
  eq({ start = 3, ['end'] = 6, backward = true }, state(s).fields[1].selection, 'backward from the end')
  keys(s, 'd')
  eq('abc', state(s).fields[1].text, 'd deletes it')
  eq('n', mode(), 'normal mode')
  s:close()
end)

test('the one-time code: typing 123456 fills the six boxes, Backspace steps back', function()
  local s = open({ autofocus = true }, root .. '/examples/otp.json')
  wait_for('focus on the first box', function()
    return s:marked_line() == 1
  end)
  keys(s, 'i123')
  eq({ '1', '2', '3', '', '', '' }, vim.tbl_map(function(f) return f.text end, state(s).fields), 'three boxes')
  eq(4, s:marked_line(), 'focus on box 4')
  keys(s, '<BS>')
  eq(3, s:marked_line(), 'Backspace on the empty box 4 steps back')
  keys(s, '<BS>')
  eq('', state(s).fields[3].text, 'a second Backspace deletes the digit')
  keys(s, 'x')
  truthy(messages():find('Digit 3: change refused (inputFilter)', 1, true), 'a letter is refused')
  keys(s, '3456')
  eq({ '1', '2', '3', '4', '5', '6' }, vim.tbl_map(function(f) return f.text end, state(s).fields), 'six boxes')
  eq({ 'Digit 1: 1', 'Digit 2: 2', 'Digit 3: 3', 'Digit 4: 4', 'Digit 5: 5', 'Digit 6: 6' }, lines(s), 'lines')
  -- a pasted code (and a line break after it) fills the boxes in turn
  s:request('reset', {})
  s:request('focusNext', {})
  settle(s)
  keys(s, '<Esc>i')
  vim.paste({ '654321', '' }, -1)
  settle(s)
  eq({ '6', '5', '4', '3', '2', '1' }, vim.tbl_map(function(f) return f.text end, state(s).fields), 'pasted code')
  s:close()
end)

test('a paste (vim.paste, p, P) is one editAction paste at the caret; masked in a secure field', function()
  local s = open()
  keys(s, '<Tab><Tab>A')
  vim.paste({ SECRET }, -1)
  settle(s)
  eq('Password: ' .. bullets(#SECRET), lines(s)[2], 'pasted text is masked')
  local _, f = state(s, true)
  eq(SECRET, f.password.text, 'formd text after the paste')
  keys(s, '<Esc><S-Tab>')
  vim.fn.setreg('r', 'x@y.z')
  keys(s, '"rp')
  eq('x@y.z', state(s).fields[1].text, 'p on an empty field')
  keys(s, '0"rP')
  eq('x@y.zx@y.z', state(s).fields[1].text, 'P before the cursor')
  keys(s, 'u')
  eq('x@y.z', state(s).fields[1].text, 'a paste is one undo step')
  s:close()
end)

test('a submit without on_submit shows the values, keeps them in g:formd_last_submit, fires User FormdSubmitted', function()
  local fired = 0
  local id = vim.api.nvim_create_autocmd('User', { pattern = 'FormdSubmitted', callback = function()
    fired = fired + 1
  end })
  vim.g.formd_last_submit = nil
  local s = open()
  type_email(s, 'ada@example.com')
  keys(s, '<CR>' .. SECRET .. '<CR>')
  wait_for('the submit', function()
    return fired > 0
  end)
  vim.api.nvim_del_autocmd(id)
  eq({ form = 'default', values = { email = 'ada@example.com' }, withheld = { 'password' } }, vim.g.formd_last_submit,
    'g:formd_last_submit')
  wait_for('the values shown', function()
    return messages():find('formd: submitted email=ada@example.com (withheld: password)', 1, true)
  end)
  eq(1, fired, 'User FormdSubmitted fired once')
  truthy(s.closed, 'the form closed')
end)

test('validation errors given as objects {rule, message} show their message, strings as they are', function()
  eq('Fill in this field., must be at least 8 characters',
    render.error_text({ { rule = 'valueMissing', message = 'Fill in this field.' }, 'must be at least 8 characters' }),
    'objects and strings (an older formd)')
end)

test('the form keeps its shape: deleted, added or joined lines are put back', function()
  local s = open()
  type_email(s, 'ada@example.com')
  keys(s, '<Esc>dd')
  eq({ 'Email:    ada@example.com', 'Password: ' }, lines(s), 'after dd')
  keys(s, 'o')
  eq({ 'Email:    ada@example.com', 'Password: ' }, lines(s), 'after o')
  eq('n', mode(), 'o opens no line')
  keys(s, 'ggJ')
  eq({ 'Email:    ada@example.com', 'Password: ' }, lines(s), 'after J')
  local _, f = state(s)
  eq('ada@example.com', f.email.text, 'formd text unchanged')
  eq('', f.password.display, 'password unchanged')
  s:close()
end)

test('the cursor cannot rest in a label: insert from it types into the field', function()
  local s = open()
  keys(s, '<Tab>0')
  eq(#'Email:    ', vim.api.nvim_win_get_cursor(0)[2], 'the cursor left the label')
  keys(s, 'izz')
  eq({ 'Email:    zz', 'Password: ' }, lines(s), 'lines')
  local _, f = state(s)
  eq('zz', f.email.text, 'formd text')
  s:close()
end)

test('moving to another line asks for focus; a refusal puts the cursor back', function()
  local s = open()
  keys(s, '<Tab>')
  eq(1, s:marked_line(), 'marked line')
  keys(s, 'j')
  eq({ 2, 2 }, { s:marked_line(), cursor_row() }, 'after j')
  keys(s, 'k')
  eq({ 1, 1 }, { s:marked_line(), cursor_row() }, 'after k')
  s:request('configureField', { field = 'email', canResignFirstResponder = false })
  settle(s)
  keys(s, 'j')
  eq({ 1, 1 }, { s:marked_line(), cursor_row() }, 'after a refused j')
  s:close()
end)

test('a field that cannot take focus is passed over without a demand; insert mode does not start there', function()
  local s = open()
  keys(s, '<Tab>')
  for _, change in ipairs({ { canBecomeFirstResponder = false }, { enabled = false } }) do
    s:request('configureField', vim.tbl_extend('force', { field = 'password' }, change))
    settle(s)
    keys(s, 'j')
    eq({ 1, 2 }, { s:marked_line(), cursor_row() }, 'the cursor rests on it, focus stays')
    local _, f = state(s)
    eq(nil, f.password.demand, 'no demand left pending')
    keys(s, 'ix')
    eq('n', mode(), 'no insert mode there')
    _, f = state(s)
    eq('', f.password.display, 'nothing typed into it')
    eq('', state(s).fields[1].text, 'nor into the first responder')
    truthy(messages():find('formd: Password cannot take focus', 1, true), 'said why')
    keys(s, 'k')
    s:request('configureField', { field = 'password', canBecomeFirstResponder = true, enabled = true })
    settle(s)
  end
  s:close()
end)

test('changes made through the protocol are drawn from the events', function()
  local s = open()
  s:request('setText', { field = 'email', text = 'grace@example.org' })
  settle(s)
  eq('Email:    grace@example.org', lines(s)[1], 'after setText')
  s:request('select', { field = 'email', start = 2, ['end'] = 7 })
  settle(s)
  local marks = vim.tbl_filter(function(m)
    return m[4].hl_group == 'FormdSelection'
  end, vim.api.nvim_buf_get_extmarks(s.buf, render.ns, 0, -1, { details = true }))
  eq(1, #marks, 'one selection highlight')
  eq({ 0, #'Email:    ' + 2, #'Email:    ' + 7 }, { marks[1][2], marks[1][3], marks[1][4].end_col }, 'its range')
  s:request('setText', { field = 'password', text = SECRET })
  settle(s)
  eq('Password: ' .. bullets(#SECRET), lines(s)[2], 'secure setText is masked')
  s:request('setEnabled', { field = 'email', enabled = false })
  settle(s)
  eq('(disabled)', virt_texts(s, 1), 'disabled')
  s:request('addField', { field = { id = 'name', label = 'Full name' }, after = 'email' })
  settle(s)
  eq({ 'Email:     grace@example.org', 'Full name: ', 'Password:  ' .. bullets(#SECRET) }, lines(s), 'after addField')
  s:request('setRevealed', { field = 'password', revealed = true })
  settle(s)
  eq('Password:  ' .. SECRET, lines(s)[3], 'revealed')
  s:request('setRevealed', { field = 'password', revealed = false })
  s:request('reset', {})
  settle(s)
  eq({ 'Email:     ', 'Full name: ', 'Password:  ' }, lines(s), 'after reset')
  s:close()
end)

-- One request to a `formd --listen` daemon over its socket, as another client (tests/query.py).
local function query(sock, method, params)
  local outp = vim.fn.system({ 'python3', os.getenv('FORMD_NVIM_DIR') .. '/tests/query.py', sock, method,
    vim.json.encode(params or vim.empty_dict()) })
  if vim.v.shell_error ~= 0 then
    error('query ' .. method .. ' failed: ' .. outp, 2)
  end
  return vim.json.decode(outp)
end

local function daemon(form_file)
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p', 448) -- 0700: formd refuses a socket directory others can write
  local sock = dir .. '/formd.sock'
  local job = vim.fn.jobstart({ os.getenv('FORMD_BIN'), '--listen', sock, '--form', form_file or LOGIN })
  wait_for('the daemon\'s socket', function()
    return vim.loop.fs_stat(sock) ~= nil
  end)
  return sock, job
end

test(':FormdAttach shows a running daemon\'s form, draws other clients\' edits, leaves the daemon running', function()
  vim.cmd('runtime plugin/formd.lua')
  local sock, job = daemon()
  query(sock, 'setText', { field = 'email', text = 'ada@example.com' })
  vim.cmd('FormdAttach ' .. vim.fn.fnameescape(sock))
  local s = formd.session()
  truthy(s, 'a session for the current buffer')
  table.insert(all_sessions, s)
  watch(s.buf)
  wait_for('the form to load', function()
    return s.ready and lines(s)[1] == 'Email:    ada@example.com'
  end)
  wait_for('autofocus', function()
    return s:marked_line() == 1
  end)
  -- another client's edit appears
  query(sock, 'setText', { field = 'email', text = 'grace@example.org' })
  wait_for('the other client\'s edit', function()
    return lines(s)[1] == 'Email:    grace@example.org'
  end)
  -- what is typed here reaches the daemon
  keys(s, 'A.uk<Esc>')
  eq('grace@example.org.uk', query(sock, 'getState').fields[1].text, 'the daemon has the typing')
  query(sock, 'focusNext')
  wait_for('focus moved by the other client', function()
    return s:marked_line() == 2
  end)
  vim.cmd('FormdClose')
  wait_for('the bridge to stop', function()
    return s.rpc.exited
  end)
  eq('grace@example.org.uk', query(sock, 'getState').fields[1].text, 'the daemon is still running')
  -- a form other than the default one
  query(sock, 'defineForm', { form = 'signup', fields = { { id = 'name', label = 'Name', text = 'Ada' } } })
  vim.cmd('FormdAttach ' .. vim.fn.fnameescape(sock) .. ' signup')
  local s2 = formd.session()
  table.insert(all_sessions, s2)
  wait_for('the signup form', function()
    return s2.ready and lines(s2)[1] == 'Name: Ada'
  end)
  s2:close()
  vim.fn.jobstop(job)
end)

test(':Formd opens a form; :FormdClose cancels it and stops formd', function()
  vim.cmd('runtime plugin/formd.lua')
  eq(2, vim.fn.exists(':Formd'), ':Formd exists')
  local cancelled
  formd.setup({
    autofocus = false,
    key_timeout = 5000,
    on_cancel = function(reason)
      cancelled = reason
    end,
  })
  vim.cmd('Formd ' .. vim.fn.fnameescape(LOGIN))
  local s = formd.session()
  truthy(s, 'a session for the current buffer')
  table.insert(all_sessions, s)
  watch(s.buf)
  wait_for('the form to load', function()
    return s.ready
  end)
  settle(s)
  eq({ 'Email:    ', 'Password: ' }, lines(s), 'lines')
  keys(s, '<Tab>')
  eq(1, s:marked_line(), 'marked line')
  local buf = s.buf
  vim.cmd('FormdClose')
  eq('closed', cancelled, 'on_cancel reason')
  truthy(not vim.api.nvim_buf_is_valid(buf), 'buffer gone')
  wait_for('formd to exit', function()
    return s.rpc.exited
  end)
  formd.setup({})
end)

test('wiping the buffer stops formd', function()
  local s = open()
  vim.cmd('bwipeout! ' .. s.buf)
  truthy(s.closed, 'session closed')
  wait_for('formd to exit', function()
    return s.rpc.exited
  end)
end)

test('a bad form file or a missing formd is reported, and no buffer is left', function()
  local before = #vim.api.nvim_list_bufs()
  local bad = vim.fn.tempname() .. '.json'
  vim.fn.writefile({ '{"fields": [{"label": "no id"}]}' }, bad)
  local s = formd.open(bad, { autofocus = false })
  truthy(s, 'a session is started')
  wait_for('formd to fail', function()
    return s.closed
  end)
  truthy(messages():find('could not start (status 2): formd: bad form file', 1, true), 'message: ' .. messages())
  local missing, err = formd.open(LOGIN, { bin = '/nonexistent/formd' })
  eq(nil, missing, 'no session without formd')
  truthy(err, 'an error')
  local nope = formd.open('/nonexistent/form.json')
  eq(nil, nope, 'no session without a form file')
  eq(before, #vim.api.nvim_list_bufs(), 'buffers')
end)

test('a secure field\'s text never reached a buffer, a register or a message', function()
  truthy(#seen_lines > 20, 'lines were watched')
  for _, l in ipairs(seen_lines) do
    local tail = l:match('^Password: +(.*)$') or l:match('^PIN: +(.*)$')
    if tail then
      truthy(tail:match('^[•]*$') or tail == SECRET, 'a password line showed text: ' .. l)
    end
    if l:find(SECRET, 1, true) and not l:match('^Password: +' .. SECRET .. '$') then
      error('the secret appeared in a line: ' .. l)
    end
  end
  -- The revealed password (setRevealed) is the only place the secret may show; nothing typed
  -- into a masked field (abcdef, x, abc, QZJ…) may appear anywhere else.
  local hay = messages() .. vim.v.statusmsg .. vim.v.errmsg
  for _, r in ipairs({ '"', '-', '.', '0', '1', ':', '/' }) do
    hay = hay .. '\n' .. vim.fn.getreg(r)
  end
  for _, secret in ipairs({ SECRET, 'abcdXef', 'abcd', '1234', 'abcXYZ12' }) do
    truthy(not hay:find(secret, 1, true), 'found ' .. secret .. ' in messages or registers')
  end
end)

----------------------------------------------------------------------------------------
-- Runner

local passed, failed = 0, 0

local function cleanup()
  if mode() ~= 'n' then
    vim.api.nvim_input('<Esc>')
    sleep_until(function()
      return mode() == 'n'
    end, 1000)
  end
  for _, s in ipairs(all_sessions) do
    if not s.closed then
      s:close('test')
    end
  end
  vim.cmd('silent! only')
end

co = coroutine.create(function()
  vim.o.showmode = false
  vim.o.more = false
  for _, t in ipairs(tests) do
    local ok, err = pcall(t.fn)
    if ok then
      passed = passed + 1
      out('ok     %s', t.name)
    else
      failed = failed + 1
      out('FAILED %s\n       %s', t.name, tostring(err))
    end
    local ok2, err2 = pcall(cleanup)
    if not ok2 then
      out('cleanup error: %s', tostring(err2))
    end
  end
  out('%d passed, %d failed', passed, failed)
  if failed > 0 then
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end)

vim.defer_fn(function()
  out('timed out')
  out('%d passed, %d failed', passed, failed + 1)
  vim.cmd('cquit 2')
end, 240000)

local ok, err = coroutine.resume(co)
if not ok then
  out('harness error: %s', tostring(err))
  vim.cmd('cquit 3')
end
