vim9script
# Headless tests of the Vim plugin through its API (formd#Open, formd#Attach, formd#Call,
# formd#GetState, ...) against the real formd: run by ../test as
#   vim -Nu NONE -i NONE -n -es --cmd 'set rtp^=clients/vim' -S clients/vim/tests/headless.vim
# with $FORMD_BIN and $FORMD_VIM_RESULTS (where the "ok"/"not ok" lines go) set.

import autoload 'formd.vim'
import autoload 'formd/render.vim'

const ROOT = getcwd()
var results: list<string> = []
var passed = 0
var failed = 0

def Check(name: string, ok: bool, detail: any = '')
  if ok
    passed += 1
    results->add('ok - ' .. name)
  else
    failed += 1
    results->add('not ok - ' .. name)
    results->add('    | ' .. (type(detail) == v:t_string ? detail : string(detail)))
  endif
enddef

# Waits (letting channel callbacks run) until Cond() holds.
def WaitFor(Cond: func(): bool, ms: number = 5000): bool
  var left = ms
  while left > 0
    if Cond()
      return true
    endif
    sleep 10m
    left -= 10
  endwhile
  return Cond()
enddef

def Lines(): list<string>
  return getline(1, '$')
enddef

# The types of a line's virtual texts (prop_list() does not give their text in Vim 9.0;
# keys.py reads them off the screen).
def Virtual(lnum: number): list<string>
  return prop_list(lnum)->filter((_, p) => p.id < 0)->mapnew((_, p) => p.type)
enddef

def Settle(buf: number)
  WaitFor(() => formd.Outstanding(buf) == 0)
enddef

# ------------------------------------------------------------------------------------------

def TestOpenAndType()
  var buf = formd.Open('examples/login.json')
  Check('open: a buffer', buf > 0 && bufnr() == buf, buf)
  Check('open: one line per field, labels padded',
    WaitFor(() => Lines() == ['Email:    ', 'Password: ']), Lines())
  Check('open: the first field takes focus and is marked', WaitFor(() => formd.MarkedLine() == 1), formd.Model())
  Check('open: placeholders are virtual text', Virtual(1) == ['formd_placeholder']
    && Virtual(2) == ['formd_placeholder'], [Virtual(1), Virtual(2)])
  Check('open: nothing of it is kept on disk', &l:buftype == 'nofile' && !&l:swapfile
    && &l:undolevels == -1 && !&l:undofile, [&l:buftype, &l:swapfile, &l:undolevels, &l:undofile])
  formd.Call(buf, 'insertText', {text: 'ada@exämple.com'})
  Check('type: the text is drawn', WaitFor(() => getline(1) == 'Email:    ada@exämple.com'), Lines())
  Check('type: the cursor is at formd''s caret', col('.') == len('Email:    ada@exämple.com') + 1, col('.'))
  Check('type: the placeholder is gone', Virtual(1) == [], Virtual(1))
  formd.Call(buf, 'moveCaret', {to: 'wordLeft'})
  Check('type: the cursor follows a caret move (bytes, not characters)',
    WaitFor(() => col('.') == len('Email:    ada@exämple.') + 1), col('.'))
  formd.Call(buf, 'pressReturn')
  Check('return: the marker moves to the password', WaitFor(() => formd.MarkedLine() == 2), formd.Model())
  formd.Call(buf, 'insertText', {text: 's3cr3t-pw'})
  Check('secure: the buffer shows bullets only', WaitFor(() => getline(2) == 'Password: ' .. repeat('•', 9)), Lines())
  Check('secure: formd holds the text', formd.GetState(buf, true).fields[1].text == 's3cr3t-pw')
  Check('secure: the plugin''s model does not', stridx(string(formd.Model()), 's3cr3t') < 0, formd.Model())
  formd.CloseForm(buf)
  Check('close: the buffer is gone', !bufexists(buf))
enddef

def TestDecorations()
  var buf = formd.Open('examples/login.json')
  WaitFor(() => formd.MarkedLine() == 1)
  formd.Call(buf, 'insertText', {text: 'nope'})
  formd.Call(buf, 'submit')
  Check('errors: a failed submit shows the invalid fields'' messages',
    WaitFor(() => index(Virtual(1), 'formd_error') >= 0 && index(Virtual(2), 'formd_error') >= 0),
    [Virtual(1), Virtual(2)])
  formd.Call(buf, 'setEnabled', {field: 'password', enabled: false})
  Check('disabled: "(disabled)" is virtual text', WaitFor(() => index(Virtual(2), 'formd_disabled') >= 0), Virtual(2))
  formd.Call(buf, 'demandFocus', {field: 'password', demand: 'become'})
  Check('pending: a pending demand shows', WaitFor(() => index(Virtual(2), 'formd_pending') >= 0), Virtual(2))
  formd.Call(buf, 'setEnabled', {field: 'password', enabled: true})
  Check('pending: fulfilled once enabled', WaitFor(() => formd.MarkedLine() == 2 && index(Virtual(2), 'formd_pending') < 0),
    [formd.MarkedLine(), Virtual(2)])
  Check('errors: {rule, message} objects show their message, strings themselves',
    render.Messages([{rule: 'tooShort', message: 'must be at least 8 characters'}, 'is required'])
      == ['must be at least 8 characters', 'is required'])
  formd.CloseForm(buf)
