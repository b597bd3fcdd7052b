vim9script
# formd in Vim: a form of a formd daemon in a buffer, on Vim's own JSON-RPC (a job whose
# channel speaks the LSP base protocol: in_mode/out_mode "lsp"). formd keeps the form; this
# plugin sends what the person does at formd's caret (insertText, delete, select, moveCaret,
# undo, redo, pressReturn, focus moves) and redraws the buffer from formd's events only.
# See clients/vim/README.md and :help formd.

import autoload 'formd/render.vim'

const VERSION = '0.1.0'
const BULLET = '•'

# Sessions by buffer number.
var sessions: dict<dict<any>> = {}

# ------------------------------------------------------------------------------------------
# Options: the `opts` given to Open/Attach, else g:formd_NAME (g:Formd_on_submit and
# g:Formd_on_cancel, being functions), else the default.

const DEFAULTS = {bin: '', on_submit: null_function, on_cancel: null_function,
  include_secrets: false, autofocus: true, timeout: 5000, key_timeout: 1000, mods: ''}

def Option(opts: dict<any>, name: string): any
  if has_key(opts, name)
    return opts[name]
  endif
  var global = name =~ '^on_' ? 'Formd_' .. name : 'formd_' .. name
  return has_key(g:, global) ? g:[global] : DEFAULTS[name]
enddef

def Bin(opts: dict<any>): string
  var bin = Option(opts, 'bin')
  if type(bin) == v:t_string && bin != ''
    return bin
  endif
  return $FORMD_BIN != '' ? $FORMD_BIN : 'formd'
enddef

def Warn(msg: string)
  echohl WarningMsg
  echomsg 'formd: ' .. msg
  if mode() =~# '^[iR]' && exists(':echowindow') == 2
    # Insert mode's "-- INSERT --" would cover it (:echowindow came in 9.0.0321).
    exe 'echowindow ' .. string('formd: ' .. msg)
  endif
  echohl None
enddef

def Error(msg: string)
  echohl ErrorMsg
  echomsg 'formd: ' .. msg
  echohl None
enddef

# Shows a message once the redraw that follows closing a form is over (it would wipe out a
# message shown before it).
def Later(Show: func(string), msg: string)
  timer_start(0, (_) => Show(msg))
enddef

def IsNull(v: any): bool
  return type(v) == v:t_none
enddef

# ------------------------------------------------------------------------------------------
# The model, fed by formd's answers and events only.

def FieldRow(s: dict<any>, id: any): number
  if type(id) != v:t_string
    return -1
  endif
  for i in range(len(s.model.fields))
    if s.model.fields[i].id == id
      return i
    endif
  endfor
  return -1
enddef

def Field(s: dict<any>, id: any): dict<any>
  var row = FieldRow(s, id)
  return row < 0 ? {} : s.model.fields[row]
enddef

# Where formd's caret is in a field (a "utf-8" position: bytes of its display).
def Caret(f: dict<any>): number
  var sel = get(f, 'selection', {})
  return get(sel, 'backward', false) == true ? get(sel, 'start', 0) : get(sel, 'end', 0)
enddef

def Masked(f: dict<any>): bool
  return get(f, 'secure', false) == true && get(f, 'revealed', false) != true
enddef

def Focused(s: dict<any>, id: any): bool
  return type(id) == v:t_string && type(s.model.firstResponder) == v:t_string && s.model.firstResponder == id
enddef

def CanFocus(f: dict<any>): bool
  return get(f, 'enabled', true) != false && get(f, 'canBecomeFirstResponder', true) != false
enddef

# Why keys typed at a field that cannot take focus do nothing.
def Refusal(f: dict<any>): string
  return render.Label(f) .. (get(f, 'enabled', true) == false ? ' is disabled' : ' cannot take focus') .. ': nothing typed there'
enddef

# A secure field's text is never kept for . or a count (revealed or not).
def Secure(f: dict<any>): bool
  return get(f, 'secure', false) == true
enddef

def Snapshot(s: dict<any>, state: dict<any>)
  s.model.fields = copy(get(state, 'fields', []))
  s.model.firstResponder = get(state, 'firstResponder', v:null)
  s.model.seq = get(state, 'seq', 0)
  s.show_errors = {}
  s.place_cursor = true
enddef

def OnEvent(s: dict<any>, method: string, p: dict<any>)
  if method == 'error'
    Warn(printf('%s failed: %s', get(p, 'method', 'a request'), get(p, 'message', '')))
    return
  elseif method == 'shutdown'
    Close(s, 'exited')
    Later(Warn, 'the formd daemon is shutting down')
    return
  endif
  if get(p, 'form', '') != s.form
    return
  endif
  var seq = get(p, 'seq', 0)
  if seq <= s.model.seq
    return # already in the state we hold (events queued behind a getState)
  elseif seq > s.model.seq + 1 && !s.resyncing
    Resync(s)
  endif
  s.model.seq = seq
  var f = Field(s, get(p, 'field', v:null))
  var focused = !empty(f) && Focused(s, f.id)
  if method == 'formDefined' || method == 'formReset'
    Snapshot(s, p)
  elseif method == 'fieldAdded'
    var at = min([max([0, get(p, 'index', len(s.model.fields))]), len(s.model.fields)])
    insert(s.model.fields, p.field, at)
    s.place_cursor = true # rows below it moved
  elseif method == 'fieldRemoved'
    var row = FieldRow(s, p.field)
    if row >= 0
      remove(s.model.fields, row)
      s.place_cursor = true
    endif
    if Focused(s, p.field)
      s.model.firstResponder = v:null
    endif
  elseif empty(f)
    # an event about a field we do not have: ignore it
  elseif method == 'fieldChanged'
    extend(f, p.changes)
    # A new label can change every label's width, so where the text starts.
    s.place_cursor = s.place_cursor || has_key(p.changes, 'label')
    if !has_key(p.changes, 'text') && has_key(p.changes, 'display') && Masked(f)
      remove(f, 'text')
    endif
  elseif method == 'textChanged'
    f.display = get(p, 'display', '')
    f.length = p.length
    f.selection = p.selection
    if has_key(p, 'text')
      f.text = p.text
    elseif has_key(f, 'text')
      remove(f, 'text')
    endif
    s.place_cursor = s.place_cursor || focused
  elseif method == 'selectionChanged'
    f.selection = p.selection
    s.place_cursor = s.place_cursor || focused
  elseif method == 'responderChanged'
    f.isFirstResponder = p.isFirstResponder
    if p.isFirstResponder == true
      s.model.firstResponder = f.id
    elseif Focused(s, f.id)
      s.model.firstResponder = v:null
    endif
  elseif method == 'demandChanged'
    f.demand = p.demand
  elseif method == 'validityChanged'
    f.valid = p.valid
    f.errors = p.errors
  elseif method == 'changeRejected'
    if index(['disabled', 'maxLength', 'inputFilter'], p.reason) >= 0
      Warn(printf('%s: change refused (%s)', render.Label(f), p.reason))
    endif
  endif
  if method == 'focusChanged'
    if IsNull(p.to) && type(s.model.firstResponder) == v:t_string
      s.last_focus = s.model.firstResponder
    endif
    s.model.firstResponder = p.to
    s.place_cursor = true
  elseif method == 'submitFailed'
    ShowErrors(s, p.errors)
  elseif method == 'submitted'
    Finish(s, p.values, p.withheld)
  endif
enddef

