# Tests for formd.sh against the real formd. Sourced by ../test, which runs every
# test_* function in its own subshell with `set -euo pipefail` and formd.sh sourced.
# shellcheck shell=bash disable=SC2016,SC2034,SC2119  # jq filters in single quotes; optional helper args

LOGIN=$TESTS_DIR/login.json
SECRET='correct horse battery'

# ---------------------------------------------------------------------- assert helpers

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
assert_eq() { # EXPECTED ACTUAL [WHAT]
    [[ $1 == "$2" ]] || fail "${3:-value}: expected [$1], got [$2]"
}
assert_contains() { # HAYSTACK NEEDLE [WHAT]
    [[ $1 == *"$2"* ]] || fail "${3:-text}: [$1] does not contain [$2]"
}
assert_not_contains() { # HAYSTACK NEEDLE [WHAT]
    [[ $1 != *"$2"* ]] || fail "${3:-text}: [$1] contains [$2]"
}
assert_jq() { # JSON FILTER EXPECTED: jq -c FILTER of JSON must print EXPECTED
    local got
    got=$(jq -c "$2" <<<"$1") || fail "jq $2 failed on [$1]"
    [[ $got == "$3" ]] || fail "jq $2 of [$1]: expected [$3], got [$got]"
}

# The events that have arrived, as one line of "name" or "name:field" words.
event_names() {
    formd_drain_events | jq -r '.method' | paste -sd' ' -
}
events_json() { # every arrived event as one JSON array
    formd_drain_events | jq -cs '.'
}

# Drains the arrived events into $events (a JSON array) and appends them to $all.
take_events() {
    events=$(events_json)
    all=$(jq -c --argjson e "$events" '. + $e' <<<"$all")
}

start_login() {
    formd_start --form "$LOGIN" "$@"
    trap 'formd_stop >/dev/null 2>&1 || true' EXIT
}

# ---------------------------------------------------------------------------- tests

test_login_chain() {
    start_login
    local r
    events='[]' all='[]'

    # Focus email.
    r=$(formd_demand_focus email)
    assert_eq '{"outcome":"fulfilled"}' "$r" demandFocus
    take_events
    assert_jq "$events" '[.[].method]' '["responderChanged","fieldChanged","focusChanged","demandChanged"]'
    assert_jq "$events" '.[2].params | [.from, .to]' '[null,"email"]'
    assert_jq "$events" '.[1].params.changes' '{"visited":true}'

    # Type.
    r=$(formd_set_text email ada@example.com)
    assert_eq '{"applied":true}' "$r" setText
    take_events
    assert_jq "$events" '[.[].method]' '["textChanged","validityChanged"]'
    assert_jq "$events" '.[0].params | [.text, .length]' '["ada@example.com",15]'

    # Return: email resigns, then password becomes.
    r=$(formd_press_return)
    assert_eq '{"action":"next"}' "$r" pressReturn
    take_events
    assert_jq "$events" '[.[] | .method + ":" + (.params.field // "")]' \
        '["returnPressed:email","responderChanged:email","fieldChanged:email","responderChanged:password","fieldChanged:password","focusChanged:"]'
    assert_jq "$events" '[.[] | select(.method == "responderChanged") | .params.isFirstResponder]' '[false,true]'
    assert_jq "$events" '.[-1].params | [.from, .to]' '["email","password"]'
    assert_jq "$(formd_get_state)" '.firstResponder' '"password"'

    # Two characters, Backspace, Backspace, Backspace on empty: steps back to email.
    formd_set_text password ab >/dev/null
    take_events
    r=$(formd_delete)
    assert_eq '{"applied":true}' "$r" delete
    take_events
    assert_jq "$events" '[.[-2].method, .[-2].params.textBefore, .[-1].params.display]' '["deletePressed","••","•"]'
    formd_delete >/dev/null
    take_events
    local status=0
    r=$(formd_delete) || status=$?
    assert_eq '{"applied":false,"reason":"empty"}' "$r" "delete on empty"
    assert_eq 1 "$status" "a refused delete returns 1"
    assert_eq refused "$(formd_error_code)"
    take_events
    assert_jq "$events" '[.[0].method, .[0].params.textBefore, .[1].method]' '["deletePressed","","changeRejected"]'
    assert_jq "$events" '[.[] | select(.method == "focusChanged") | .params | [.from, .to]]' '[["password","email"]]'
    assert_jq "$(formd_get_state)" '.firstResponder' '"email"'

    # Return on email again, a good password, Return submits.
    assert_eq '{"action":"next"}' "$(formd_press_return)" "pressReturn on email"
    take_events
    formd_set_text password "$SECRET" >/dev/null
    take_events
    r=$(formd_press_return)
    assert_eq '{"action":"submit"}' "$r" "pressReturn on password"
    take_events
    assert_jq "$events" '.[-4:] | [.[].method]' '["returnPressed","responderChanged","focusChanged","submitted"]'
    assert_jq "$events" '.[-1].params | [.values, .withheld]' '[{"email":"ada@example.com"},["password"]]'
    assert_jq "$(formd_get_state)" '.firstResponder' 'null'

    # submit: the secure value only when asked for.
    assert_jq "$(formd_submit)" '.' '{"valid":true,"values":{"email":"ada@example.com"},"withheld":["password"],"errors":[]}'
    assert_jq "$(formd_submit secrets)" '.values.password' "\"$SECRET\""
    take_events

    # Every event: form default, seq +1 each, no secret.
    assert_jq "$all" '[.[].params.form] | unique' '["default"]'
    assert_jq "$all" '[.[].params.seq] as $s | $s == [range($s[0]; $s[0] + ($s | length))]' 'true'
    assert_not_contains "$all" "${SECRET:0:8}" events
    formd_stop
}

