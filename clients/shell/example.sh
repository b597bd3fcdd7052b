#!/usr/bin/env bash
# shellcheck disable=SC2119  # the helpers' arguments are optional
# Drives the login form through its chain with formd.sh and prints what a front end would:
#   FORMD_BIN=.build/debug/formd clients/shell/example.sh [FORM.json]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
form=${1:-$here/../../examples/login.json}
# shellcheck source=formd.sh
source "$here/formd.sh"

# Prints the events that have arrived, one readable line each.
show_events() {
    formd_drain_events | jq -r '.params as $p | .method as $m
        | if $m == "focusChanged" then "  focus: \($p.from) -> \($p.to)"
          elif $m == "textChanged" then "  \($p.field): \($p.display | @json) (\($p.length) characters)"
          elif $m == "submitFailed" then "  submit failed: \($p.errors | map(.field + " " + (.errors | map(.message) | join(" "))) | join("; "))"
          elif $m == "submitted" then "  submitted: \($p.values | tojson) (withheld: \($p.withheld | join(", ")))"
          elif $m == "error" then "  error \($p.code): \($p.message)"
          else empty end'
}

formd_start --form "$form"
trap 'formd_stop >/dev/null 2>&1 || true' EXIT

echo "demandFocus email -> $(formd_demand_focus email)"; show_events
echo "setText email -> $(formd_set_text email ada@example.com)"; show_events
echo "pressReturn -> $(formd_press_return)"; show_events
echo "setText password -> $(formd_set_text password hunter2)"; show_events
echo "pressReturn -> $(formd_press_return)"; show_events
for _ in 1 2 3 4 5 6 7; do formd_delete >/dev/null; done
formd_drain_events >/dev/null
echo "delete on the empty password -> $(formd_delete)"; show_events
echo "pressReturn -> $(formd_press_return)"; show_events
echo "setText password -> $(formd_set_text password 'correct horse')"; show_events
echo "pressReturn -> $(formd_press_return)"; show_events

if ! formd_call setText '{"field":"username","text":"ada"}' 2>/dev/null; then
    echo "setText username -> error $FORMD_ERROR_CODE: $FORMD_ERROR_MESSAGE"
fi

trap - EXIT
status=0
formd_stop || status=$?
echo "formd exited with status $status"
exit "$status"
