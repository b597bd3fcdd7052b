#!/bin/sh
# Asks for a login in the terminal with `formd tui` and uses the answers.
#
#   examples/login.sh            (formd on PATH, or FORMD_BIN=/path/to/formd)
#
# formd draws the form on /dev/tty, so $(…) captures only the values: one
# NAME='value' line per field with --output env, ready for eval. Escape or Ctrl-C
# cancels: nothing is printed and formd exits 1.
set -u
formd=${FORMD_BIN:-formd}
here=$(dirname "$0")

if ! values=$("$formd" tui --output env --prefix login_ --title "Log in" "$here/login.json"); then
    echo "login cancelled" >&2
    exit 1
fi
eval "$values"

# Use the answers: here, just show what came back (never echo a real password).
printf 'email: %s\n' "$login_email"
printf 'password: %s characters\n' "$(printf %s "$login_password" | wc -m | tr -d ' ')"