test_failed_submit_moves_focus_to_invalid_field() {
    start_login
    formd_demand_focus email >/dev/null
    formd_set_text email ada@example.com >/dev/null
    formd_press_return >/dev/null
    formd_set_text password short >/dev/null
    formd_drain_events >/dev/null
    assert_eq '{"action":"submit"}' "$(formd_press_return)"
    local events
    events=$(events_json)
    assert_jq "$events" '[.[].method]' '["returnPressed","submitFailed"]'
    assert_jq "$events" '.[1].params.errors' '[{"field":"password","errors":[{"rule":"tooShort","message":"Use at least 8 characters."}]}]'
    assert_jq "$(formd_get_state)" '.firstResponder' '"password"'
}

test_error_codes() {
    start_login
    local status err
    status=0
    formd_call setText '{"field":"nope","text":"x"}' 2>"$WORK/err" || status=$?
    assert_eq 1 "$status" status
    assert_eq -32001 "$FORMD_ERROR_CODE" FORMD_ERROR_CODE
    assert_contains "$FORMD_ERROR_MESSAGE" 'unknown field "nope"'
    err=$(<"$WORK/err")
    assert_contains "$err" 'unknown field "nope"' stderr
    assert_eq -32001 "$(formd_error_code)" formd_error_code

    local method params code
    while IFS='|' read -r method params code; do
        status=0
        formd_call "$method" "$params" 2>/dev/null || status=$?
        assert_eq 1 "$status" "$method status"
        assert_eq "$code" "$FORMD_ERROR_CODE" "$method $params"
    done <<'CASES'
getState|{"form":"zz"}|-32002
bogus|{}|-32601
setText|{"field":"email"}|-32602
getState|{"colour":"red"}|-32602
demandFocus|{"field":"email","demand":"maybe"}|-32602
CASES

    # In a command substitution the variables are lost; formd_error_code still knows.
    status=0
    r=$(formd_call removeField '{"field":"ghost"}' 2>/dev/null) || status=$?
    assert_eq 1 "$status"
    assert_eq "" "$r" "no result printed"
    assert_eq -32001 "$(formd_error_code)"
    assert_contains "$(formd_error_message)" ghost

    # Params that are not JSON never reach formd.
    status=0
    formd_call setText '{field:' 2>/dev/null || status=$?
    assert_eq 2 "$status"
    assert_eq usage "$FORMD_ERROR_CODE"

    # Still running, nothing changed (a form loaded with --form has emitted no event
    # yet), and a success clears the error.
    assert_jq "$(formd_get_state)" '.seq' 0
    assert_eq "" "$(formd_error_code)"
    assert_eq "" "$(event_names)" "no events from failed calls"
}

test_failed_notification_is_an_error_event() {
    start_login
    formd_notify setText '{"field":"nope","text":"x"}'
    local event
    event=$(formd_next_event 5)
    assert_jq "$event" '[.method, .params.code, .params.method]' '["error",-32001,"setText"]'
}