def ShowErrors(s: dict<any>, errors: list<any>)
  var parts: list<string> = []
  for e in errors
    var f = Field(s, e.field)
    if !empty(f)
      s.show_errors[f.id] = true
      parts->add(render.Label(f) .. ': ' .. join(render.Messages(e.errors), ', '))
    endif
  endfor
  Warn('cannot submit: ' .. join(parts, '; '))
enddef

def Resync(s: dict<any>)
  s.resyncing = true
  Request(s, 'getState', {}, (state) => {
    s.resyncing = false
    Snapshot(s, state)
  })
enddef

# ------------------------------------------------------------------------------------------
# Talking to formd

# Sends a request; its answer (and every event before it) is applied and drawn when it
# arrives. OnResult gets the result; an error is reported unless `quiet`. Either way a
# failed request puts the cursor back on formd's caret.
def Request(s: dict<any>, method: string, params: dict<any> = {}, OnResult: func(any) = null_function, quiet: bool = false)
  if s.closed || ch_status(s.ch) != 'open'
    return
  endif
  if method != 'initialize' && method != 'shutdown' && !has_key(params, 'form')
    params.form = s.form
  endif
  var moving = MayMoveFocus(s, method, params)
  s.outstanding += 1
  s.moving += moving ? 1 : 0
  ch_sendexpr(s.ch, {method: method, params: params}, {callback: (_, msg) => {
    s.moving -= moving ? 1 : 0
    Answered(s, method, msg, OnResult, quiet)
  }})
enddef

# Whether formd may move focus in answering (keys typed after it wait for that): the
# focus commands, and typing, pasting or deleting in a field that moves on when full
# (autoAdvance) or steps back when empty (deleteOnEmpty).
const FOCUS_COMMANDS = ['demandFocus', 'focusNext', 'focusPrevious', 'pressReturn', 'submit', 'reset']

def MayMoveFocus(s: dict<any>, method: string, params: dict<any>): bool
  if index(FOCUS_COMMANDS, method) >= 0
    return true
  elseif index(['insertText', 'editAction', 'delete'], method) < 0
    return false
  endif
  var f = has_key(params, 'field') ? Field(s, params.field) : Target(s)
  return get(f, 'autoAdvance', false) == true || get(f, 'deleteOnEmpty', 'none') != 'none'
enddef

def Answered(s: dict<any>, method: string, msg: dict<any>, OnResult: func(any), quiet: bool)
  s.outstanding -= 1
  if s.closed
    return
  endif
  if has_key(msg, 'error')
    s.place_cursor = true
    if !quiet
      var e = msg.error
      if get(e, 'code', 0) == -32602 && IsNull(s.model.firstResponder)
        Warn('no field has focus')
      else
        Warn(printf('%s failed: %s', method, get(e, 'message', string(e))))
      endif
    endif
  elseif OnResult != null_function
    OnResult(get(msg, 'result', {}))
  endif
  Draw(s)
enddef

def OnMessage(s: dict<any>, msg: any)
  if s.closed || type(msg) != v:t_dict || !has_key(msg, 'method')
    return
  endif
  OnEvent(s, msg.method, get(msg, 'params', {}))
  Draw(s)
enddef

# Waits (at most key_timeout ms) until formd has answered every request sent (with
# `moves`, every one that may move focus), so what follows acts on the form as formd has
# it. Events are applied while waiting.
def Drain(s: dict<any>, moves: bool = false)
  var start = reltime()
  var limit = Option(s.opts, 'key_timeout') / 1000.0
  while (moves ? s.moving : s.outstanding) > 0 && !s.closed && reltimefloat(reltime(start)) < limit
    sleep 1m
  endwhile
enddef

# ------------------------------------------------------------------------------------------
# Drawing

def Draw(s: dict<any>)
  if s.closed || !s.ready || !bufexists(s.buf)
    return
  elseif s.held
    s.redraw = true # (in InsertCharPre the buffer may not change: drawn once it is over)
    return
  endif
  Reconcile(s)
  s.prefixes = render.Prefixes(s.model.fields)
  s.lines = render.Lines(s.model.fields, s.prefixes)
  render.Write(s.buf, s.lines)
  render.Decorate(s.buf, s.model, s.prefixes, s.show_errors)
  if s.place_cursor
    s.place_cursor = false
    PlaceCursor(s)
  endif
enddef

# Puts the cursor of every window on the form at formd's caret in the first responder.
def PlaceCursor(s: dict<any>)
  var row = FieldRow(s, s.model.firstResponder)
  if row < 0
    return
  endif
  var col = len(s.prefixes[row]) + Caret(s.model.fields[row]) + 1
  s.placements += 1
  for win in win_findbuf(s.buf)
    if win == win_getid()
      cursor(row + 1, col)
      s.placed = [line('.'), col('.')]
    else
      win_execute(win, printf('cursor(%d, %d)', row + 1, col))
    endif
  endfor
enddef

# ------------------------------------------------------------------------------------------
# What the person does

def Current(): dict<any>
  var s = get(sessions, bufnr(), {})
  return !empty(s) && s.ready && !s.closed ? s : {}
enddef

# The cursor moved (a motion, a click, entering Insert mode): the field under it becomes
# first responder and formd's caret goes where the cursor is. The cursor never rests in a
# label. Returns true when it moved the cursor. When requests are still on their way, their
# answers are drawn first; a cursor the person moved since it was last placed stays where
# they put it.
def FollowCursor(s: dict<any>, inserting: bool = false): bool
  Reconcile(s)
  var here = [line('.'), col('.')]
  var by_person = here != s.placed
  if s.outstanding > 0
    Drain(s)
    if by_person
      cursor(here[0], here[1])
    endif
  endif
  var lnum = line('.')
  var col = col('.')
  if lnum > len(s.model.fields)
    return false
  endif
  var f = s.model.fields[lnum - 1]
  var plen = len(s.prefixes[lnum - 1])
  var pos = min([max([col - 1 - plen, 0]), len(render.Display(f))])
  var moved = false
  if col - 1 - plen != pos
    cursor(lnum, plen + pos + 1)
    moved = true
  endif
  s.placed = [line('.'), col('.')]
  if inserting && by_person && !empty(s.ins)
    s.ins = NewInsert('i', 1) # moving the cursor starts a new insert, as in Vim
  endif
  s.refusing = ''
  if !Focused(s, f.id)
    if !CanFocus(f)
      # The cursor may pass over a field that cannot take focus; focus stays where it is.
      # Keys typed there are refused, saying so (none is lost silently, none becomes a
      # Normal-mode command).
      if inserting
        s.refusing = f.id
        Later(Warn, Refusal(f)) # after Insert mode's own message
      endif
      return moved
    endif
    Request(s, 'demandFocus', {field: f.id, demand: 'become'}, (r) => {
      if r.outcome != 'fulfilled'
        s.place_cursor = true
      endif
    })
    Request(s, 'select', {field: f.id, start: pos, end: pos}, null_function, true)
  elseif mode() =~# "^[vV\<C-v>]"
    s.visual = true
    SelectVisual(s, f, lnum, plen)
  elseif pos != Caret(f) || (by_person || s.visual) && get(f.selection, 'start', 0) != get(f.selection, 'end', 0)
    # (Visual mode over, its selection goes too.)
    Request(s, 'select', {field: f.id, start: pos, end: pos}, null_function, true)
  endif
  if mode() !~# "^[vV\<C-v>]"
    s.visual = false
  endif
  return moved
enddef

