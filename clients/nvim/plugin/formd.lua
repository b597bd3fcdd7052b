-- :Formd FORM.json opens a formd form in a buffer (see lua/formd/init.lua).
if vim.g.loaded_formd == 1 then
  return
end
vim.g.loaded_formd = 1

vim.api.nvim_create_user_command('Formd', function(a)
  require('formd').open(a.args, { mods = a.mods })
end, { nargs = 1, complete = 'file', desc = 'formd: open a form file in a buffer' })
