-- formd.render: draws a form model into a buffer.
--
-- One line per field: "Label: display", labels padded to one width so every field's text
-- starts in the same column. The text part is the field's `display` (one • per character
-- for a secure field that is not revealed), never its secret text. Everything else is
-- decoration that is not part of the buffer's text: the first responder's line gets a `>`
-- sign and a line highlight (namespace `formd_marker`), a selection (formd's, in UTF-8
-- bytes of the display) is highlighted, empty fields show their placeholder,
-- invalid fields that were touched show their errors and a refused edit says so, as
-- virtual text (`formd`).

local M = {}

M.ns = vim.api.nvim_create_namespace('formd')
M.marker_ns = vim.api.nvim_create_namespace('formd_marker')

function M.setup_highlights()
  vim.cmd([[
    highlight default link FormdLabel Label
    highlight default link FormdDisabled Comment
    highlight default link FormdPlaceholder Comment
    highlight default link FormdError ErrorMsg
    highlight default link FormdPending WarningMsg
    highlight default link FormdMarker Special
    highlight default link FormdFocus CursorLine
    highlight default link FormdSelection Visual
  ]])
end

local function label_of(field)
  local label = field.label
  if type(label) ~= 'string' or label == '' then
    label = field.id
  end
  -- A label is one line of the buffer: no line breaks in it.
  return (label:gsub('[\r\n]', ' '))
end

--- The prefix ("Label: " padded) of every field, in order.
function M.prefixes(fields)
  local width = 0
  for _, f in ipairs(fields) do
    width = math.max(width, vim.fn.strdisplaywidth(label_of(f)))
  end
  local out = {}
  for i, f in ipairs(fields) do
    local label = label_of(f)
    out[i] = label .. ':' .. string.rep(' ', width - vim.fn.strdisplaywidth(label)) .. ' '
  end
  return out
end

--- What a field's text part shows: its display, on one line.
function M.display(field)
  local d = field.display
  if type(d) ~= 'string' then
    d = ''
  end
  return (d:gsub('[\r\n]', ' '))
end

--- The text of validation errors: each one a string, or (formd after issue 20) an object
--- {rule, message} whose message is shown.
function M.error_text(errors)
  local out = {}
  for _, e in ipairs(type(errors) == 'table' and errors or {}) do
    if type(e) == 'table' then
      e = e.message
    end
    if type(e) == 'string' then
      out[#out + 1] = e
    end
  end
  return table.concat(out, ', ')
end

--- The buffer lines for a model, and the prefixes they use.
function M.lines(model)
  local prefixes = M.prefixes(model.fields)
  local lines = {}
  for i, f in ipairs(model.fields) do
    lines[i] = prefixes[i] .. M.display(f)
  end
  return lines, prefixes
end

--- Draws the marker and the virtual text. `show_errors` is a set of field ids whose errors
--- are shown even if the field was not touched (after a failed submit).
function M.decorate(buf, model, prefixes, show_errors)
  vim.api.nvim_buf_clear_namespace(buf, M.ns, 0, -1)
  vim.api.nvim_buf_clear_namespace(buf, M.marker_ns, 0, -1)
  for i, f in ipairs(model.fields) do
    local row = i - 1
    local enabled = f.enabled ~= false
    vim.api.nvim_buf_set_extmark(buf, M.ns, row, 0, {
      end_col = #prefixes[i],
      hl_group = enabled and 'FormdLabel' or 'FormdDisabled',
    })
    local chunks = {}
    if M.display(f) == '' and type(f.placeholder) == 'string' and f.placeholder ~= '' then
      table.insert(chunks, { f.placeholder, 'FormdPlaceholder' })
    end
    if not enabled then
      table.insert(chunks, { (#chunks > 0 and '  ' or '') .. '(disabled)', 'FormdDisabled' })
    end
    if f.demand == 'become' then
      table.insert(chunks, { (#chunks > 0 and '  ' or '') .. '(focus pending)', 'FormdPending' })
    end
    if type(f.refused) == 'string' then
      table.insert(chunks, { '  ' .. f.refused, 'FormdError' })
    end
    local errors = M.error_text(f.errors)
    if f.valid == false and errors ~= '' and (f.touched or (show_errors and show_errors[f.id])) then
      table.insert(chunks, { '  ' .. errors, 'FormdError' })
    end
    if #chunks > 0 then
      vim.api.nvim_buf_set_extmark(buf, M.ns, row, 0, { virt_text = chunks, virt_text_pos = 'eol' })
    end
    local sel = f.selection
    if type(sel) == 'table' and sel.start ~= sel['end'] and sel['end'] <= #M.display(f) then
      vim.api.nvim_buf_set_extmark(buf, M.ns, row, #prefixes[i] + sel.start, {
        end_col = #prefixes[i] + sel['end'],
        hl_group = 'FormdSelection',
      })
    end
    if f.id == model.firstResponder then
      vim.api.nvim_buf_set_extmark(buf, M.marker_ns, row, 0, {
        sign_text = '>',
        sign_hl_group = 'FormdMarker',
        line_hl_group = 'FormdFocus',
      })
    end
  end
end

--- The 1-based line that carries the first-responder marker, or nil.
function M.marked_line(buf)
  local marks = vim.api.nvim_buf_get_extmarks(buf, M.marker_ns, 0, -1, {})
  if #marks == 0 then
    return nil
  end
  return marks[1][2] + 1
end

return M