# In Visual mode within one field, formd's selection is Vim's: from the character at the
# anchor to the one under the cursor, both included, the caret at the cursor's end.
def SelectVisual(s: dict<any>, f: dict<any>, lnum: number, plen: number)
  var anchor = getpos('v')
  if anchor[1] != lnum
    return
  endif
  var n = len(render.Display(f))
  var line = getline(lnum)
  var Pos = (col: number) => min([max([col - 1 - plen, 0]), n])
  var After = (col: number) => Pos(col + len(matchstr(line, '\%' .. col .. 'c.')))
  var a = anchor[2]
  var c = col('.')
  var start = c >= a ? Pos(a) : After(a)
  var end = c >= a ? After(c) : Pos(c)
  var sel = get(f, 'selection', {})
  var now = get(sel, 'backward', false) == true ? [sel.end, sel.start] : [get(sel, 'start', 0), get(sel, 'end', 0)]
  if [start, end] != now
    Request(s, 'select', {field: f.id, start: start, end: end}, null_function, true)
  endif
enddef

def CursorMoved(inserting: bool)
  var s = Current()
  if !empty(s)
    FollowCursor(s, inserting)
  endif
enddef

def InsertEnter()
  var s = Current()
  if empty(s)
    return
  endif
  if &paste
    # With 'paste' Vim inserts typed text itself, bypassing InsertCharPre: typed secrets
    # would enter the buffer.
    set nopaste
    Warn("'paste' switched off: typing in a form goes to formd")
  endif
  if FollowCursor(s, true)
    v:char = 'k' # keep the cursor where FollowCursor put it (out of the label)
  endif
  s.ins = NewInsert(get(s.entry, 'key', 'i'), get(s.entry, 'count', v:count1))
  s.entry = {}
enddef

# <Esc> ends the insert: a count repeats what was typed, . will repeat it. It steps the
# cursor left from where it was drawn; typed ahead, that was before the typing was drawn:
# draw it, then take the step from formd's caret.
def InsertLeave()
  var s = Current()
  if empty(s)
    return
  endif
  s.refusing = ''
  var ins = s.ins
  s.ins = {}
  if !empty(ins)
    Inserted(s, ins)
  endif
  if s.outstanding == 0
    return
  endif
  var placements = s.placements
  Drain(s)
  if s.placements != placements && line('.') <= len(s.prefixes) && col('.') > len(s.prefixes[line('.') - 1]) + 1
    cursor(line('.'), col('.') - len(matchstr(getline('.'), '.\%' .. col('.') .. 'c')))
    FollowCursor(s)
  endif
enddef

# Every character typed in Insert mode goes to formd instead of the buffer (v:char is
# emptied), so typed text, secret or not, never enters the buffer, a register or the
# undo tree; the line is redrawn from formd's textChanged.
def InsertCharPre()
  var s = Current()
  if empty(s)
    return
  endif
  var text = v:char
  v:char = ''
  s.held = true
  try
    InsertKey(s, {text: text, replace: v:insertmode == 'r'})
  finally
    s.held = false
  endtry
  if s.redraw
    s.redraw = false
    timer_start(0, (_) => Draw(s))
  endif
enddef

# ------------------------------------------------------------------------------------------
# An insert, kept for . and a count as Vim keeps one: the command that started it (`key`:
# i a A I R s S C c; `count`) and what was typed (`log`: {text, replace}, {put, typed},
# {delete, unit}, {key}). Text typed into a secure field is not kept (`secret`). In Replace
# mode `replaced` holds the characters typing replaced ('' for one typed past the end).

# The commands whose count repeats what was typed (3ix<Esc> inserts xxx); the count of the
# others is that of their delete (3s) or their motion (c3w).
const REPEATED = ['i', 'a', 'A', 'I', 'R']

def NewInsert(key: string, count: number): dict<any>
  return {key: key, count: count, log: [], secret: false, replaced: []}
enddef

# The command that starts Insert mode, noted for InsertEnter (an <expr> mapping that
# returns the key itself, so Vim does what it always does).
def Entering(key: string): string
  var s = Current()
  if !empty(s)
    s.entry = {key: key, count: v:count1}
  endif
  return key
enddef

# Starts Insert mode after a change command of the plugin's (s S C cc c{motion}).
def StartInsert(s: dict<any>, key: string, count: number)
  s.entry = {key: key, count: count}
  startinsert
enddef

# A key in Insert mode (typed text, a delete, Return, Tab, a put register or paste): sent
# once there is a field to act on, and kept in the insert.
def InsertKey(s: dict<any>, item: dict<any>)
  if get(item, 'replace', false) && s.outstanding > 0
    Drain(s) # what typing replaces is read off formd's state
  endif
  if !Focus(s)
    return
  endif
  var f = Target(s)
  Perform(s, item)
  if empty(s.ins)
    return
  endif
  if get(item, 'replace', false) && !Secure(f)
    s.ins.replaced->add(strcharpart(strpart(render.Display(f), Caret(f)), 0, 1))
  endif
  if (has_key(item, 'text') || has_key(item, 'put')) && Secure(f)
    s.ins.secret = true
  elseif has_key(item, 'text') && !empty(s.ins.log) && has_key(s.ins.log[-1], 'text') && s.ins.log[-1].replace == item.replace
    s.ins.log[-1].text ..= item.text
  else
    s.ins.log->add(copy(item))
  endif
enddef

def Perform(s: dict<any>, item: dict<any>)
  if has_key(item, 'text')
    for c in split(item.text, '\zs')
      if item.replace
        Request(s, 'moveCaret', {to: 'right', extend: true}, null_function, true)
      endif
      Request(s, 'insertText', {text: c})
    endfor
  elseif has_key(item, 'put')
    PutIn(s, Target(s), item.put, item.typed)
  elseif has_key(item, 'delete')
    Request(s, 'delete', {direction: item.delete, unit: item.unit})
  else
    Request(s, item.key)
  endif
enddef

# Insert mode ended: the count's repeats, and what . will do.
def Inserted(s: dict<any>, ins: dict<any>)
  if ins.secret
    if ins.count > 1 && index(REPEATED, ins.key) >= 0
      Later(Warn, 'a count does not repeat typing into a secure field')
    endif
    s.redo = null_function
    s.no_redo = '. does not repeat typing into a secure field'
    return
  endif
  if index(REPEATED, ins.key) >= 0
    Retype(s, ins.log, ins.count - 1)
  endif
  Did(s, (n) => RepeatInsert(ins, n))
enddef

# . after an insert: its command again where the cursor is, then what was typed (count
# times for i a A I R), and the step left of <Esc>. A count given to . replaces the insert's.
def RepeatInsert(ins: dict<any>, n: number)
  var s = Current()
  if empty(s)
    return
  endif
  var again = extend(copy(ins), {count: n > 0 ? n : ins.count})
  if ins.key == 'c'
    # c{motion}: Vim repeats the operator (g@ and its motion), ApplyOperator the typing.
    s.replay = again
    operator = 'change'
    exe 'normal! ' .. (n > 0 ? n : '') .. '.'
    s.replay = {}
    Did(s, (m) => RepeatInsert(again, m))
    return
  endif
  Sync(s)
  if !Focus(s)
    return
  endif
  var f = Target(s)
  if again.key == 'a' && !empty(f) && Caret(f) < len(render.Display(f))
    Request(s, 'moveCaret', {to: 'right'})
  elseif again.key == 'A' || again.key == 'I'
    Request(s, 'moveCaret', {to: again.key == 'A' ? 'end' : 'start'})
  elseif again.key == 's'
    DeleteAt(s, 'forward', 'character', again.count)
  elseif again.key == 'S'
    ClearField()
  elseif again.key == 'C'
    DeleteAt(s, 'forward', 'line', 1)
  endif
  Typed(s, again)
  Did(s, (m) => RepeatInsert(again, m))
