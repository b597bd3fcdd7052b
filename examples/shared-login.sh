#!/bin/sh
# Fills in what a script knows on a login form that a running `formd --listen` shares, hands
# the password field to whoever is at the form (`formd tui --socket`, an editor plugin), and
# waits for the submit. Only `formd call` and `formd wait`: no jq, no library.
#
#   formd --listen "$XDG_RUNTIME_DIR/formd.sock" --form examples/login.json &
#   FORMD_SOCKET=$XDG_RUNTIME_DIR/formd.sock examples/shared-login.sh ada@example.com
#   formd tui --socket "$XDG_RUNTIME_DIR/formd.sock"     # elsewhere: the person types the password
#
# formd is $FORMD_BIN if set, else formd on PATH.
#
# Prints "logged in as EMAIL" once the form is submitted; exits 1 when nobody submits within
# $TIMEOUT seconds (default 300), 2 when the daemon is not there or goes away.
set -eu
formd=${FORMD_BIN:-formd}
email=${1:?usage: shared-login.sh EMAIL}
: "${FORMD_SOCKET:?set FORMD_SOCKET to the socket of a formd --listen serving examples/login.json}"
export FORMD_SOCKET

# Wait first, in the background: an event reaches only those already waiting for it.
submitted=$(mktemp)
trap 'rm -f "$submitted"' EXIT
# --get prints the submitted email as it is: no quotes, no escapes, whatever it holds.
"$formd" wait --timeout "${TIMEOUT:-300}" --get /values/email submitted >"$submitted" &
waiter=$!

# What the script knows. Each call exits non-zero if it did not happen (a refused change,
# an error): set -e stops the script there.
# The email goes through stdin (text=@-, which drops the newline printf adds), so any text
# is taken as it is: "text=$email" would read a file if the email started with @.
printf '%s\n' "$email" | "$formd" call setText field=email text=@- >/dev/null
"$formd" call demandFocus field=password demand=become >/dev/null
printf 'filled in %s; waiting for the password and the submit\n' "$email" >&2

status=0
wait "$waiter" || status=$?
case $status in
0) ;;
1) echo "nobody submitted the login within ${TIMEOUT:-300} s" >&2; exit 1 ;;
*) exit 2 ;; # formd wait said why on stderr
esac

# The email as submitted (the password is withheld: events never carry a secret), and the
# newline formd wait ends it with. $(…) would drop every trailing newline, so keep them with
# a '.' after them and take off the '.' and that one newline.
email=$(cat "$submitted"; echo .)
email=${email%?.}
printf 'logged in as %s\n' "$email"