test_null_id_error_without_a_request_is_an_error_event() {
    start_login --max-line-bytes 100
    formd_notify setText "$(formd_params field=email "text=$(printf 'y%.0s' {1..200})")"
    local event
    event=$(formd_next_event 5)
    assert_jq "$event" '[.method, .params.code]' '["error",-32003]'
    assert_eq '{"applied":true}' "$(formd_set_text email a@b.co)"
}

test_null_id_error_answers_the_request_in_flight() {
    start_login --max-line-bytes 200
    local status=0 long
    long=$(printf 'x%.0s' {1..500})
    formd_set_text email "$long" 2>/dev/null || status=$?
    assert_eq 1 "$status"
    assert_eq -32003 "$FORMD_ERROR_CODE"
    assert_eq '{"applied":true}' "$(formd_set_text email a@b.co)"
}

test_secret_never_in_events_or_output() {
    export FORMD_TRACE=$WORK/trace FORMD_STDERR=$WORK/stderr
    start_login
    formd_demand_focus password >/dev/null
    formd_set_text password "$SECRET" >/dev/null
    formd_delete >/dev/null
    formd_set_text password "$SECRET" >/dev/null
    formd_press_return >/dev/null
    formd_focus_next >/dev/null
    formd_call configureField '{"field":"password","label":"Secret"}' >/dev/null
    local state events
    state=$(formd_get_state)
    assert_jq "$state" '.fields[1] | [has("text"), .display == ("•" * 21), .length]' '[false,true,21]'
    assert_jq "$(formd_submit)" '.withheld' '["password"]'
    events=$(events_json)
    assert_contains "$events" deletePressed
    assert_contains "$events" textChanged
    assert_not_contains "$events" "${SECRET:0:20}" events
    # Only the response that asks for secrets carries the text.
    assert_jq "$(formd_get_state secrets)" '.fields[1].text' "\"$SECRET\""
    formd_stop
    assert_eq 1 "$(grep '^< ' "$FORMD_TRACE" | grep -c "${SECRET:0:20}")" "received lines with the secret"
    assert_contains "$(grep '^< ' "$FORMD_TRACE" | grep "${SECRET:0:20}")" '"result":{"form":"default"'
    assert_eq 0 "$(grep -c "${SECRET:0:20}" "$FORMD_STDERR" || true)" "stderr lines with the secret"
}

test_events_queue_survives_subshells() {
    export FORMD_TRACE=$WORK/trace
    start_login
    local a b c
    a=$(formd_demand_focus email)
    b=$(formd_set_text email "a@b.co")
    c=$(formd_next_event 0) # pops the first event in a subshell
    assert_eq '{"outcome":"fulfilled"}' "$a"
    assert_eq '{"applied":true}' "$b"
    assert_jq "$c" '.method' '"responderChanged"'
    assert_eq "fieldChanged focusChanged demandChanged textChanged validityChanged" "$(event_names)"
    # ids went up across the subshells
    assert_eq "1 2" "$(grep '^> ' "$FORMD_TRACE" | sed 's/^> //' | jq -r '.id' | paste -sd' ' -)"
    assert_eq "" "$(event_names)" "queue is empty"
    local status=0
    formd_next_event 0.2 >/dev/null || status=$?
    assert_eq 1 "$status" "no event within the timeout"
}

test_call_into_variable() {
    start_login
    local result=unset
    formd_call -v result demandFocus '{"field":"email","demand":"become"}'
    assert_eq '{"outcome":"fulfilled"}' "$result"
    assert_eq '{"outcome":"fulfilled"}' "$FORMD_RESULT"
    local status=0
    formd_call -v result setText '{"field":"ghost","text":""}' 2>/dev/null || status=$?
    assert_eq 1 "$status"
    assert_eq "" "$result"
    assert_eq -32001 "$FORMD_ERROR_CODE"
}

test_text_roundtrip_and_params() {
    start_login
    local text=$'quote " backslash \\ tab \t newline \n 👍🏽 e\xcc\x81' # e + combining acute: one character
    assert_eq '{"applied":true}' "$(formd_set_text email "$text")"
    assert_eq "$text" "$(formd_get_state | jq -j '.fields[0].text')"
    assert_jq "$(formd_get_state)" '.fields[0].length' 39
    assert_eq '{"field":"a=b","n":3,"s":"x:=y","ok":false}' \
        "$(formd_params 'field=a=b' 'n:=3' 's=x:=y' 'ok:=false')"
    local status=0
    formd_params broken 2>/dev/null || status=$?
    assert_eq 2 "$status"
}