enddef

# What an insert typed, once more (count times for i a A I R), then <Esc>'s step left.
def Typed(s: dict<any>, ins: dict<any>)
  Retype(s, ins.log, index(REPEATED, ins.key) >= 0 ? ins.count : 1)
  Request(s, 'moveCaret', {to: 'left'}, null_function, true)
enddef

def Retype(s: dict<any>, log: list<dict<any>>, times: number)
  for _ in range(times)
    for item in log
      Perform(s, item)
    endfor
  endfor
enddef

# Any other change Vim made to the buffer (a command this plugin does not map, a
# completion, ...) is put back and sent as the equivalent edit: select the changed range,
# then insertText or delete. The form's shape (its lines and labels) belongs to formd.
# Runs on TextChanged, and before the cursor is followed or the buffer redrawn, which
# would otherwise lose a change made just before.
def Reconcile(s: dict<any>)
  var lines = getbufline(s.buf, 1, '$')
  if lines == s.lines || empty(s.lines) && lines == ['']
    return
  endif
  if len(lines) != len(s.lines)
    render.Write(s.buf, s.lines)
    s.place_cursor = true
    return
  endif
  for row in range(len(lines))
    if lines[row] ==# s.lines[row]
      continue
    endif
    var prefix = s.prefixes[row]
    var f = s.model.fields[row]
    setbufline(s.buf, row + 1, s.lines[row])
    if strpart(lines[row], 0, len(prefix)) !=# prefix
      continue # the label was edited
    endif
    var old = split(strpart(s.lines[row], len(prefix)), '\zs')
    var new = split(strpart(lines[row], len(prefix)), '\zs')
    var head = 0
    while head < len(old) && head < len(new) && old[head] ==# new[head]
      head += 1
    endwhile
    var tail = 0
    while tail < len(old) - head && tail < len(new) - head && old[-1 - tail] ==# new[-1 - tail]
      tail += 1
    endwhile
    var start = len(join(slice(old, 0, head), ''))
    var end = len(join(slice(old, 0, len(old) - tail), ''))
    var inserted = join(slice(new, head, len(new) - tail), '')
    if Masked(f) && stridx(inserted, BULLET) >= 0
      Warn(render.Label(f) .. ': the characters behind these bullets cannot be read; type them')
      continue
    endif
    Edit(s, f, start, end, inserted)
    Did(s, null_function) # Vim's own . repeats it
  endfor
enddef

def TextChanged()
  var s = Current()
  if !empty(s)
    Reconcile(s)
    Draw(s)
  endif
enddef

# Replaces start..end of a field's display by `text` (select, then insertText or delete).
def Edit(s: dict<any>, f: dict<any>, start: number, end: number, text: string)
  if !Focused(s, f.id)
    Request(s, 'demandFocus', {field: f.id, demand: 'become'})
  endif
  Request(s, 'select', {field: f.id, start: start, end: end}, null_function, true)
  if text != ''
    Request(s, 'insertText', {field: f.id, text: text})
  elseif end > start
    Request(s, 'delete', {field: f.id})
  endif
enddef

# The field an edit acts on is formd's first responder (left out of the request, so keys
# typed ahead follow focus as formd moves it). Answers still on their way that may move it
# (Return, Tab, a filled one-time-code box) are waited for first. With no first
# responder, the field the keys were typed at takes focus first; at a field that cannot
# take focus they are refused, saying so. Returns whether there is a field to act on.
def Focus(s: dict<any>): bool
  if s.moving > 0 && mode() !=# 'n' # (in Normal mode Sync waited for every answer)
    Drain(s, true)
  endif
  if s.refusing != ''
    Warn(Refusal(Field(s, s.refusing)))
    return false
  elseif !IsNull(s.model.firstResponder)
    return true
  endif
  var f = TypedAt(s)
  if empty(f)
    Warn('no field here to type into')
    return false
  elseif !CanFocus(f)
    Warn(Refusal(f))
    return false
  endif
  Request(s, 'demandFocus', {field: f.id, demand: 'become'})
  return true
enddef

# The field keys typed with no first responder were meant for: the one under the cursor,
# or, while the cursor waits to be drawn where formd's answers put it, the one that last
# had focus.
def TypedAt(s: dict<any>): dict<any>
  var f = Field(s, s.last_focus)
  if s.redraw && !empty(f)
    return f
  endif
  return line('.') <= len(s.model.fields) ? s.model.fields[line('.') - 1] : {}
enddef

# A key in Normal mode acts where the cursor is: keys typed ahead run without CursorMoved
# in between, so the caret follows the cursor first.
def Sync(s: dict<any>)
  if mode() ==# 'n'
    FollowCursor(s)
  endif
enddef

def Send(s: dict<any>, method: string, params: dict<any> = {}, count: number = 1)
  if Focus(s)
    for _ in range(count)
      Request(s, method, copy(params))
    endfor
  endif
enddef

# After a Normal-mode command its answers are drawn before the next key, so that a motion
# typed ahead moves from where the command left the cursor, as after Vim's own commands.
def Settle()
  var s = Current()
  if !empty(s) && mode() ==# 'n' && s.outstanding > 0
    Drain(s)
  endif
enddef

# A key that is one request (count times in Normal mode); in Insert mode Return, Tab and
# Shift-Tab are part of the insert.
def Key(method: string, params: dict<any> = {}, count: number = 1)
  var s = Current()
  if empty(s)
    return
  elseif mode() ==# 'n'
    Sync(s)
    Send(s, method, params, count)
  else
    InsertKey(s, {key: method})
  endif
enddef

# Insert-mode caret keys: formd's caret moves, and what is typed next is a new insert (as
# Vim's cursor keys start one).
def InsertMove(to: string)
  var s = Current()
  if !empty(s)
    Send(s, 'moveCaret', {to: to})
    s.ins = NewInsert('i', 1)
  endif
enddef

# u and CTRL-R: formd's undo and redo of the first responder, saying so when there is
# nothing to take back or make again (as Vim does).
def UndoRedo(method: string, count: number)
  var s = Current()
  if empty(s)
    return
  endif
  Sync(s)
  if !Focus(s)
    return
  endif
  for _ in range(count)
    Request(s, method, {}, (r) => {
      if r.applied == false && index(['nothingToUndo', 'nothingToRedo'], get(r, 'reason', '')) >= 0
        echo 'formd: ' .. (method == 'undo' ? 'nothing to undo' : 'nothing to redo')
      endif
    })
  endfor
enddef

# x, X, D, <BS>, <Del> in Normal mode (count times); <BS>, <Del>, CTRL-W, CTRL-U in Insert
# mode (where the count that started Insert mode is no count of theirs).
def Delete(direction: string, unit: string, count: number = 1)
  var s = Current()
  if empty(s)
    return
  elseif mode() ==# 'R' && direction == 'backward' && unit == 'character'
    ReplaceBack(s)
    return
  elseif mode() !=# 'n'
    InsertKey(s, {delete: direction, unit: unit})
    return
  endif
  Sync(s)
  DeleteAt(s, direction, unit, count)
  Did(s, (n) => Delete(direction, unit, n > 0 ? n : count))
enddef