enddef

# Changes Vim makes to the buffer without a mapping of the plugin (here a setline, as a
# command or a completion would) are sent as select + insertText/delete and put back.
def TestNativeChanges()
  var buf = formd.Open('examples/login.json')
  WaitFor(() => formd.MarkedLine() == 1)
  formd.Call(buf, 'insertText', {text: 'abc'})
  WaitFor(() => getline(1) == 'Email:    abc')
  setline(1, 'Email:    aXYc')
  doautocmd TextChanged
  Check('native change: sent as an edit', WaitFor(() => formd.GetState(buf).fields[0].text == 'aXYc'),
    formd.GetState(buf).fields[0])
  setline(1, 'Email:    ac')
  doautocmd TextChanged
  Check('native delete: sent as a delete', WaitFor(() => formd.GetState(buf).fields[0].text == 'ac'),
    formd.GetState(buf).fields[0])
  setline(1, 'Mail: ac')
  doautocmd TextChanged
  Check('a label edit is put back', WaitFor(() => getline(1) == 'Email:    ac') && formd.GetState(buf).fields[0].text == 'ac', Lines())
  append(1, 'extra')
  doautocmd TextChanged
  Check('an added line is taken out', WaitFor(() => Lines() == ['Email:    ac', 'Password: ']), Lines())
  formd.Call(buf, 'insertText', {field: 'password', text: 'pw'})
  WaitFor(() => getline(2) == 'Password: ••')
  setline(2, 'Password: •••')
  doautocmd TextChanged
  Settle(buf)
  Check('bullets put into a masked field are refused', getline(2) == 'Password: ••'
    && formd.GetState(buf, true).fields[1].text == 'pw', [Lines(), formd.GetState(buf, true).fields[1]])
  formd.CloseForm(buf)
enddef

def TestSubmit()
  # With a callback asking for secrets: the values, the password included.
  var got: list<any> = []
  g:Formd_on_submit = (values, info) => {
    got = [values, info]
  }
  var buf = formd.Open('examples/login.json', {include_secrets: true})
  WaitFor(() => formd.MarkedLine() == 1)
  formd.Call(buf, 'insertText', {text: 'ada@example.com'})
  formd.Call(buf, 'pressReturn')
  formd.Call(buf, 'insertText', {text: 'correct horse'})
  formd.Call(buf, 'pressReturn')
  Check('on_submit: called with every value', WaitFor(() => !empty(got))
    && got[0] == {email: 'ada@example.com', password: 'correct horse'} && got[1] == {form: 'default', withheld: []}, got)
  Check('on_submit: the buffer is closed', !bufexists(buf))
  unlet g:Formd_on_submit

  # Without one: a message without secrets, g:formd_last_submit and User FormdSubmitted.
  g:fired = 0
  unlet g:formd_last_submit
  autocmd User FormdSubmitted g:fired += 1
  messages clear
  buf = formd.Open('examples/login.json')
  WaitFor(() => formd.MarkedLine() == 1)
  formd.Call(buf, 'insertText', {text: 'bo@example.com'})
  formd.Call(buf, 'pressReturn')
  formd.Call(buf, 'insertText', {text: 'battery staple'})
  formd.Call(buf, 'pressReturn')
  Check('no callback: g:formd_last_submit', WaitFor(() => exists('g:formd_last_submit'))
    && g:formd_last_submit == {form: 'default', values: {email: 'bo@example.com'}, withheld: ['password']},
    get(g:, 'formd_last_submit', {}))
  Check('no callback: User FormdSubmitted', WaitFor(() => g:fired == 1), g:fired)
  Check('no callback: a message with the values, without the secret',
    WaitFor(() => execute('messages') =~ "formd: submitted email=bo@example.com (withheld: password)")
    && execute('messages') !~ 'battery', execute('messages'))
  autocmd! User FormdSubmitted
enddef