test_define_form_and_named_form() {
    formd_start
    trap 'formd_stop >/dev/null 2>&1 || true' EXIT
    formd_call defineForm '{"form":"f","fields":[{"id":"a"},{"id":"b","configuration":["lastOfChain"]}]}' >/dev/null
    assert_eq formDefined "$(event_names)"
    FORMD_FORM=f
    assert_eq '{"firstResponder":"a","moved":true}' "$(formd_focus_next)"
    assert_eq '{"firstResponder":"b","moved":true}' "$(formd_focus_next)"
    assert_eq '{"action":"resign"}' "$(formd_press_return)"
    assert_jq "$(formd_get_state)" '[.form, .firstResponder]' '["f",null]'
}

test_stop_exits_cleanly() {
    formd_start --form "$LOGIN"
    local pid=$FORMD_PID dir=$FORMD_DIR status=0
    formd_demand_focus email >/dev/null
    formd_stop || status=$?
    assert_eq 0 "$status" "formd_stop status"
    if kill -0 "$pid" 2>/dev/null; then fail "formd $pid still running"; fi
    if [[ -e /proc/$pid ]] && grep -q zombie "/proc/$pid/status" 2>/dev/null; then fail "formd $pid is a zombie"; fi
    [[ ! -e $dir ]] || fail "$dir left behind"
    assert_eq "" "${FORMD_PID:-}" FORMD_PID
    status=0
    formd_call getState 2>/dev/null || status=$?
    assert_eq 2 "$status" "call after stop"
    assert_eq closed "$FORMD_ERROR_CODE"
    formd_stop # again: nothing to do
    # and it can start again
    formd_start --form "$LOGIN"
    assert_jq "$(formd_get_state)" '.seq' 0
    formd_stop
}

test_killed_formd_does_not_kill_the_shell() {
    start_login
    kill -9 "$FORMD_PID"
    sleep 0.1
    local status=0
    formd_call getState 2>/dev/null || status=$?
    assert_eq 2 "$status"
    assert_eq closed "$FORMD_ERROR_CODE"
    status=0
    formd_stop || status=$?
    assert_eq 137 "$status" "exit status of a killed formd"
}

test_bad_form_file_fails_start() {
    echo '{"fields": [{"label": "no id"}]}' >"$WORK/bad.json"
    local status=0
    formd_start --form "$WORK/bad.json" 2>"$WORK/err" || status=$?
    if [[ $status -eq 0 ]]; then
        # formd_start only waits a moment; on a slow machine the exit shows on first use.
        formd_call getState >/dev/null 2>&1 || status=$?
        assert_eq closed "$FORMD_ERROR_CODE"
        formd_stop 2>/dev/null || status=$?
        assert_eq 2 "$status" "formd's exit status"
        return 0
    fi
    assert_eq 2 "$status"
    assert_contains "$(<"$WORK/err")" "formd exited at once with status 2"
    assert_eq "" "${FORMD_PID:-}"
}

test_example_script() {
    local out
    out=$(bash "$TESTS_DIR/../example.sh" "$LOGIN" 2>&1)
    assert_contains "$out" "focus: email -> password"
    assert_contains "$out" "focus: password -> email"
    assert_contains "$out" 'submitted: {"email":"ada@example.com"}'
    assert_contains "$out" "formd exited with status 0"
    assert_not_contains "$out" "correct horse"
}

test_missing_text_is_a_usage_error() {
    start_login
    formd_set_text email ada@example.com >/dev/null
    local status=0 r
    r=$(formd_set_text email 2>"$WORK/err") || status=$?
    assert_eq 2 "$status" "formd_set_text without TEXT"
    assert_eq "" "$r"
    assert_eq usage "$(formd_error_code)"
    assert_contains "$(<"$WORK/err")" 'formd_set_text FIELD TEXT'
    assert_jq "$(formd_get_state)" '.fields[0].text' '"ada@example.com"'
    # An empty TEXT given on purpose clears the field.
    assert_eq '{"applied":true}' "$(formd_set_text email "")"
    assert_jq "$(formd_get_state)" '.fields[0].text' '""'
    # The other helpers' missing arguments are usage errors too, not a dead shell.
    for helper in formd_demand_focus formd_set_enabled formd_wait_event; do
        status=0
        "$helper" 2>/dev/null || status=$?
        assert_eq 2 "$status" "$helper without arguments"
        assert_eq usage "$FORMD_ERROR_CODE" "$helper"
    done
}