# <BS> in Replace mode puts back the character the last one typed replaced (takes it out
# when it was typed past the end), as Vim does, and . forgets that one; with none left it
# moves left. A secure field's characters are not kept: there it deletes.
def ReplaceBack(s: dict<any>)
  if !Focus(s)
    return
  elseif Secure(Target(s)) || empty(s.ins)
    InsertKey(s, {delete: 'backward', unit: 'character'})
    return
  elseif empty(s.ins.replaced)
    Request(s, 'moveCaret', {to: 'left'})
    return
  endif
  var was = remove(s.ins.replaced, -1)
  if was == ''
    Request(s, 'delete', {direction: 'backward'})
  else
    Request(s, 'moveCaret', {to: 'left', extend: true}, null_function, true)
    Request(s, 'insertText', {text: was})
    Request(s, 'moveCaret', {to: 'left'}, null_function, true)
  endif
  var last = empty(s.ins.log) ? {} : s.ins.log[-1]
  if get(last, 'replace', false)
    last.text = strcharpart(last.text, 0, strchars(last.text) - 1)
    if last.text == ''
      remove(s.ins.log, -1)
    endif
  endif
enddef

# A delete at formd's caret. The characters it removes from a field that is not secure go
# to the unnamed register, as in Vim.
def DeleteAt(s: dict<any>, direction: string, unit: string, count: number)
  var f = Field(s, s.model.firstResponder)
  if !empty(f) && !Secure(f) && unit != 'word'
    var display = render.Display(f)
    var caret = Caret(f)
    var gone = direction == 'backward'
      ? strcharpart(strpart(display, 0, caret), max([strchars(strpart(display, 0, caret)) - count, 0]))
      : unit == 'line' ? strpart(display, caret) : strcharpart(strpart(display, caret), 0, count)
    if gone != ''
      setreg('"', gone)
    endif
  endif
  Send(s, 'delete', {direction: direction, unit: unit}, count)
enddef

# What . repeats: the plugin's last command (`Again`, given the count typed before ., 0 for
# none), or, when that is null_function, Vim's own . (a change Vim made, an operator).
def Did(s: dict<any>, Again: func(number))
  s.redo = Again
  s.no_redo = ''
enddef

# Text put into a secure field is not kept for . (as typing into it is not).
def DidUnlessSecure(s: dict<any>, Again: func(number))
  if Secure(Target(s))
    s.redo = null_function
    s.no_redo = '. does not repeat what was put into a secure field'
  else
    Did(s, Again)
  endif
enddef

# .: the last change again.
def Repeat()
  var s = Current()
  if empty(s)
    return
  elseif s.redo != null_function
    s.redo(v:count)
  elseif s.no_redo != ''
    echo 'formd: ' .. s.no_redo
  else
    exe 'normal! ' .. (v:count > 0 ? v:count : '') .. '.'
  endif
enddef

# A linewise command (dd D S cc C): a count would take in the fields below, and an edit
# spans one field at a time.
def OneLine(count: number): bool
  if count > 1
    Warn('an edit spans one field at a time')
  endif
  return count <= 1
enddef

# dd, S, cc: the field under the cursor emptied (S and cc then type there).
def ClearLine(count: number, change: bool)
  var s = Current()
  if !empty(s) && OneLine(count)
    ClearField()
    if change
      StartInsert(s, 'S', 1)
    endif
  endif
enddef

# D, C: deleted to the end of the field (C then types there).
def ToEnd(count: number, change: bool)
  var s = Current()
  if !empty(s) && OneLine(count)
    Delete('forward', 'line')
    if change
      StartInsert(s, 'C', 1)
    endif
  endif
enddef

# s: count characters deleted, then typing.
def Substitute(count: number)
  var s = Current()
  if !empty(s)
    Delete('forward', 'character', count)
    StartInsert(s, 's', count)
  endif
enddef

# Empties the field under the cursor (S, cc, dd).
def ClearField()
  var s = Current()
  if empty(s) || line('.') > len(s.model.fields)
    return
  endif
  Sync(s)
  var f = s.model.fields[line('.') - 1]
  var n = len(render.Display(f))
  if n > 0
    Yank(f, 0, n, 'l')
    Edit(s, f, 0, n, '')
  elseif !Focused(s, f.id)
    Request(s, 'demandFocus', {field: f.id, demand: 'become'})
  endif
  Did(s, (_) => ClearField())
enddef

# What a delete removes from a field that is not secure (bytes start..end of its display)
# goes to the unnamed register, as in Vim; `type` 'l' for a whole field (dd, S, cc, yy).
# A secure field's text reaches no register, revealed or not.
def Yank(f: dict<any>, start: number, end: number, type: string)
  if !Secure(f) && end > start
    setreg('"', strpart(render.Display(f), start, end - start), type)
  endif
enddef

# yy and Y: the field's text (not its label) to the unnamed register; a secure field's
# text is not Vim's to yank.
def YankLine()
  var s = Current()
  if empty(s) || line('.') > len(s.model.fields)
    return
  endif
  var f = s.model.fields[line('.') - 1]
  if Secure(f)
    Warn(render.Label(f) .. ': a secure field is not yanked')
  else
    Yank(f, 0, len(render.Display(f)), 'l')
  endif
enddef

# o O J gJ: the form's lines are formd's.
def NoLines(key: string)
  Warn(key .. ": a form's lines are its fields")
enddef

# Pasted text for a one-line field (as formd tui pastes it): without the line break that
# ends it (a linewise register), other line breaks and tabs as spaces.
def SingleLine(text: string): string
  return substitute(text, '[\r\n]\+$', '', '')->substitute('[\r\n\t]', ' ', 'g')
enddef

def RegisterText(name: string): string
  return SingleLine(getreg(name))
enddef

# Text put in at formd's caret in field `f` by one command (p, P, Insert-mode CTRL-R, a
# terminal's paste): `editAction paste`, or typed with `insertText` when `typed`. Into a
# one-time-code box (autoAdvance) it is typed a character at a time, so a whole code fills
# the boxes in turn (formd refuses it whole by maxLength and leaves splitting it to us).
def PutIn(s: dict<any>, f: dict<any>, text: string, typed: bool)
  if text == '' || !Focus(s)
    return
  endif
  if get(f, 'autoAdvance', false) == true
    for c in split(text, '\zs')
      Request(s, 'insertText', {text: c}, null_function, true) # (past the last box: no focus)
    endfor
  elseif typed
    Request(s, 'insertText', {text: text})
  else
    Request(s, 'editAction', {action: 'paste', text: text}, (r) => {
      if r.performed == false && r.reason == 'unsupported'
        Warn('this field takes no paste')
      endif
    })
  endif
enddef

# The field a key acts on: the first responder, else the one under the cursor.
def Target(s: dict<any>): dict<any>
  var f = Field(s, s.model.firstResponder)
  return !empty(f) || line('.') > len(s.model.fields) ? f : s.model.fields[line('.') - 1]
enddef

# p and P: `text` (the register's) pasted count times after / at the caret.
def Put(after: bool, count: number = v:count1, text: string = RegisterText(v:register))
  var s = Current()
  if empty(s)
    return
  endif
  Sync(s)
  var f = Field(s, s.model.firstResponder)
  if after && !empty(f) && Caret(f) < len(render.Display(f))
    Send(s, 'moveCaret', {to: 'right'})
  endif
  PutIn(s, Target(s), repeat(text, count), false)
  DidUnlessSecure(s, (n) => Put(after, n > 0 ? n : count, text))
enddef

