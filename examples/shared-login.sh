#!/bin/sh
# Fills in what a script knows on a login form that a running `formd --listen` shares, hands
# the password field to whoever is at the form (`formd tui --socket`, an editor plugin), and
# waits for the submit. Only `formd call` and `formd wait`: no jq, no library.
#
#   formd --listen "$XDG_RUNTIME_DIR/formd.sock" --form examples/login.json &
#   FORMD_SOCKET=$XDG_RUNTIME_DIR/formd.sock examples/shared-login.sh ada@example.com
#   formd tui --socket "$XDG_RUNTIME_DIR/formd.sock"     # elsewhere: the person types the password
#
# Prints "logged in as EMAIL" once the form is submitted; exits 1 when nobody submits within
# $TIMEOUT seconds (default 300), 2 when the daemon is not there or goes away.
set -eu
formd=${FORMD:-formd}
email=${1:?usage: shared-login.sh EMAIL}
: "${FORMD_SOCKET:?set FORMD_SOCKET to the socket of a formd --listen serving examples/login.json}"
export FORMD_SOCKET

# Wait first, in the background: an event reaches only those already waiting for it.
submitted=$(mktemp)
trap 'rm -f "$submitted"' EXIT
"$formd" wait --timeout "${TIMEOUT:-300}" submitted >"$submitted" &
waiter=$!

# What the script knows. Each call exits non-zero if it did not happen (a refused change,
# an error): set -e stops the script there.
"$formd" call setText field=email "text=$email" >/dev/null
"$formd" call demandFocus field=password demand=become >/dev/null
echo "filled in $email; waiting for the password and the submit" >&2

status=0
wait "$waiter" || status=$?
case $status in
0) ;;
1) echo "nobody submitted the login within ${TIMEOUT:-300} s" >&2; exit 1 ;;
*) exit 2 ;; # formd wait said why on stderr
esac

# The submitted event's params, compact JSON with members in a fixed order:
#   {"form":"default","seq":12,"values":{"email":"ada@example.com"},"withheld":["password"]}
# The password is withheld: events never carry a secret.
params=$(cat "$submitted")
value=${params#*'"values":{"email":"'}
echo "logged in as ${value%%\"*}"