test_changes_that_did_not_happen_return_1_refused() {
    start_login
    local status r
    # applied: false
    status=0
    formd_call -v r delete '{"field":"email"}' 2>"$WORK/err" || status=$?
    assert_eq 1 "$status" "delete on empty"
    assert_eq '{"applied":false,"reason":"empty"}' "$r"
    assert_eq refused "$FORMD_ERROR_CODE"
    assert_eq "" "$(<"$WORK/err")" "nothing on stderr: the result says it"
    # outcome: refused
    formd_call configureField '{"field":"password","canBecomeFirstResponder":false}' >/dev/null
    status=0
    r=$(formd_demand_focus password) || status=$?
    assert_eq 1 "$status" "a refused demand"
    assert_eq '{"outcome":"refused"}' "$r"
    assert_eq refused "$(formd_error_code)"
    # performed: false (a masked field offers no copy)
    status=0
    formd_call -v r editAction '{"field":"password","action":"copy"}' || status=$?
    assert_eq 1 "$status" "copy from a masked field"
    assert_eq refused "$FORMD_ERROR_CODE"
    # valid: false from validate and submit
    for method in validate submit; do
        status=0
        formd_call -v r "$method" || status=$?
        assert_eq 1 "$status" "$method of an invalid form"
        assert_contains "$r" '"valid":false'
        assert_eq refused "$FORMD_ERROR_CODE"
    done
    # …and a success clears it.
    formd_set_text email ada@example.com >/dev/null
    assert_eq "" "$FORMD_ERROR_CODE"
    assert_eq "" "$(formd_error_code)"
}

test_error_code_after_stop_is_closed() {
    start_login
    formd_stop
    local status=0 r
    formd_call getState 2>/dev/null || status=$?
    assert_eq 2 "$status"
    assert_eq closed "$FORMD_ERROR_CODE"
    assert_eq closed "$(formd_error_code)"
    # In a command substitution too (the variables are lost there).
    unset FORMD_ERROR_CODE
    status=0
    r=$(formd_get_state 2>/dev/null) || status=$?
    assert_eq 2 "$status"
    assert_eq closed "$(formd_error_code)"
    assert_contains "$(formd_error_message)" formd_start
}

test_timeout_returns_2() {
    start_login
    kill -STOP "$FORMD_PID"
    local status=0
    FORMD_TIMEOUT=0.3 formd_call getState 2>/dev/null || status=$?
    kill -CONT "$FORMD_PID"
    assert_eq 2 "$status"
    assert_eq timeout "$FORMD_ERROR_CODE"
    # The late answer is dropped; the next call gets its own.
    assert_jq "$(formd_get_state)" '.form' '"default"'
}

test_bad_params_json_is_a_usage_error() {
    start_login
    local status=0
    formd_call setText $'{"field":"email",\n"text":"a\nb"}' 2>/dev/null || status=$?
    assert_eq 2 "$status" "a raw line break inside a string is not JSON"
    assert_eq usage "$FORMD_ERROR_CODE"
    assert_eq '{"applied":true}' "$(formd_call setText $'{"field":"email",\n"text":"a"}')" "a line break between tokens is"
}

test_no_process_on_the_call_path() {
    # A jq (or sed) that is run leaves a mark: the library must not need either.
    mkdir "$WORK/bin"
    for tool in jq sed; do
        printf '#!/bin/sh\necho %s >>"%s"\nexit 1\n' "$tool" "$WORK/ran" >"$WORK/bin/$tool"
        chmod +x "$WORK/bin/$tool"
    done
    PATH=$WORK/bin:$PATH
    start_login
    local r
    formd_call -v r demandFocus "$(formd_params field=email demand=become)"
    assert_eq '{"outcome":"fulfilled"}' "$r"
    formd_set_text email 'a "quoted" \ text' >/dev/null
    formd_delete >/dev/null
    formd_wait_event textChanged >/dev/null
    formd_drain_events >/dev/null
    formd_call setText '{"field":"nope","text":""}' 2>/dev/null || :
    assert_eq -32001 "$(formd_error_code)"
    assert_contains "$(formd_error_message)" 'unknown field "nope"'
    formd_stop
    [[ ! -e $WORK/ran ]] || fail "ran: $(<"$WORK/ran")"
}