# A terminal's (bracketed) paste: Vim would insert the text itself, past InsertCharPre, so
# that a pasted secret would enter the buffer and the ". register. Read up to its end and
# paste it at formd's caret (in Normal mode after the cursor, as Vim pastes there).
def TerminalPaste()
  var text = ''
  while true
    var c = getcharstr()
    if c == "\<PasteEnd>"
      break
    endif
    text ..= c
  endwhile
  if mode() ==# 'n'
    Put(true, 1, SingleLine(text))
  else
    var s = Current()
    if !empty(s)
      InsertKey(s, {put: SingleLine(text), typed: false})
    endif
  endif
enddef

# r{char}: the characters under the cursor replaced by {char}.
def ReplaceChar()
  var count = v:count1
  var c = getcharstr()
  if c != "\<Esc>" && c != "\<C-c>"
    ReplaceWith(c, count)
  endif
enddef

def ReplaceWith(c: string, count: number)
  var s = Current()
  if empty(s)
    return
  endif
  Sync(s)
  if count > strchars(strpart(getline('.'), col('.') - 1))
    return # fewer characters left than the count: nothing, as in Vim
  endif
  Send(s, 'moveCaret', {to: 'right', extend: true}, count)
  Send(s, 'insertText', {text: repeat(c, count)})
  Send(s, 'moveCaret', {to: 'left'}) # the cursor on the last character replaced, as in Vim
  DidUnlessSecure(s, (n) => ReplaceWith(c, n > 0 ? n : count))
enddef

# Insert-mode CTRL-R {register}.
def InsertRegister()
  var name = getcharstr()
  var s = Current()
  if !empty(s) && name =~ '^[-a-zA-Z0-9"*+.:%#/]$'
    InsertKey(s, {put: RegisterText(name), typed: true})
  endif
enddef

# Insert-mode CTRL-V {char} (the character itself; no codes).
def InsertLiteral()
  Type(getcharstr())
enddef

# Insert-mode CTRL-K {char1} {char2}.
def InsertDigraph()
  var a = getcharstr()
  var b = getcharstr()
  Type(digraph_get(a .. b))
enddef

