# shellcheck shell=bash disable=SC2034  # FORMD_* variables are for the caller
# formd.sh: drive formd, the form daemon, from bash. Source it:
#
#   source clients/shell/formd.sh
#   formd_start --form examples/login.json
#   formd_call demandFocus '{"field":"email","demand":"become"}'   # prints {"outcome":"fulfilled"}
#   formd_next_event                                                # prints the first event
#   formd_stop
#
# formd runs as a coprocess; requests get fresh ids; events that arrive before a request's
# response are queued, and formd_next_event hands them out in order. Needs bash 4.3+ only:
# requests are built and responses read with bash builtins (formd's output is compact JSON
# with its members in a fixed order), so a call starts no process.
#
# Settings (environment, read when used):
#   FORMD_BIN      the formd executable (default: formd on PATH)
#   FORMD_TIMEOUT  seconds to wait for a response or event (default 10)
#   FORMD_STDERR   file that receives formd's stderr (default: this shell's stderr)
#   FORMD_TRACE    file that receives every line sent ("> …") and received ("< …")
#   FORMD_FORM     form name the formd_* helpers add as "form" (default: formd's "default")
#
# After formd_start: FORMD_PID, FORMD_DIR (state: id counter, event queue, last error),
# FORMD_IN / FORMD_OUT (file descriptors to and from formd).
# After formd_call: FORMD_RESULT, or FORMD_ERROR_CODE and FORMD_ERROR_MESSAGE (the code is
# a JSON-RPC error code, or refused, usage, timeout or closed).
#
# State lives in files under FORMD_DIR, so calls made in command substitutions
# ($(formd_call …)) share ids and the event queue with the calling shell; only the
# variables above are lost there (formd_error_code and formd_error_message read the files).

# Starts formd with the given arguments (e.g. --form FILE) as a coprocess.
formd_start() {
    if [[ -n ${FORMD_PID:-} ]] && kill -0 "$FORMD_PID" 2>/dev/null; then
        echo "formd_start: formd is already running (pid $FORMD_PID); formd_stop it first" >&2
        return 2
    fi
    local _fd_bin=${FORMD_BIN:-}
    if [[ -z $_fd_bin ]]; then
        _fd_bin=$(command -v formd) || {
            echo "formd_start: cannot find formd: set FORMD_BIN or put formd on PATH" >&2
            return 2
        }
    fi
    if [[ ! -x $_fd_bin ]]; then
        echo "formd_start: $_fd_bin is not executable" >&2
        return 2
    fi
    FORMD_DIR=$(mktemp -d "${TMPDIR:-/tmp}/formd.XXXXXX") || return 2
    : >"$FORMD_DIR/events"
    : >"$FORMD_DIR/error"
    echo 0 >"$FORMD_DIR/id"

    local _fd_err=${FORMD_STDERR:-}
    if [[ -n $_fd_err ]]; then
        coproc _FORMD_COPROC { exec "$_fd_bin" "$@" 2>>"$_fd_err"; }
    else
        coproc _FORMD_COPROC { exec "$_fd_bin" "$@"; }
    fi
    FORMD_PID=$_FORMD_COPROC_PID
    # Own copies of the pipe ends: bash drops the coproc's when the process ends, and
    # they must stay readable (for the last lines) and usable in subshells.
    local _fd_r=${_FORMD_COPROC[0]} _fd_w=${_FORMD_COPROC[1]}
    exec {FORMD_OUT}<&"$_fd_r" {FORMD_IN}>&"$_fd_w"
    exec {_fd_r}<&- {_fd_w}>&-
    FORMD_RESULT=""
    FORMD_ERROR_CODE=""
    FORMD_ERROR_MESSAGE=""
    # A bad command line (e.g. a bad form file) makes formd exit at once with status 2.
    sleep 0.05
    if ! kill -0 "$FORMD_PID" 2>/dev/null; then
        local _fd_status=0
        wait "$FORMD_PID" 2>/dev/null || _fd_status=$?
        echo "formd_start: formd exited at once with status $_fd_status" >&2
        _formd_cleanup
        return 2
    fi
    return 0
}

