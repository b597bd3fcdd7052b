vim9script
# Draws a form model into a buffer. One line per field: "Label: display", labels padded to
# one width so every field's text starts in the same column. The text part is the field's
# `display` (one • per character of a masked field), never its secret text. Everything else
# is decoration outside the text: text properties for the label, the selection, the
# placeholder, "(disabled)", "(focus pending)" and errors, and a sign on the first responder.

const PROPS = {
  formd_label: 'FormdLabel',
  formd_label_disabled: 'FormdDisabled',
  formd_selection: 'FormdSelection',
  formd_placeholder: 'FormdPlaceholder',
  formd_disabled: 'FormdDisabled',
  formd_pending: 'FormdPending',
  formd_error: 'FormdError',
}

# Highlight groups (all `default`, so a colour scheme or the user wins), the text property
# types and the first responder's sign.
export def Setup()
  highlight default link FormdLabel Label
  highlight default link FormdDisabled Comment
  highlight default link FormdPlaceholder Comment
  highlight default link FormdError ErrorMsg
  highlight default link FormdPending WarningMsg
  highlight default link FormdMarker Special
  highlight default link FormdFocus CursorLine
  highlight default link FormdSelection Visual
  for [name, group] in items(PROPS)
    if empty(prop_type_get(name))
      prop_type_add(name, {highlight: group})
    endif
  endfor
  if empty(sign_getdefined('FormdFocus'))
    sign_define('FormdFocus', {text: '>', texthl: 'FormdMarker', linehl: 'FormdFocus'})
  endif
enddef

# The non-empty string `v`, or ''.
def Str(v: any): string
  return type(v) == v:t_string ? v : ''
enddef

export def Label(f: dict<any>): string
  var label = Str(get(f, 'label', ''))
  return substitute(label == '' ? f.id : label, '[\r\n]', ' ', 'g')
enddef

# What the field's text part shows: its display, one buffer line, each line break one space
# per byte so that byte positions in the line are formd's "utf-8" positions.
export def Display(f: dict<any>): string
  return substitute(Str(get(f, 'display', '')), '[\r\n\x0b\x0c]', ' ', 'g')
enddef

# The prefix ("Label: " padded) of every field, in order.
export def Prefixes(fields: list<dict<any>>): list<string>
  var width = 0
  for f in fields
    width = max([width, strdisplaywidth(Label(f))])
  endfor
  return fields->mapnew((_, f) => Label(f) .. ':' .. repeat(' ', width - strdisplaywidth(Label(f))) .. ' ')
enddef

# The buffer lines for these fields with these prefixes.
export def Lines(fields: list<dict<any>>, prefixes: list<string>): list<string>
  return fields->mapnew((i, f) => prefixes[i] .. Display(f))
enddef

# Writes the lines that differ, so the cursor and unchanged lines stay put.
export def Write(buf: number, lines: list<string>)
  var want = empty(lines) ? [''] : lines
  var current = getbufline(buf, 1, '$')
  if len(current) > len(want)
    deletebufline(buf, len(want) + 1, '$')
  endif
  for i in range(len(want))
    if i >= len(current) || current[i] !=# want[i]
      setbufline(buf, i + 1, want[i])
    endif
  endfor
enddef

# The validation messages of a field: strings, or the `message` of {rule, message} objects.
export def Messages(errors: any): list<string>
  if type(errors) != v:t_list
    return []
  endif
  return errors->mapnew((_, e) => type(e) == v:t_dict ? Str(get(e, 'message', get(e, 'rule', ''))) : Str(e))
enddef

def AddVirtual(buf: number, row: number, type: string, text: string)
  prop_add(row, 0, {bufnr: buf, type: type, text: text, text_align: 'after', text_padding_left: 2})
enddef

# Draws the label highlights, the selection of the first responder, the virtual text and
# the first responder's sign. `show_errors`: ids whose errors show though not yet touched.
export def Decorate(buf: number, model: dict<any>, prefixes: list<string>, show_errors: dict<any>)
  var last = len(getbufline(buf, 1, '$'))
  prop_clear(1, last, {bufnr: buf})
  sign_unplace('formd', {buffer: buf})
  for i in range(len(model.fields))
    var f = model.fields[i]
    var row = i + 1
    var enabled = get(f, 'enabled', true) != false
    if len(prefixes[i]) > 1
      prop_add(row, 1, {bufnr: buf, length: len(prefixes[i]) - 1,
        type: enabled ? 'formd_label' : 'formd_label_disabled'})
    endif
    var placeholder = Str(get(f, 'placeholder', ''))
    if Display(f) == '' && placeholder != ''
      AddVirtual(buf, row, 'formd_placeholder', placeholder)
    endif
    if !enabled
      AddVirtual(buf, row, 'formd_disabled', '(disabled)')
    endif
    if Str(get(f, 'demand', '')) == 'become'
      AddVirtual(buf, row, 'formd_pending', '(focus pending)')
    endif
    var messages = Messages(get(f, 'errors', []))
    if get(f, 'valid', true) == false && !empty(messages) && (get(f, 'touched', false) == true || has_key(show_errors, f.id))
      AddVirtual(buf, row, 'formd_error', join(messages, ', '))
    endif
    if Str(model.firstResponder) == f.id
      var sel = get(f, 'selection', {})
      var start = get(sel, 'start', 0)
      var end = min([get(sel, 'end', 0), len(Display(f))])
      if end > start
        prop_add(row, len(prefixes[i]) + start + 1, {bufnr: buf, length: end - start, type: 'formd_selection'})
      endif
      sign_place(0, 'formd', 'FormdFocus', buf, {lnum: row})
    endif
  endfor
enddef

# The line that carries the first-responder sign, or 0.
export def MarkedLine(buf: number): number
  var placed = sign_getplaced(buf, {group: 'formd'})
  if empty(placed) || empty(placed[0].signs)
    return 0
  endif
  return placed[0].signs[0].lnum
enddef