def Type(text: string)
  var s = Current()
  if !empty(s) && text != ''
    InsertKey(s, {text: text, replace: mode() ==# 'R'})
  endif
enddef

# 0, ^ and <Home> in Normal mode: the start of the field's text (not of its label).
def TextStart()
  var s = Current()
  if !empty(s) && line('.') <= len(s.prefixes)
    cursor(line('.'), len(s.prefixes[line('.') - 1]) + 1)
    FollowCursor(s)
  endif
enddef

# Operators: d{motion} and c{motion} (and d, c, x, s in Visual mode) as a select of the
# range followed by delete.
var operator = ''

def Operator(kind: string): string
  var s = Current()
  if !empty(s)
    Did(s, null_function) # Vim's own . repeats g@
  endif
  operator = kind
  &operatorfunc = ApplyOperator
  return 'g@'
enddef

# cw on a word changes to its end, as Vim's own cw does.
def ChangeWord(): string
  var here = matchstr(getline('.'), '\%' .. col('.') .. 'c.')
  var next = matchstr(getline('.'), '\%' .. col('.') .. 'c.\zs.')
  var motion = here =~ '\s' || here == '' ? 'w' : (next =~ '\s' || next == '' ? 'l' : 'e')
  return Operator('change') .. motion
enddef

def ApplyOperator(type: string)
  var s = Current()
  if empty(s)
    return
  endif
  var [_, l1, c1, _] = getpos("'[")
  var [_, l2, c2, _] = getpos("']")
  if l1 != l2 || l1 > len(s.model.fields)
    Warn('an edit spans one field at a time')
    return
  endif
  if type == 'line'
    ClearField()
  else
    var f = s.model.fields[l1 - 1]
    var plen = len(s.prefixes[l1 - 1])
    var n = len(render.Display(f))
    var last = matchstr(getline(l2), '\%' .. c2 .. 'c.')
    var start = min([max([c1 - 1 - plen, 0]), n])
    var end = min([max([c2 - 1 + len(last) - plen, 0]), n])
    if end > start
      Yank(f, start, end, 'c')
      Edit(s, f, start, end, '')
    endif
  endif
  if operator != 'change'
    Settle()
  elseif !empty(s.replay)
    Typed(s, s.replay) # . of a c{motion}: what was typed, without Insert mode
  else
    StartInsert(s, 'c', 1)
  endif
enddef

# ------------------------------------------------------------------------------------------
# Buffer set-up

def MapKeys()
  # Return, Tab and Shift-Tab as in a form; u and CTRL-R are formd's undo and redo.
  for [key, method] in [['<CR>', 'pressReturn'], ['<Tab>', 'focusNext'], ['<S-Tab>', 'focusPrevious']]
    exe printf("nnoremap <buffer> <silent> <nowait> %s <ScriptCmd>Key('%s', {}, v:count1)<Bar>Settle()<CR>", key, method)
    exe printf("inoremap <buffer> <silent> <nowait> %s <ScriptCmd>Key('%s')<CR>", key, method)
  endfor
  nnoremap <buffer> <silent> <nowait> u <ScriptCmd>UndoRedo('undo', v:count1)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> <C-r> <ScriptCmd>UndoRedo('redo', v:count1)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> U <Nop>
  nnoremap <buffer> <silent> <nowait> . <ScriptCmd>Repeat()<Bar>Settle()<CR>
  for key in ['0', '^', '<Home>']
    exe 'nnoremap <buffer> <silent> <nowait> ' .. key .. ' <ScriptCmd>TextStart()<CR>'
  endfor
  # Into Insert mode: noted for . and the count, then Vim's own command.
  for key in ['i', 'a', 'A', 'I', 'R']
    exe printf("nnoremap <buffer> <silent> <nowait> <expr> %s <SID>Entering('%s')", key, key)
  endfor
  # Deletes.
  nnoremap <buffer> <silent> <nowait> x <ScriptCmd>Delete('forward', 'character', v:count1)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> <Del> <ScriptCmd>Delete('forward', 'character', v:count1)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> X <ScriptCmd>Delete('backward', 'character', v:count1)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> <BS> <ScriptCmd>Delete('backward', 'character', v:count1)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> D <ScriptCmd>ToEnd(v:count1, false)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <expr> d <SID>Operator('delete')
  nnoremap <buffer> <silent> dd <ScriptCmd>ClearLine(v:count1, false)<Bar>Settle()<CR>
  xnoremap <buffer> <silent> <expr> d <SID>Operator('delete')
  xnoremap <buffer> <silent> <expr> x <SID>Operator('delete')
  xnoremap <buffer> <silent> <expr> <Del> <SID>Operator('delete')
  # Changes: delete, then Insert mode.
  nnoremap <buffer> <silent> <nowait> s <ScriptCmd>Substitute(v:count1)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> S <ScriptCmd>ClearLine(v:count1, true)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> C <ScriptCmd>ToEnd(v:count1, true)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <expr> c <SID>Operator('change')
  nnoremap <buffer> <silent> <expr> cw <SID>ChangeWord()
  nnoremap <buffer> <silent> <expr> cW <SID>ChangeWord()
  nnoremap <buffer> <silent> cc <ScriptCmd>ClearLine(v:count1, true)<Bar>Settle()<CR>
  xnoremap <buffer> <silent> <expr> c <SID>Operator('change')
  xnoremap <buffer> <silent> <expr> s <SID>Operator('change')
  nnoremap <buffer> <silent> <nowait> r <ScriptCmd>ReplaceChar()<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> p <ScriptCmd>Put(true)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> <nowait> P <ScriptCmd>Put(false)<Bar>Settle()<CR>
  nnoremap <buffer> <silent> yy <ScriptCmd>YankLine()<CR>
  nnoremap <buffer> <silent> <nowait> Y <ScriptCmd>YankLine()<CR>
  nnoremap <buffer> <silent> <nowait> <PasteStart> <ScriptCmd>TerminalPaste()<Bar>Settle()<CR>
  inoremap <buffer> <silent> <nowait> <PasteStart> <ScriptCmd>TerminalPaste()<CR>
  # The form's lines are formd's: no new lines, no joins.
  for key in ['o', 'O', 'J', 'gJ']
    exe printf("nnoremap <buffer> <silent> <nowait> %s <ScriptCmd>NoLines('%s')<CR>", key, key)
  endfor
  # Insert mode: deletes, caret motion and inserted registers go to formd.
  inoremap <buffer> <silent> <nowait> <BS> <ScriptCmd>Delete('backward', 'character')<CR>
  inoremap <buffer> <silent> <nowait> <C-h> <ScriptCmd>Delete('backward', 'character')<CR>
  inoremap <buffer> <silent> <nowait> <Del> <ScriptCmd>Delete('forward', 'character')<CR>
  inoremap <buffer> <silent> <nowait> <C-w> <ScriptCmd>Delete('backward', 'word')<CR>
  inoremap <buffer> <silent> <nowait> <C-u> <ScriptCmd>Delete('backward', 'line')<CR>
  for [key, to] in [['<Left>', 'left'], ['<Right>', 'right'], ['<S-Left>', 'wordLeft'], ['<S-Right>', 'wordRight'],
      ['<C-Left>', 'wordLeft'], ['<C-Right>', 'wordRight'], ['<Home>', 'start'], ['<End>', 'end']]
    exe printf("inoremap <buffer> <silent> <nowait> %s <ScriptCmd>InsertMove('%s')<CR>", key, to)
  endfor
  inoremap <buffer> <silent> <nowait> <C-r> <ScriptCmd>InsertRegister()<CR>
  inoremap <buffer> <silent> <nowait> <C-v> <ScriptCmd>InsertLiteral()<CR>
  inoremap <buffer> <silent> <nowait> <C-q> <ScriptCmd>InsertLiteral()<CR>
  inoremap <buffer> <silent> <nowait> <C-k> <ScriptCmd>InsertDigraph()<CR>
enddef

def SetBufferOptions(buf: number)
  # Nothing of the form is written anywhere: no file, no swap file, no undo history or
  # undo file (u and CTRL-R are formd's), no modelines.
  for [name, value] in items({buftype: 'nofile', bufhidden: 'wipe', swapfile: false,
      undolevels: -1, undofile: false, modeline: false, buflisted: true})
    setbufvar(buf, '&' .. name, value)
  endfor
enddef

def SetWindowOptions()
  setlocal signcolumn=yes nowrap nospell nolist nofoldenable virtualedit=onemore
enddef

def Autocmds(s: dict<any>)
  var group = 'formd_' .. s.buf
  exe 'augroup ' .. group
  autocmd!
  exe printf('autocmd CursorMoved <buffer=%d> CursorMoved(false)', s.buf)
  exe printf('autocmd CursorMovedI <buffer=%d> CursorMoved(true)', s.buf)
  exe printf('autocmd InsertEnter <buffer=%d> InsertEnter()', s.buf)
  exe printf('autocmd InsertLeave <buffer=%d> InsertLeave()', s.buf)
  exe printf('autocmd InsertCharPre <buffer=%d> InsertCharPre()', s.buf)
  exe printf('autocmd TextChanged,TextChangedI,TextChangedP <buffer=%d> TextChanged()', s.buf)
  exe printf('autocmd BufWinEnter <buffer=%d> SetWindowOptions()', s.buf)
  exe printf('autocmd BufWipeout <buffer=%d> Wiped(%d)', s.buf, s.buf)
  augroup END
enddef

def Wiped(buf: number)
  if has_key(sessions, buf)
    Close(sessions[buf], 'wiped')
  endif
enddef

def UniqueName(base: string): string
  var name = base
  var n = 1
  while bufexists(name)
    n += 1
    name = printf('%s (%d)', base, n)
  endwhile
  return name
enddef

# ------------------------------------------------------------------------------------------
# Opening and closing

# Starts `cmd` (formd, or `formd attach`) with its channel in "lsp" mode, shows form `form`
# in a new buffer and returns the buffer number (0 on failure, with a message).
def Start(cmd: list<string>, form: string, name: string, attached: bool, opts: dict<any>): number
  if !executable(cmd[0])
    Error(printf('cannot start %s: not an executable (set g:formd_bin or $FORMD_BIN)', cmd[0]))
    return 0
  endif
  render.Setup()
  var s: dict<any> = {buf: 0, form: form, attached: attached, opts: opts, name: name,
    model: {fields: [], firstResponder: v:null, seq: 0}, prefixes: [], lines: [],
    show_errors: {}, outstanding: 0, stderr: [], ready: false, closed: false,
    finishing: false, resyncing: false, place_cursor: false, placed: [0, 0], placements: 0, visual: false,
    moving: 0, redo: null_function, no_redo: '', entry: {}, ins: {}, replay: {}, refusing: '', last_focus: v:null,
    held: false, redraw: false}
  var job = job_start(cmd, {
    in_mode: 'lsp', out_mode: 'lsp', err_mode: 'nl', noblock: true,
    callback: (_, msg) => OnMessage(s, msg),
    err_cb: (_, line) => {
      s.stderr = (s.stderr + [line])[-5 :]
    },
    exit_cb: (_, status) => Exited(s, status),
  })
  if job_status(job) == 'fail'
    Error('cannot start ' .. join(cmd))
    return 0
  endif
  s.job = job
  s.ch = job_getchannel(job)
  var timeout = Option(opts, 'timeout')
  var init = ch_evalexpr(s.ch, {method: 'initialize', params: {
    clientInfo: {name: 'formd.vim', version: VERSION}, positionEncoding: 'utf-8'}}, {timeout: timeout})
  var state = empty(init) || has_key(init, 'error') ? {} :
    ch_evalexpr(s.ch, {method: 'getState', params: {form: form}}, {timeout: timeout})
  if empty(state) || has_key(state, 'error')
    s.closed = true # (no form to close when it exits)
    var why = empty(state) ? Failure(s) : state.error.message
    Error(printf('cannot open %s: %s', name, why))
    job_stop(job)
    return 0
  endif

  var buf = bufadd(UniqueName('formd://' .. name))
  s.buf = buf
  SetBufferOptions(buf)
  bufload(buf)
  sessions[buf] = s
  var mods = Option(opts, 'mods')
  if mods != ''
    exe mods .. ' sbuffer ' .. buf
  elseif &modified && !&hidden
    exe 'sbuffer ' .. buf
  else
    exe 'buffer ' .. buf
  endif
  SetWindowOptions()
  Autocmds(s)
  MapKeys()
  command! -buffer -bar FormdSubmit Submit()
  command! -buffer -bar FormdClose CloseCurrent()
  setlocal filetype=formd

  Snapshot(s, state.result)
  s.ready = true
  if Option(opts, 'autofocus') && IsNull(s.model.firstResponder)
    Request(s, 'focusNext')
  endif
  Draw(s)
  return buf
enddef

# Why a formd that did not answer failed: the last line it wrote on stderr, once that is
# read (waiting at most a second for it to end).
def Failure(s: dict<any>): string
  var start = reltime()
  while (job_status(s.job) == 'run' || ch_status(s.ch, {part: 'err'}) == 'open')
      && reltimefloat(reltime(start)) < 1.0
    sleep 10m
  endwhile
  return empty(s.stderr) ? 'no answer' : Said(s)
enddef

# The last line formd wrote on stderr, without its "formd: ".
def Said(s: dict<any>): string
  return substitute(get(s.stderr, -1, ''), '^formd: ', '', '')
enddef

# :Formd FORM.json: the form file in a private formd, shut down when the buffer goes.
export def Open(path: string, opts: dict<any> = {}): number
  var full = fnamemodify(expand(path), ':p')
  if path == '' || !filereadable(full)
    Error(path == '' ? 'usage: :Formd FORM.json' : 'cannot read ' .. path)
    return 0
  endif
  return Start([Bin(opts), '--form', full], 'default', full, false, opts)
enddef

# :FormdAttach SOCKET [FORM]: a form of a running `formd --listen SOCKET` (through
# `formd attach`), left running when the buffer goes.
export def Attach(socket: string, form: string = 'default', opts: dict<any> = {}): number
  var full = fnamemodify(expand(socket), ':p')
  if socket == ''
    Error('usage: :FormdAttach SOCKET [FORM]')
    return 0
  endif
  return Start([Bin(opts), 'attach', full], form, full .. (form == 'default' ? '' : '#' .. form), true, opts)
enddef

export def AttachCommand(mods: string, ...args: list<string>)
  if len(args) > 2
    Error('usage: :FormdAttach SOCKET [FORM]')
    return
  endif
  Attach(args[0], get(args, 1, 'default'), {mods: mods})
enddef

def Submit()
  var s = Current()
  if !empty(s)
    Request(s, 'submit')
  endif
enddef

def CloseCurrent()
  var s = Current()
  if !empty(s)
    Close(s, 'closed')
  endif
enddef

# The form was submitted (here or by another client): hand over the values and close.
def Finish(s: dict<any>, values: dict<any>, withheld: list<any>)
  if s.finishing
    return
  endif
  s.finishing = true
  var OnSubmit = Option(s.opts, 'on_submit')
  var all = copy(values)
  var left = copy(withheld)
  if OnSubmit != null_function && Option(s.opts, 'include_secrets') && !empty(withheld)
    var state = ch_evalexpr(s.ch, {method: 'getState', params: {form: s.form, includeSecrets: true}},
      {timeout: Option(s.opts, 'timeout')})
    for f in get(get(state, 'result', {}), 'fields', [])
      if index(withheld, f.id) >= 0 && has_key(f, 'text')
        all[f.id] = f.text
        left->remove(index(left, f.id))
      endif
    endfor
  endif
  g:formd_last_submit = {form: s.form, values: values, withheld: withheld}
  var shown = s.model.fields->copy()->filter((_, f) => has_key(values, f.id))
    ->mapnew((_, f) => f.id .. '=' .. values[f.id])
  var message = 'formd: submitted ' .. join(shown, ' ') .. (empty(withheld) ? '' : ' (withheld: ' .. join(withheld, ', ') .. ')')
  Close(s, 'submitted')
  # The rest runs after the redraw that follows closing the buffer, which would wipe out
  # any message shown before it.
  timer_start(0, (_) => {
    if OnSubmit != null_function
      try
        OnSubmit(all, {form: s.form, withheld: left})
      catch
        Error('g:Formd_on_submit failed: ' .. v:exception)
      endtry
    else
      echomsg message
      # Vim cuts a callback's message to the room the ruler and showcmd leave; the values
      # are what it is there for, so they are shown whole above the command line too.
      if strdisplaywidth(message) > v:echospace && exists(':echowindow') == 2
        exe 'echowindow ' .. string(message) # (:echowindow came in 9.0.0321)
      endif
    endif
    if exists('#User#FormdSubmitted')
      doautocmd <nomodeline> User FormdSubmitted
    endif
  })
enddef

# Closes the form: the buffer goes; a private formd ends with its input, an attached one
# stays (only the `formd attach` bridge ends). `reason` goes to on_cancel unless submitted.
def Close(s: dict<any>, reason: string)
  if s.closed
    return
  endif
  s.closed = true
  remove(sessions, s.buf)
  if s.held
    # Inside InsertCharPre the buffer may not change: the rest once that is over.
    timer_start(0, (_) => Dispose(s, reason))
  else
    Dispose(s, reason)
  endif
enddef

# What closing does to Vim: out of Insert mode, the buffer wiped, the job's input closed,
# on_cancel called.
def Dispose(s: dict<any>, reason: string)
  if bufnr() == s.buf && mode() =~ '^[iR]'
    stopinsert
  endif
  exe 'silent! augroup! formd_' .. s.buf
  if reason != 'wiped' && bufexists(s.buf)
    exe 'silent! bwipeout! ' .. s.buf
  endif
  if ch_status(s.ch) == 'open'
    ch_close_in(s.ch)
  endif
  timer_start(3000, (_) => {
    if job_status(s.job) == 'run'
      job_stop(s.job)
    endif
  })
  var OnCancel = Option(s.opts, 'on_cancel')
  if reason != 'submitted' && OnCancel != null_function
    try
      OnCancel(reason)
    catch
      Error('g:Formd_on_cancel failed: ' .. v:exception)
    endtry
  endif
enddef

def Exited(s: dict<any>, status: number)
  if s.closed
    return
  endif
  var why = empty(s.stderr) ? '' : ': ' .. Said(s)
  Close(s, 'exited')
  Later(Error, s.attached ? printf('the connection to %s ended%s', s.name, why)
    : printf('formd exited (status %d)%s', status, why))
enddef

# ------------------------------------------------------------------------------------------
# The API (for scripts and tests): the session of a buffer (0: the current one).

def SessionOf(buf: number): dict<any>
  var s = get(sessions, buf == 0 ? bufnr() : buf, {})
  if empty(s)
    throw 'formd: no form in buffer ' .. buf
  endif
  return s
enddef

# Sends any protocol method to the form in `buf` (`form` is filled in); OnResult gets the
# result. The buffer redraws from the events.
export def Call(buf: number, method: string, params: dict<any> = {}, OnResult: func(any) = null_function)
  Request(SessionOf(buf), method, params, OnResult)
enddef

# The form's state as formd has it (waits for the answer).
export def GetState(buf: number = 0, include_secrets: bool = false): dict<any>
  var s = SessionOf(buf)
  var r = ch_evalexpr(s.ch, {method: 'getState', params: {form: s.form, includeSecrets: include_secrets}},
    {timeout: Option(s.opts, 'timeout')})
  return get(r, 'result', {})
enddef

# What the plugin knows of the form: {form, firstResponder, seq, fields}.
export def Model(buf: number = 0): dict<any>
  var s = SessionOf(buf)
  return deepcopy(extend({form: s.form, attached: s.attached}, s.model))
enddef

# Requests not answered yet.
export def Outstanding(buf: number = 0): number
  return SessionOf(buf).outstanding
enddef

# The line with the first-responder sign (0: none).
export def MarkedLine(buf: number = 0): number
  return render.MarkedLine(SessionOf(buf).buf)
enddef

export def CloseForm(buf: number = 0)
  Close(SessionOf(buf), 'closed')
enddef

# The buffers showing a form.
export def Buffers(): list<number>
  return keys(sessions)->mapnew((_, b) => str2nr(b))
enddef
