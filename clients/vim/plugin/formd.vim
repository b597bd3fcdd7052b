vim9script
# :Formd FORM.json and :FormdAttach SOCKET [FORM]: a formd form in a buffer (:help formd).
if exists('g:loaded_formd') || v:version < 900
  finish
endif
g:loaded_formd = 1

import autoload 'formd.vim'

command -nargs=1 -complete=file Formd formd.Open(<q-args>, {mods: <q-mods>})
command -nargs=+ -complete=file FormdAttach formd.AttachCommand(<q-mods>, <f-args>)