# formd_call [-v VAR] METHOD [JSON_PARAMS]
# Sends a request and prints its result as compact JSON (or stores it in VAR). On a
# JSON-RPC error it prints the message on stderr, sets FORMD_ERROR_CODE and
# FORMD_ERROR_MESSAGE and returns 1. A result saying the change did not happen
# ("applied":false, "outcome":"refused", "performed":false, or "valid":false from validate
# or submit) is printed too, and returns 1 with FORMD_ERROR_CODE=refused. On a timeout, a
# closed formd or params that are not JSON it returns 2 (FORMD_ERROR_CODE is then timeout,
# closed or usage).
formd_call() {
    local _fd_var=""
    if [[ ${1:-} == -v ]]; then
        if [[ -z ${2:-} ]]; then
            _formd_fail usage "formd_call: -v needs a variable name"
            return 2
        fi
        _fd_var=$2
        shift 2
    fi
    local _fd_method=${1:-} _fd_params=${2:-}
    FORMD_RESULT=""
    FORMD_ERROR_CODE=""
    FORMD_ERROR_MESSAGE=""
    if [[ -z $_fd_method ]]; then
        _formd_fail usage "formd_call: usage: formd_call [-v VAR] METHOD [JSON_PARAMS]"
        return 2
    fi
    _formd_check "$_fd_method" || return 2

    local _fd_id _fd_request _fd_name
    IFS= read -r _fd_id <"$FORMD_DIR/id" || _fd_id=0
    _fd_id=$((_fd_id + 1))
    echo "$_fd_id" >"$FORMD_DIR/id"
    _formd_quote _fd_name "$_fd_method"
    _fd_request="{\"jsonrpc\":\"2.0\",\"id\":$_fd_id,\"method\":$_fd_name"
    # A line break in the params would end the request's line: it becomes a tab, which is
    # the same whitespace between tokens and as invalid as before inside a string.
    [[ -z $_fd_params ]] || _fd_request+=",\"params\":${_fd_params//[$'\n\r']/$'\t'}"
    _formd_send "$_fd_method" "$_fd_request}" || return 2

    local _fd_line _fd_rid _fd_rest _fd_status
    while :; do
        _fd_status=0
        IFS= read -r -t "${FORMD_TIMEOUT:-10}" -u "$FORMD_OUT" _fd_line || _fd_status=$?
        if ((_fd_status > 128)); then
            _formd_fail timeout "formd_call $_fd_method: no response from formd within ${FORMD_TIMEOUT:-10} s"
            return 2
        elif ((_fd_status != 0)); then
            _formd_fail closed "formd_call $_fd_method: formd exited before answering"
            return 2
        fi
        [[ -n ${_fd_line//[$' \t\r']/} ]] || continue
        _formd_trace "<" "$_fd_line"
        if [[ $_fd_line == '{"jsonrpc":"2.0","method":'* ]]; then
            printf '%s\n' "$_fd_line" >>"$FORMD_DIR/events"
            continue
        fi
        # A response: {"jsonrpc":"2.0","id":ID,"result":R} or ...,"error":{"code":C,"message":M}}.
        [[ $_fd_line == '{"jsonrpc":"2.0","id":'* ]] || continue # not ours (formd sends us no batches)
        _fd_rest=${_fd_line#'{"jsonrpc":"2.0","id":'}
        _fd_rid=${_fd_rest%%,*}
        _fd_rest=${_fd_rest#*,}
        # A response to an earlier request that timed out is dropped. id null is formd
        # saying it could not read the request (e.g. too long): that is the one in flight.
        [[ $_fd_rid == "$_fd_id" || $_fd_rid == null ]] || continue
        if [[ $_fd_rest == '"result":'* ]]; then
            _fd_rest=${_fd_rest#'"result":'}
            FORMD_RESULT=${_fd_rest%'}'}
            [[ -z $_fd_var ]] || printf -v "$_fd_var" '%s' "$FORMD_RESULT"
            [[ -n $_fd_var ]] || printf '%s\n' "$FORMD_RESULT"
            if _formd_refused "$_fd_method" "$FORMD_RESULT"; then
                FORMD_ERROR_CODE=refused
                FORMD_ERROR_MESSAGE="formd_call $_fd_method: it did not happen: $FORMD_RESULT"
                printf '%s\t%s\n' "$FORMD_ERROR_CODE" "$FORMD_ERROR_MESSAGE" >"$FORMD_DIR/error"
                return 1
            fi
            : >"$FORMD_DIR/error"
            return 0
        fi
        _fd_rest=${_fd_rest#'"error":{"code":'}
        FORMD_ERROR_CODE=${_fd_rest%%,*}
        _fd_rest=${_fd_rest#*,'"message":'}
        _formd_unquote FORMD_ERROR_MESSAGE "${_fd_rest%'}}'}"
        [[ -z $_fd_var ]] || printf -v "$_fd_var" '%s' ""
        if [[ $FORMD_ERROR_CODE == -32700 && $_fd_rid == null ]]; then
            # The line formd could not parse is the request: its params are not JSON.
            _formd_fail usage "formd_call $_fd_method: params are not JSON: $_fd_params"
            return 2
        fi
        printf '%s\t%s\n' "$FORMD_ERROR_CODE" "$FORMD_ERROR_MESSAGE" >"$FORMD_DIR/error"
        echo "formd_call $_fd_method: $FORMD_ERROR_MESSAGE (code $FORMD_ERROR_CODE)" >&2
        return 1
    done
}

# formd_notify METHOD [JSON_PARAMS]: sends a notification (no response). If it fails,
# formd answers with an "error" event.
formd_notify() {
    local _fd_method=${1:-} _fd_params=${2:-} _fd_name
    if [[ -z $_fd_method ]]; then
        _formd_fail usage "formd_notify: usage: formd_notify METHOD [JSON_PARAMS]"
        return 2
    fi
    _formd_check "$_fd_method" || return 2
    _formd_quote _fd_name "$_fd_method"
    _formd_send "$_fd_method" "{\"jsonrpc\":\"2.0\",\"method\":$_fd_name${_fd_params:+,\"params\":${_fd_params//[$'\n\r']/$'\t'}}}"
}

# formd_next_event [TIMEOUT]: prints the next event (the whole notification line, e.g.
# {"jsonrpc":"2.0","method":"focusChanged","params":{…}}), queued ones first, waiting up
# to TIMEOUT seconds (default FORMD_TIMEOUT; 0: only what has already arrived). Returns 1
# when there is none.
formd_next_event() {
    local _fd_timeout=${1:-${FORMD_TIMEOUT:-10}}
    [[ -n ${FORMD_DIR:-} && -d ${FORMD_DIR:-} ]] || return 1
    local _fd_line
    if [[ -s $FORMD_DIR/events ]]; then
        local _fd_queue=()
        mapfile -t _fd_queue <"$FORMD_DIR/events"
        printf '%s\n' "${_fd_queue[@]:1}" >"$FORMD_DIR/events"
        [[ ${#_fd_queue[@]} -gt 1 ]] || : >"$FORMD_DIR/events"
        printf '%s\n' "${_fd_queue[0]}"
        return 0
    fi
    local _fd_status
    while :; do
        _fd_status=0
        if [[ $_fd_timeout == 0 || $_fd_timeout == 0.0 ]]; then
            # Nothing waiting: done. Something waiting: it is a whole line on its way.
            read -r -t 0 -u "$FORMD_OUT" || return 1
            IFS= read -r -t "${FORMD_TIMEOUT:-10}" -u "$FORMD_OUT" _fd_line || _fd_status=$?
        else
            IFS= read -r -t "$_fd_timeout" -u "$FORMD_OUT" _fd_line || _fd_status=$?
        fi
        ((_fd_status == 0)) || return 1
        [[ -n ${_fd_line//[$' \t\r']/} ]] || continue
        _formd_trace "<" "$_fd_line"
        case $_fd_line in
        '{"jsonrpc":"2.0","method":'*)
            printf '%s\n' "$_fd_line"
            return 0
            ;;
        '{"jsonrpc":"2.0","id":null,"error":'*)
            # An error response nobody waits for (e.g. a notification over
            # --max-line-bytes): handed out as an "error" event so it is not lost.
            _fd_line=${_fd_line#'{"jsonrpc":"2.0","id":null,"error":'}
            printf '{"jsonrpc":"2.0","method":"error","params":%s\n' "$_fd_line"
            return 0
            ;;
        esac
        # a late response to a request that timed out: nobody waits for it
    done
}

# formd_drain_events: prints every event that has arrived and not been read, in order,
# without waiting.
formd_drain_events() {
    while formd_next_event 0; do :; done
    return 0
}

# formd_wait_event NAME [TIMEOUT]: reads events until one named NAME and prints it (the
# ones before it are dropped). Returns 1 if none comes within TIMEOUT (each).
formd_wait_event() {
    if [[ -z ${1:-} ]]; then
        _formd_fail usage "formd_wait_event: usage: formd_wait_event NAME [TIMEOUT]"
        return 2
    fi
    local _fd_name=$1 _fd_timeout=${2:-${FORMD_TIMEOUT:-10}} _fd_event
    while _fd_event=$(formd_next_event "$_fd_timeout"); do
        if [[ $_fd_event == '{"jsonrpc":"2.0","method":"'"$_fd_name"'",'* ]]; then
            printf '%s\n' "$_fd_event"
            return 0
        fi
    done
    return 1
}

# formd_stop [TIMEOUT]: sends shutdown, waits for formd to exit (killing it after
# TIMEOUT seconds, default 5), reaps it and removes its state. Returns formd's exit status.
# Call it from the shell that ran formd_start (not in a subshell); trap formd_stop EXIT works.
formd_stop() {
    [[ -n ${FORMD_PID:-} ]] || return 0
    local _fd_timeout=${1:-5} _fd_status=0 _fd_i
    _fd_timeout=${_fd_timeout%%.*}
    [[ $_fd_timeout =~ ^[0-9]+$ ]] || _fd_timeout=5
    if kill -0 "$FORMD_PID" 2>/dev/null && [[ -n ${FORMD_IN:-} ]]; then
        FORMD_TIMEOUT=$_fd_timeout formd_call shutdown >/dev/null 2>&1 || true
    fi
    if [[ -n ${FORMD_IN:-} ]]; then
        { exec {FORMD_IN}>&-; } 2>/dev/null
        unset FORMD_IN
    fi
    # formd exits after answering shutdown (or at end of input); give it a moment.
    for ((_fd_i = 0; _fd_i < _fd_timeout * 20; _fd_i++)); do
        kill -0 "$FORMD_PID" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$FORMD_PID" 2>/dev/null; then
        kill -TERM "$FORMD_PID" 2>/dev/null
        sleep 0.2
        kill -KILL "$FORMD_PID" 2>/dev/null
    fi
    wait "$FORMD_PID" 2>/dev/null || _fd_status=$?
    _formd_cleanup
    return "$_fd_status"
}

# formd_running: true while formd is running.
formd_running() {
    [[ -n ${FORMD_PID:-} ]] && kill -0 "$FORMD_PID" 2>/dev/null
}

# formd_error_code / formd_error_message: the last formd_call's error (empty after a
# success); unlike FORMD_ERROR_CODE these also work after $(formd_call …). When formd is not
# running (never started, or stopped) every call fails with `closed`, and so do these.
formd_error_code() {
    local _fd_code=""
    if [[ -n ${FORMD_DIR:-} && -f $FORMD_DIR/error ]]; then
        IFS=$'\t' read -r _fd_code _ <"$FORMD_DIR/error" || :
    else
        _fd_code=${FORMD_ERROR_CODE:-closed}
    fi
    printf '%s\n' "$_fd_code"
}
formd_error_message() {
    local _fd_message=""
    if [[ -n ${FORMD_DIR:-} && -f $FORMD_DIR/error ]]; then
        IFS=$'\t' read -r _ _fd_message <"$FORMD_DIR/error" || :
    else
        _fd_message=${FORMD_ERROR_MESSAGE:-formd is not running (formd_start)}
    fi
    printf '%s\n' "$_fd_message"
}

# formd_params KEY=STRING KEY:=JSON …: prints a JSON object, e.g.
#   formd_params field=email "text=$text" enabled:=false   ->  {"field":"email","text":"…","enabled":false}
# A KEY:=JSON value is put in as written; formd refuses one that is not JSON (formd_call
# then returns 2 with FORMD_ERROR_CODE=usage).
formd_params() {
    local _fd_json
    _formd_params _fd_json "$@" || return 2
    printf '%s\n' "$_fd_json"
}

# Helpers for the common methods; each prints the result like formd_call (and adds
# "form": FORMD_FORM when that is set). A missing argument is a usage error (status 2).
formd_set_text() {
    # An empty TEXT clears the field, but it must be given: "" is not the same as forgotten.
    (($# == 2)) || { _formd_fail usage "formd_set_text: usage: formd_set_text FIELD TEXT (TEXT \"\" clears the field)"; return 2; }
    _formd_helper setText "field=$1" "text=$2"
}
formd_delete() { _formd_helper delete ${1:+"field=$1"}; }
formd_press_return() { _formd_helper pressReturn ${1:+"field=$1"}; }
formd_demand_focus() {
    [[ -n ${1:-} ]] || { _formd_fail usage "formd_demand_focus: usage: formd_demand_focus FIELD [become|resign]"; return 2; }
    _formd_helper demandFocus "field=$1" "demand=${2:-become}"
}
formd_focus_next() { _formd_helper focusNext; }
formd_focus_previous() { _formd_helper focusPrevious; }
formd_set_enabled() {
    [[ -n ${1:-} ]] || { _formd_fail usage "formd_set_enabled: usage: formd_set_enabled FIELD true|false"; return 2; }
    _formd_helper setEnabled "field=$1" "enabled:=${2:-true}"
}
formd_get_state() { _formd_helper getState ${1:+"includeSecrets:=true"}; }  # any argument: include secrets
formd_validate() { _formd_helper validate; }
formd_submit() { _formd_helper submit ${1:+"includeSecrets:=true"}; }      # any argument: include secrets
formd_reset() { _formd_helper reset; }

# ---------------------------------------------------------------------------- internals

_formd_helper() {
    local _fd_method=$1 _fd_json
    shift
    _formd_params _fd_json "$@" ${FORMD_FORM:+"form=$FORMD_FORM"} || return 2
    formd_call "$_fd_method" "$_fd_json"
}

# _formd_params VAR KEY=STRING KEY:=JSON …: the object formd_params prints, into VAR.
_formd_params() {
    local _fd_into=$1 _fd_pair _fd_key _fd_value _fd_out="" _fd_quoted
    shift
    for _fd_pair in "$@"; do
        if [[ $_fd_pair != *=* ]]; then
            _formd_fail usage "formd_params: expected KEY=STRING or KEY:=JSON, got: $_fd_pair"
            return 2
        fi
        _fd_key=${_fd_pair%%=*}
        _fd_value=${_fd_pair#*=}
        if [[ $_fd_key == *: ]]; then
            _fd_key=${_fd_key%:}
            if [[ -z ${_fd_value//[$' \t\n\r']/} ]]; then
                _formd_fail usage "formd_params: $_fd_key:= needs a JSON value"
                return 2
            fi
            _fd_value=${_fd_value//[$'\n\r']/$'\t'}
        else
            _formd_quote _fd_value "$_fd_value"
        fi
        _formd_quote _fd_quoted "$_fd_key"
        _fd_out+=${_fd_out:+,}$_fd_quoted:$_fd_value
    done
    printf -v "$_fd_into" '{%s}' "$_fd_out"
}

# _formd_quote VAR TEXT: TEXT as a JSON string (quotes included), into VAR.
_formd_quote() {
    local _fd_s=$2 _fd_c _fd_u _fd_i
    _fd_s=${_fd_s//'\'/'\\'}
    _fd_s=${_fd_s//'"'/'\"'}
    if [[ $_fd_s == *[$'\x01'-$'\x1f']* ]]; then
        _fd_s=${_fd_s//$'\n'/'\n'}
        _fd_s=${_fd_s//$'\t'/'\t'}
        _fd_s=${_fd_s//$'\r'/'\r'}
        for ((_fd_i = 1; _fd_i < 32; _fd_i++)); do
            printf -v _fd_c '%02x' "$_fd_i"
            printf -v _fd_c "\\x$_fd_c"
            printf -v _fd_u '\\u%04x' "$_fd_i"
            [[ $_fd_s != *"$_fd_c"* ]] || _fd_s=${_fd_s//"$_fd_c"/"$_fd_u"}
        done
    fi
    printf -v "$1" '"%s"' "$_fd_s"
}

# _formd_unquote VAR JSON_STRING: the text of a JSON string as formd writes it (escapes
# only for ", \ and control characters), into VAR.
_formd_unquote() {
    local _fd_s=${2#\"} _fd_out="" _fd_c
    _fd_s=${_fd_s%\"}
    while [[ $_fd_s == *\\* ]]; do
        _fd_out+=${_fd_s%%\\*}
        _fd_s=${_fd_s#*\\}
        _fd_c=${_fd_s:0:1}
        case $_fd_c in
        n) _fd_out+=$'\n' ;;
        t) _fd_out+=$'\t' ;;
        r) _fd_out+=$'\r' ;;
        b) _fd_out+=$'\b' ;;
        f) _fd_out+=$'\f' ;;
        u)
            printf -v _fd_c "\\u${_fd_s:1:4}"
            _fd_out+=$_fd_c
            _fd_s=${_fd_s:4}
            ;;
        *) _fd_out+=$_fd_c ;;
        esac
        _fd_s=${_fd_s:1}
    done
    printf -v "$1" '%s' "$_fd_out$_fd_s"
}

# Whether a result says the change did not happen (as `formd call` exits 1 for).
_formd_refused() {
    case $2 in
    '{"applied":false'* | '{"outcome":"refused"'* | '{"performed":false'*) return 0 ;;
    '{"valid":false'*) [[ $1 == validate || $1 == submit ]] ;;
    *) return 1 ;;
    esac
}

_formd_check() {
    if [[ -z ${FORMD_PID:-} || -z ${FORMD_IN:-} ]]; then
        _formd_fail closed "formd_call $1: formd is not started (formd_start)"
        return 2
    fi
    return 0
}

_formd_send() {
    _formd_trace ">" "$2"
    # In a subshell that ignores SIGPIPE, so a dead formd cannot kill the caller's shell.
    if ! (trap '' PIPE; printf '%s\n' "$2" >&"$FORMD_IN") 2>/dev/null; then
        _formd_fail closed "formd_call $1: cannot write to formd (it has exited)"
        return 2
    fi
}

_formd_fail() {
    FORMD_ERROR_CODE=$1
    FORMD_ERROR_MESSAGE=$2
    [[ -z ${FORMD_DIR:-} || ! -d ${FORMD_DIR:-} ]] || printf '%s\t%s\n' "$1" "$2" >"$FORMD_DIR/error"
    echo "$2" >&2
}

_formd_trace() {
    [[ -z ${FORMD_TRACE:-} ]] || printf '%s %s\n' "$1" "$2" >>"$FORMD_TRACE"
}

_formd_cleanup() {
    [[ -z ${FORMD_IN:-} ]] || { exec {FORMD_IN}>&-; } 2>/dev/null
    [[ -z ${FORMD_OUT:-} ]] || { exec {FORMD_OUT}<&-; } 2>/dev/null
    [[ -z ${FORMD_DIR:-} || ! -d ${FORMD_DIR:-} ]] || rm -rf "$FORMD_DIR"
    unset FORMD_PID FORMD_IN FORMD_OUT FORMD_DIR
}
