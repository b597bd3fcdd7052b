-- formd.rpc: a JSON-RPC 2.0 client for one formd process.
--
-- Starts formd with jobstart(), frames its stdout into lines, matches responses to
-- requests by id and hands every notification (event) to a handler, strictly in the order
-- formd wrote them. formd writes the events a request causes before its response, so by
-- the time a request's callback runs, every event it caused has been dispatched.
--
-- Only Neovim 0.7 APIs: vim.fn.jobstart/chansend/chanclose/jobstop, vim.json, vim.wait.

local M = {}

local Client = {}
Client.__index = Client

--- vim.json.decode turns JSON null into vim.NIL; this turns it into nil.
function M.val(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

--- Starts formd.
--- @param cmd string[] argv
--- @param handlers table { on_event = fun(method, params), on_exit = fun(code, stderr_lines),
---   on_bad_line = fun(line, err) }  (all optional)
--- @return table|nil client, string|nil error
function M.start(cmd, handlers)
  local self = setmetatable({
    cmd = cmd,
    handlers = handlers or {},
    next_id = 1,
    callbacks = {}, -- id -> fun(err, result)
    outstanding = 0, -- requests written but not answered
    partial = '', -- an unterminated stdout line
    queue = {}, -- complete lines not yet dispatched
    stderr = {}, -- the last lines formd wrote to stderr
    stderr_partial = '',
    exited = false,
    exit_code = nil,
  }, Client)
  local ok, job = pcall(vim.fn.jobstart, cmd, {
    on_stdout = function(_, data)
      self:_on_stdout(data)
    end,
    on_stderr = function(_, data)
      self:_on_stderr(data)
    end,
    on_exit = function(_, code)
      self:_on_exit(code)
    end,
  })
  if not ok then
    return nil, tostring(job)
  end
  if job == 0 then
    return nil, 'invalid arguments to start formd'
  elseif job == -1 then
    return nil, string.format('%s is not executable', tostring(cmd[1]))
  end
  self.job = job
  return self
end

function Client:_on_stdout(data)
  -- jobstart delivers chunks split at '\n': the first item continues the last partial
  -- line, the last item is the start of the next one ('' when the chunk ended a line).
  local n = #data
  if n == 0 then
    return
  end
  if n == 1 then
    self.partial = self.partial .. data[1]
  else
    table.insert(self.queue, self.partial .. data[1])
    for i = 2, n - 1 do
      table.insert(self.queue, data[i])
    end
    self.partial = data[n]
  end
  self:_drain()
end

-- Dispatches queued lines in order. A handler may wait (vim.wait) and so let another
-- stdout callback run inside it; that one keeps draining the same queue, so lines are
-- still started in the order formd wrote them.
function Client:_drain()
  while #self.queue > 0 do
    local line = table.remove(self.queue, 1)
    line = line:gsub('\r$', '')
    if line ~= '' then
      self:_dispatch(line)
    end
  end
end

function Client:_dispatch(line)
  local ok, msg = pcall(vim.json.decode, line)
  if not ok or type(msg) ~= 'table' then
    if self.handlers.on_bad_line then
      self.handlers.on_bad_line(line, ok and 'not an object' or msg)
    end
    return
  end
  local id = M.val(msg.id)
  if msg.method == nil and id ~= nil then
    local cb = self.callbacks[id]
    if cb == nil then
      return -- an answer to nothing we asked (or already timed out)
    end
    self.callbacks[id] = nil
    self.outstanding = self.outstanding - 1
    local err = M.val(msg.error)
    if err ~= nil then
      cb(err, nil)
    else
      cb(nil, M.val(msg.result))
    end
  elseif msg.method ~= nil then
    if self.handlers.on_event then
      self.handlers.on_event(msg.method, M.val(msg.params) or {})
    end
  elseif M.val(msg.error) ~= nil then
    -- A response with id null: formd could not read a line we sent.
    if self.handlers.on_event then
      self.handlers.on_event('error', msg.error)
    end
  end
end

function Client:_on_stderr(data)
  local n = #data
  if n == 0 then
    return
  end
  local lines = {}
  if n == 1 then
    self.stderr_partial = self.stderr_partial .. data[1]
  else
    table.insert(lines, self.stderr_partial .. data[1])
    for i = 2, n - 1 do
      table.insert(lines, data[i])
    end
    self.stderr_partial = data[n]
  end
  for _, l in ipairs(lines) do
    l = l:gsub('\r$', '')
    if l ~= '' then
      table.insert(self.stderr, l)
      if #self.stderr > 50 then
        table.remove(self.stderr, 1)
      end
    end
  end
end

function Client:_on_exit(code)
  if self.partial ~= '' then
    table.insert(self.queue, self.partial)
    self.partial = ''
    self:_drain()
  end
  if self.stderr_partial ~= '' then
    table.insert(self.stderr, self.stderr_partial)
    self.stderr_partial = ''
  end
  self.exited = true
  self.exit_code = code
  local callbacks = self.callbacks
  self.callbacks = {}
  self.outstanding = 0
  for _, cb in pairs(callbacks) do
    cb({ code = -1, message = string.format('formd exited (status %d)', code) }, nil)
  end
  if self.handlers.on_exit then
    self.handlers.on_exit(code, self.stderr)
  end
end

--- Sends a request; cb(err, result) runs when its response arrives (err is the JSON-RPC
--- error object {code, message, data?}). Returns the request id, or nil if formd is gone.
function Client:request(method, params, cb)
  cb = cb or function() end
  if self.exited or self.job == nil then
    cb({ code = -1, message = 'formd is not running' }, nil)
    return nil
  end
  local id = self.next_id
  self.next_id = id + 1
  local msg = { jsonrpc = '2.0', id = id, method = method }
  if params ~= nil and next(params) ~= nil then
    msg.params = params
  end
  self.callbacks[id] = cb
  self.outstanding = self.outstanding + 1
  local ok = pcall(vim.fn.chansend, self.job, vim.json.encode(msg) .. '\n')
  if not ok then
    self.callbacks[id] = nil
    self.outstanding = self.outstanding - 1
    cb({ code = -1, message = 'could not write to formd' }, nil)
    return nil
  end
  return id
end

--- Sends a request and waits for its answer. Do not call it from an event handler or a
--- request callback (use request() there). Returns result, or nil and the error.
function Client:request_sync(method, params, timeout_ms)
  local done, err, result = false, nil, nil
  self:request(method, params, function(e, r)
    done, err, result = true, e, r
  end)
  if not vim.wait(timeout_ms or 5000, function()
    return done
  end, 5) then
    return nil, { code = -2, message = 'timed out waiting for formd to answer ' .. method }
  end
  return result, err
end

function Client:running()
  return self.job ~= nil and not self.exited
end

--- Ends formd: `shutdown`, then closes its stdin (end of input also ends it); stops the
--- process if it has not gone after timeout_ms.
function Client:close(timeout_ms)
  if not self:running() then
    return
  end
  self:request('shutdown', nil, function() end)
  pcall(vim.fn.chanclose, self.job, 'stdin')
  local job = self.job
  vim.defer_fn(function()
    if not self.exited then
      pcall(vim.fn.jobstop, job)
    end
  end, timeout_ms or 2000)
end

--- Stops formd at once.
function Client:stop()
  if self:running() then
    pcall(vim.fn.jobstop, self.job)
  end
end

return M
