-- :Formd FORM.json opens a formd form in a buffer; :FormdAttach SOCKET [FORM] shows a form
-- of a running `formd --listen` daemon (see lua/formd/init.lua and :help formd).
if vim.g.loaded_formd == 1 then
  return
end
vim.g.loaded_formd = 1

vim.api.nvim_create_user_command('Formd', function(a)
  require('formd').open(a.args, { mods = a.mods })
end, { nargs = 1, complete = 'file', desc = 'formd: open a form file in a buffer' })

vim.api.nvim_create_user_command('FormdAttach', function(a)
  require('formd').attach(a.fargs[1], a.fargs[2], { mods = a.mods })
end, { nargs = '+', complete = 'file', desc = 'formd: show a form of a running formd --listen daemon' })
