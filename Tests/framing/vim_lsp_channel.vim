" Vim's own JSON-RPC channel in "lsp" mode (job_start with in_mode/out_mode "lsp",
" ch_evalexpr) driving the real formd: a login form's requests and results, events
" reaching the channel callback, an error with its code, multi-byte text. Run by
" Tests/framing/run, which prints the lines it writes to $FRAMING_RESULTS (Vim opening
" /dev/stdout would truncate a log that stdout is redirected to):
"   FORMD_BIN=... FRAMING_RESULTS=FILE vim -u NONE -N -n -es -S Tests/framing/vim_lsp_channel.vim
set encoding=utf-8
scriptencoding utf-8

let s:checks = 0
let s:failures = []
let s:events = []
let s:exit = -1

function s:Check(ok, what) abort
  let s:checks += 1
  if !a:ok
    call add(s:failures, 'FAIL: ' . a:what)
  endif
endfunction

function s:OnMessage(channel, message) abort
  call add(s:events, a:message)
endfunction

function s:OnExit(job, status) abort
  let s:exit = a:status
endfunction

let s:job = job_start([$FORMD_BIN], #{in_mode: 'lsp', out_mode: 'lsp', err_mode: 'nl',
      \ out_cb: function('s:OnMessage'), err_cb: {ch, line -> 0}, exit_cb: function('s:OnExit')})
let s:ch = job_getchannel(s:job)

function s:Request(method, params) abort
  return ch_evalexpr(s:ch, #{method: a:method, params: a:params}, #{timeout: 5000})
endfunction

let s:text = 'héllo wörld 👍🏽'
let s:init = s:Request('initialize', #{clientInfo: #{name: 'vim'}})
call s:Check(get(get(s:init, 'result', {}), 'framing', '') ==# 'contentLength', 'initialize: ' . string(s:init))
call s:Request('defineForm', #{fields: [#{id: 'user', required: v:true}, #{id: 'password', secure: v:true}]})
let s:focus = s:Request('demandFocus', #{field: 'user', demand: 'become'})
call s:Check(get(get(s:focus, 'result', {}), 'outcome', '') ==# 'fulfilled', 'demandFocus: ' . string(s:focus))
let s:typed = s:Request('insertText', #{text: s:text})
call s:Check(get(get(s:typed, 'result', {}), 'applied', v:false) is v:true, 'insertText: ' . string(s:typed))
" An error with its code: a field that does not exist.
let s:refused = s:Request('setText', #{field: 'nobody', text: 'x'})
call s:Check(get(get(s:refused, 'error', {}), 'code', 0) == -32001, 'unknown field: ' . string(s:refused))
call s:Request('initialize', #{positionEncoding: 'utf-8'})
let s:state = s:Request('getState', {})
let s:user = get(get(s:state, 'result', {}), 'fields', [{}])[0]
call s:Check(get(s:user, 'text', '') ==# s:text && get(s:user, 'length', 0) == 13
      \ && get(get(s:user, 'selection', {}), 'start', 0) == 22, 'getState user: ' . string(s:user))

" The events reached the channel callback, in order, the text intact.
for _ in range(100)
  if len(s:events) >= 6 | break | endif
  sleep 10m
endfor
let s:names = map(copy(s:events), {_, e -> get(e, 'method', '')})
call s:Check(get(s:names, 0, '') ==# 'formDefined', 'first event: ' . string(s:names))
call s:Check(index(s:names, 'responderChanged') >= 0, 'responderChanged arrived: ' . string(s:names))
let s:changed = filter(copy(s:events), {_, e -> get(e, 'method', '') ==# 'textChanged'})
call s:Check(len(s:changed) == 1 && s:changed[0].params.text ==# s:text && s:changed[0].params.length == 13,
      \ 'textChanged: ' . string(s:changed))

" A failed notification comes back as an `error` notification.
let s:before = len(s:events)
call ch_sendexpr(s:ch, #{method: 'setText', params: #{field: 'nobody', text: 'x'}})
for _ in range(500)
  if len(s:events) > s:before | break | endif
  sleep 10m
endfor
let s:last = get(s:events, -1, {})
call s:Check(get(s:last, 'method', '') ==# 'error' && s:last.params.code == -32001, 'error notification: ' . string(s:last))

let s:bye = s:Request('shutdown', {})
call s:Check(has_key(s:bye, 'result') && empty(s:bye.result), 'shutdown: ' . string(s:bye))
for _ in range(500)
  if s:exit >= 0 | break | endif
  sleep 10m
endfor
call s:Check(s:exit == 0, 'formd exit status ' . s:exit)

call writefile(s:failures + [printf('vim lsp channel (%d.%d): %d passed, %d failed',
      \ v:version / 100, v:version % 100, s:checks - len(s:failures), len(s:failures))], $FRAMING_RESULTS)
if empty(s:failures)
  qall!
endif
cquit!
