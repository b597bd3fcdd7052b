-- formd.transport: one formd process driven through Neovim's own JSON-RPC client,
-- vim.lsp.rpc (formd speaks the LSP base protocol, Content-Length framing, when a
-- connection starts with a header).
--
-- What it adds to vim.lsp.rpc: the count of requests not yet answered (a form is redrawn
-- once nothing is outstanding, so every event a request caused has been applied), an
-- error answer to every request still open when the process exits, and one call shape
-- for the two signatures of vim.lsp.rpc.start (0.7–0.9: start(cmd, args, dispatchers);
-- 0.10+: start(argv, dispatchers)). vim.lsp.rpc hands responses and notifications to
-- the main loop in the order formd wrote them, so events come before their response.

local M = {}

--- JSON null (vim.NIL, left in arrays by vim.lsp.rpc's decoder) as nil.
function M.val(v)
  if v == vim.NIL then
    return nil
  end
  return v
end

local Client = {}
Client.__index = Client

--- Starts argv (a list: the executable, then its arguments).
--- handlers: on_event(method, params), on_exit(code, signal), on_error(message) (all optional).
--- Returns the client, or nil and a message.
function M.start(argv, handlers)
  handlers = handlers or {}
  local self = setmetatable({
    argv = argv,
    handlers = handlers,
    callbacks = {}, -- request id -> fun(err, result), until answered
    outstanding = 0,
    exited = false,
    exit_code = nil,
  }, Client)
  local dispatchers = {
    notification = function(method, params)
      if handlers.on_event then
        handlers.on_event(method, params or {})
      end
    end,
    -- on_exit is not scheduled by vim.lsp.rpc 0.7: run it on the main loop, after the
    -- messages already queued there.
    on_exit = function(code, signal)
      vim.schedule(function()
        self:_on_exit(code, signal)
      end)
    end,
    on_error = function(code, err)
      if handlers.on_error then
        handlers.on_error(string.format('%s: %s', tostring(code), tostring(err)))
      end
    end,
  }
  local lsp_rpc = require('vim.lsp.rpc')
  local ok, rpc
  if vim.fn.has('nvim-0.10') == 1 then
    ok, rpc = pcall(lsp_rpc.start, argv, dispatchers)
  else
    ok, rpc = pcall(lsp_rpc.start, argv[1], vim.list_slice(argv, 2), dispatchers)
  end
  if not ok then
    return nil, tostring(rpc)
  end
  if not rpc then
    return nil, 'could not start ' .. tostring(argv[1])
  end
  self.rpc = rpc
  return self
end

function Client:_on_exit(code, signal)
  self.exited = true
  self.exit_code = code
  local callbacks = self.callbacks
  self.callbacks = {}
  self.outstanding = 0
  for _, cb in pairs(callbacks) do
    cb({ code = -1, message = string.format('formd exited (status %d)', code) }, nil)
  end
  if self.handlers.on_exit then
    self.handlers.on_exit(code, signal)
  end
end

--- Sends a request; cb(err, result) runs on the main loop when its response arrives (err is
--- the JSON-RPC error object {code, message}). Returns the request id, or nil if formd is gone.
function Client:request(method, params, cb)
  cb = cb or function() end
  if self.exited then
    cb({ code = -1, message = 'formd is not running' }, nil)
    return nil
  end
  local id
  local sent, msg_id = self.rpc.request(method, params, function(err, result)
    if self.callbacks[id] == nil then
      return -- answered already (formd exited meanwhile)
    end
    self.callbacks[id] = nil
    self.outstanding = self.outstanding - 1
    cb(M.val(err), M.val(result))
  end)
  if not sent then
    cb({ code = -1, message = 'could not write to formd' }, nil)
    return nil
  end
  id = msg_id
  self.callbacks[id] = cb
  self.outstanding = self.outstanding + 1
  return id
end

--- True while request `id` has not been answered.
function Client:pending(id)
  return id ~= nil and self.callbacks[id] ~= nil
end

--- Sends a request and waits for its answer. Not from inside a callback or event handler.
--- Returns result, or nil and the error.
function Client:request_sync(method, params, timeout_ms)
  local done, err, result = false, nil, nil
  self:request(method, params, function(e, r)
    done, err, result = true, e, r
  end)
  if not vim.wait(timeout_ms or 5000, function()
    return done
  end, 2) then
    return nil, { code = -2, message = 'timed out waiting for formd to answer ' .. method }
  end
  return result, err
end

--- Stops the process: SIGTERM (what vim.lsp.rpc's terminate() does on newer Neovim).
function Client:terminate()
  if self.exited then
    return
  end
  if self.rpc.terminate then
    pcall(self.rpc.terminate)
  elseif self.rpc.handle then
    pcall(self.rpc.handle.kill, self.rpc.handle, 15)
  end
end

--- Ends a private formd: `shutdown` (it exits after answering), SIGTERM if it has not gone
--- after timeout_ms.
function Client:shutdown(timeout_ms)
  if self.exited then
    return
  end
  self:request('shutdown', nil)
  vim.defer_fn(function()
    self:terminate()
  end, timeout_ms or 2000)
end

return M