def TestAttach()
  var dir = tempname()
  mkdir(dir, 'p', 0o700)
  var sock = dir .. '/formd.sock'
  var daemon = job_start([$FORMD_BIN, '--listen', sock, '--form', ROOT .. '/examples/login.json'], {in_io: 'null', out_io: 'null', err_io: 'null'})
  Check('attach: the daemon listens', WaitFor(() => getftype(sock) == 'socket'), job_status(daemon))
  # Another client: `formd attach` speaking NDJSON.
  var lines: list<string> = []
  var other = job_start([$FORMD_BIN, 'attach', sock], {mode: 'nl', callback: (_, l) => {
    lines->add(l)
  }})
  ch_sendraw(other, '{"id":1,"method":"setText","params":{"field":"email","text":"from the script"}}' .. "\n")
  WaitFor(() => len(lines) > 0)

  var buf = formd.Attach(sock)
  Check('attach: the shared form is shown', buf > 0 && WaitFor(() => getline(1) == 'Email:    from the script'), Lines())
  formd.Call(buf, 'insertText', {text: '!'})
  Check('attach: edits reach the other client', WaitFor(() => lines->join() =~ '"text":"from the script!"'), lines)
  ch_sendraw(other, '{"id":2,"method":"setText","params":{"field":"email","text":"edited elsewhere"}}' .. "\n")
  Check('attach: another client''s edit appears', WaitFor(() => getline(1) == 'Email:    edited elsewhere'), Lines())
  var cancelled: list<string> = []
  g:Formd_on_cancel = (reason) => {
    cancelled->add(reason)
  }
  formd.CloseForm(buf)
  unlet g:Formd_on_cancel
  Check('attach: on_cancel hears of the close', cancelled == ['closed'], cancelled)
  var n = len(lines)
  ch_sendraw(other, '{"id":3,"method":"getState"}' .. "\n")
  Check('attach: closing leaves the daemon running', WaitFor(() => lines[n :]->join() =~ '"id":3,"result"'), lines[n :])

  ch_sendraw(other, '{"id":4,"method":"defineForm","params":{"form":"pin","fields":[{"id":"pin","label":"PIN","secure":true}]}}' .. "\n")
  WaitFor(() => lines->join() =~ '"id":4')
  buf = formd.Attach(sock, 'pin')
  Check('attach: a named form', buf > 0 && WaitFor(() => Lines() == ['PIN: '] && formd.MarkedLine() == 1), Lines())
  formd.Call(buf, 'insertText', {text: '4711'})
  Check('attach: typing into the named form', WaitFor(() => getline(1) == 'PIN: ••••'), Lines())
  formd.CloseForm(buf)
  messages clear
  Check('attach: an unknown form is refused', formd.Attach(sock, 'nope') == 0 && execute('messages') =~ 'cannot open', execute('messages'))
  var reasons: list<string> = []
  buf = formd.Attach(sock, 'default', {on_cancel: (reason) => {
    reasons->add(reason)
  }})
  ch_sendraw(other, '{"id":5,"method":"shutdown"}' .. "\n")
  Check('attach: the daemon shutting down closes the form', WaitFor(() => !bufexists(buf)) && reasons == ['exited'], reasons)
  job_stop(other)
  job_stop(daemon)
  WaitFor(() => job_status(daemon) != 'run')
  delete(dir, 'rf')
enddef

def TestErrors()
  messages clear
  Check('a missing form file is refused', formd.Open('no/such.json') == 0 && execute('messages') =~ 'cannot read', execute('messages'))
  var bad = tempname()
  writefile(['{"fields": [{"id": ""}]}'], bad)
  Check('a bad form file is refused with formd''s message', formd.Open(bad) == 0
    && execute('messages') =~ 'cannot open .*: bad form file', execute('messages'))
  Check('a missing executable is refused', formd.Open('examples/login.json', {bin: '/no/formd'}) == 0
    && execute('messages') =~ 'not an executable', execute('messages'))
  messages clear
  Check('a socket nobody listens on is refused with formd''s message', formd.Attach(tempname()) == 0
    && execute('messages') =~ 'cannot open .*: no formd is listening on ', execute('messages'))
  Check('no form is left open', formd.Buffers() == [], formd.Buffers())
enddef

for T in [TestOpenAndType, TestDecorations, TestNativeChanges, TestSubmit, TestAttach, TestErrors]
  try
    T()
  catch
    Check(string(T), false, v:exception .. ' at ' .. v:throwpoint)
  endtry
endfor
results->add(printf('%d passed, %d failed', passed, failed))
writefile(results, $FORMD_VIM_RESULTS)
qa!
