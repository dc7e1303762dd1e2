# lib.sh: shell helpers for the end-to-end scripts (tests/e2e_*.sh).
#
# POSIX sh (dash).  Source it from the repository root, in the script's own
# shell (not a subshell: it keeps the pids of the msrfs it started):
#	cd "$(dirname "$0")/.." && . tests/lib.sh
#
# TAP:    ok NAME | not_ok NAME | skip REASON | diag TEXT | tap_done
#         check NAME CMD...   ok when CMD succeeds
#         is NAME GOT WANT    ok when the strings are equal, else shows both
# msrfs:  have_fuse (sets LIB_WHY when false) | msrfs_mount DIR ARGS... |
#         msrfs_umount DIR | msrfs_ctl DIR COMMAND... | regs_snapshot DIR [FILE]
# Files:  $LIB_TMP, a directory removed on exit.
#
# On EXIT, INT and TERM every msrfs still mounted is unmounted and stopped, so
# a failing or killed test never leaves a mount behind.  (msrfs itself also
# stops when its parent dies, and fusermount3's auto_unmount cleans up after
# an msrfs that is killed.)
# Truth:  within NAME GOT WANT | truth KEY CPU (from the profile $P) | jqe FILTER FILE
# Owns no test: only what the scripts share.

LIB_MSRFS=${LIB_MSRFS:-tests/msrfs/msrfs}
LIB_MOUNTS=""   # one "PID DIR" a line
LIB_WHY=""
LIB_SEQ=0
tap_n=0
tap_failed=0

LIB_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lattop-e2e.XXXXXX") || exit 2

# ---- TAP ----

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $*"
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $*"
}

diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

check() {
	_name=$1
	shift
	if "$@"; then
		ok "$_name"
	else
		not_ok "$_name"
		diag "failed: $*"
	fi
}

is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "got:  $2"
		diag "want: $3"
	fi
}

# poll SECS CMD...: run CMD every 0.1 s until it succeeds; 1 after SECS.
# CMD runs in this shell: a function may set what the caller reads next.
poll() {
	_pl_n=$(($1 * 10))
	shift
	while ! "$@"; do
		_pl_n=$((_pl_n - 1))
		[ $_pl_n -le 0 ] && return 1
		sleep 0.1
	done
	return 0
}

# eventually SECS NAME WANT CMD...: is NAME, with what CMD prints once it
# prints WANT or SECS seconds pass; 1 if it never did.  For a screen that
# answers a key at its next refresh: a fixed sleep before a plain is fails
# on a loaded machine.  A suite may define eventually_failed CMD...: what
# to say of a failure (the screen, say).
eventually() {
	_ev_name=$2 _ev_want=$3 _ev_n=$(($1 * 10))
	shift 3
	while _ev_got=$("$@"); [ "$_ev_got" != "$_ev_want" ] && [ $_ev_n -gt 0 ]; do
		sleep 0.1
		_ev_n=$((_ev_n - 1))
	done
	is "$_ev_name" "$_ev_got" "$_ev_want"
	[ "$_ev_got" = "$_ev_want" ] && return 0
	command -v eventually_failed >/dev/null && eventually_failed "$@"
	return 1
}

# Print the plan; the exit status is 1 when a test failed.
tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}

# ---- FUSE ----

# True when msrfs can be mounted here; else LIB_WHY says why not.
have_fuse() {
	if [ "$(id -u)" -ne 0 ]; then
		LIB_WHY="not root"
	elif [ ! -c /dev/fuse ]; then
		LIB_WHY="no /dev/fuse"
	elif ! command -v fusermount3 >/dev/null 2>&1; then
		LIB_WHY="no fusermount3 (apt-get install fuse3)"
	elif ! grep -qw fuse /proc/filesystems 2>/dev/null; then
		LIB_WHY="no fuse in /proc/filesystems (modprobe fuse)"
	else
		return 0
	fi
	return 1
}

# fuse_or_skip: the stand-in's mount point $M and a private state directory
# $S for the tests that mount it; without FUSE, one skip and the script ends.
fuse_or_skip() {
	M=$LIB_TMP/m
	S=$LIB_TMP/state
	mkdir -p $S && chmod 700 $S
	if ! have_fuse; then
		skip "no FUSE here: $LIB_WHY"
		tap_done
		exit 0
	fi
}

# sim_profile NAME [LINES...]: the simulator profile the FUSE tests share,
# in $LIB_TMP/p.NAME (its path printed), LINES added; 4 CPUs unless a line
# says otherwise.
sim_profile() {
	_sp=$LIB_TMP/p.$1
	shift
	{
		echo "loads_per_sec = 4e8"
		echo "load_latency = 5:0.70 20:0.20 70:0.06 300:0.04"
		echo "offcore_reads_per_sec = 2e7"
		echo "offcore_latency = 180"
		echo "snoop_hit_per_sec = 1e5"
		echo "hitm_per_sec = 5e4"
		for l in "$@"; do echo "$l"; done
		printf '%s\n' "$@" | grep -q '^cpus' || echo "cpus = 4"
	} >"$_sp"
	echo "$_sp"
}

lib_mounted() {
	# /proc/mounts escapes spaces as \040; test dirs have none.
	awk -v d="$1" '$2 == d { f = 1 } END { exit !f }' /proc/mounts
}

lib_abs() {
	case "$1" in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$(pwd)/$1" ;;
	esac
}

# msrfs_mount DIR ARGS...: serve DIR from msrfs ARGS in the background and
# wait (5 s at most) until DIR/0/msr exists.  Returns 1, with msrfs's
# messages as TAP diagnostics, when it does not come up.
msrfs_mount() {
	_dir=$(lib_abs "$1")
	shift
	mkdir -p "$_dir" || return 1
	LIB_SEQ=$((LIB_SEQ + 1))
	_log="$LIB_TMP/msrfs.$LIB_SEQ.log"
	"$LIB_MSRFS" "$_dir" "$@" -f >"$_log" 2>&1 &
	_pid=$!
	LIB_MOUNTS="$LIB_MOUNTS$_pid $_dir
"
	_i=0
	while [ ! -e "$_dir/0/msr" ]; do
		if ! kill -0 "$_pid" 2>/dev/null; then
			wait "$_pid" 2>/dev/null
			diag "msrfs $* did not start:"
			diag "$(cat "$_log")"
			lib_forget "$_pid"
			return 1
		fi
		_i=$((_i + 1))
		if [ $_i -ge 100 ]; then
			diag "msrfs $*: $_dir/0/msr did not appear in 5 s"
			diag "$(cat "$_log")"
			msrfs_umount "$_dir"
			return 1
		fi
		sleep 0.05
	done
	return 0
}

lib_forget() {
	LIB_MOUNTS=$(printf '%s' "$LIB_MOUNTS" | awk -v p="$1" '$1 != p')
	[ -n "$LIB_MOUNTS" ] && LIB_MOUNTS="$LIB_MOUNTS
"
}

# The pid of the msrfs serving DIR (empty when none).
msrfs_pid() {
	printf '%s' "$LIB_MOUNTS" | awk -v d="$(lib_abs "$1")" \
		'{ p = $1; sub(/^[0-9]+ /, ""); if ($0 == d) print p }' | tail -n 1
}

# msrfs_umount DIR: unmount and stop its msrfs (2 s, then SIGKILL).
msrfs_umount() {
	_dir=$(lib_abs "$1")
	_pid=$(msrfs_pid "$_dir")
	if lib_mounted "$_dir"; then
		fusermount3 -u "$_dir" 2>/dev/null || fusermount3 -uz "$_dir" 2>/dev/null
	fi
	[ -n "$_pid" ] || return 0
	_i=0
	while kill -0 "$_pid" 2>/dev/null; do
		_i=$((_i + 1))
		if [ $_i -eq 20 ]; then
			kill -TERM "$_pid" 2>/dev/null
		elif [ $_i -ge 40 ]; then
			kill -KILL "$_pid" 2>/dev/null
			break
		fi
		sleep 0.05
	done
	wait "$_pid" 2>/dev/null
	lib_mounted "$_dir" && fusermount3 -uz "$_dir" 2>/dev/null
	lib_forget "$_pid"
	return 0
}

# msrfs_ctl DIR COMMAND...: one line to DIR/control.
msrfs_ctl() {
	_dir=$1
	shift
	printf '%s\n' "$*" >"$_dir/control"
}

# regs_snapshot DIR [FILE]: every register of every online CPU (DIR/state).
regs_snapshot() {
	if [ $# -ge 2 ]; then
		cat "$1/state" >"$2"
	else
		cat "$1/state"
	fi
}

# regs_unchanged TESTNAME DIR BEFORE [ERE]: ok when DIR's registers now are
# those of the snapshot BEFORE, lines matching ERE left out (registers that
# count for another owner, or that the test expects to change).
regs_unchanged() {
	_rn=$1 _rd=$2 _rb=$3 _rs=${4:-'^$'}
	regs_snapshot "$_rd" "$LIB_TMP/regs.now"
	grep -v -E -- "$_rs" "$_rb" >"$LIB_TMP/regs.b"
	grep -v -E -- "$_rs" "$LIB_TMP/regs.now" >"$LIB_TMP/regs.a"
	if cmp -s "$LIB_TMP/regs.b" "$LIB_TMP/regs.a"; then
		ok "$_rn"
	else
		not_ok "$_rn"
		diag "$(diff "$LIB_TMP/regs.b" "$LIB_TMP/regs.a" | head -12)"
	fi
}

lib_cleanup() {
	while [ -n "$LIB_MOUNTS" ]; do
		_d=$(printf '%s' "$LIB_MOUNTS" | head -n 1 | sed 's/^[0-9]* //')
		_p=$(printf '%s' "$LIB_MOUNTS" | head -n 1 | sed 's/ .*//')
		msrfs_umount "$_d"
		lib_forget "$_p"
	done
	[ -n "$LIB_TMP" ] && rm -rf --one-file-system "$LIB_TMP"
}

trap lib_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# wait_for FILE PATTERN SECONDS: until FILE has a line matching PATTERN;
# 1 when SECONDS pass first.
wait_for() {
	_i=0
	while ! grep -q -- "$2" "$1" 2>/dev/null; do
		_i=$((_i + 1))
		[ $_i -ge $(($3 * 20)) ] && return 1
		sleep 0.05
	done
}

# sim_uarchs_version OP N: the simulated microarchitectures (lattop
# --list-uarchs) whose PMU reports a perfmon version OP N (test's -eq, -ge...).
sim_uarchs_version() {
	for _u in $(./lattop --list-uarchs --format json | jq -r '.[].name'); do
		[ "$(./lattop --detect --simulate $_u --format json | jq .pmu.version)" "$1" "$2" ] &&
			printf '%s ' "$_u"
	done
}

# ---- ground truth (tests/e2e_sim.sh, e2e_wrap.sh, e2e_htbug.sh) ----

# within NAME GOT WANT: ok when |GOT - WANT| <= 2% of WANT (exactly 0 when WANT is 0)
# within_se NAME GOT WANT SE: GOT within 2% of WANT, or within four of its
# standard errors SE when those are wider: an estimate from randomly tagged
# loads is a sample, and a test of it must not fail one run in twenty.
within_se() {
	if awk -v g="$2" -v w="$3" -v se="$4" 'BEGIN { if (g == "null" || g == "") exit 1;
		d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w; tol = 0.02 * a;
		if (se != "null" && se != "" && 4 * se > tol) tol = 4 * se;
		exit !(a == 0 ? d == 0 : d <= tol) }'; then
		ok "$1"
	else
		not_ok "$1"
		diag "got $2, want $3 (within 2% or 4 standard errors, $4)"
	fi
}

within() {
	if awk -v g="$2" -v w="$3" 'BEGIN { if (g == "null" || g == "") exit 1;
		d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w;
		exit !(a == 0 ? d == 0 : d <= 0.02 * a) }'; then
		ok "$1"
	else
		not_ok "$1"
		diag "got $2, want $3 (within 2%)"
	fi
}

# truth KEY N: the value of KEY for logical CPU N in the profile $P (its
# cpuN. override, else the global line, else 0).
truth() {
	v=$(sed -n "s/^cpu$2\\.$1 *= *\\([^ #]*\\).*/\\1/p" $P)
	[ -n "$v" ] || v=$(sed -n "s/^$1 *= *\\([^ #]*\\).*/\\1/p" $P)
	[ -n "$v" ] || v=0
	awk -v v="$v" 'BEGIN { printf "%.10g\n", v }'
}

# jqe FILTER FILE: true when the filter's last output is true.
jqe() {
	jq -e "$@" >/dev/null
}

# ---- the key table as `lattop --help` prints it (e2e_keys.sh, e2e_screen.sh) ----

# help_keys HELPFILE HEAD: the keys of the list under the line that begins
# with HEAD, one "name<TAB>what it does" a line: a continuation line (26
# spaces) belongs to the key above it, a long name has a line of its own.
help_keys() {
	awk -v head="$2" '
	function flush() { if (name != "") print name "\t" text; name = ""; text = "" }
	index($0, head) == 1 { f = 1; next }
	!f { next }
	/^$/ { flush(); exit }
	/^                          / { sub(/^ +/, ""); text = text (text == "" ? "" : " ") $0; next }
	/^  [^ ]/ { flush(); line = substr($0, 3); n = split(line, w, /   +/);
		name = w[1]; text = n > 1 ? w[n] : ""; next }
	END { flush() }' "$1"
}

# ---- the screen in tmux (e2e_lines_screen.sh) ----

# A tmux server of its own per session: a new one never races the one dying.
# tmux_start NAME WIDTH HEIGHT COMMAND: session "s" on a server named after
# NAME; tmux_on ARGS: tmux on it; tmux_screen: what it shows;
# tmux_wait TEXT: until it shows TEXT (3 s at most); tmux_shows ERE: it
# shows a line matching ERE; tmux_cleanup: every server started, gone.
TMUX_SOCKS=""
tmux_on() {
	env -u TMUX tmux -L "$TMUX_SOCK" -f /dev/null "$@"
}

tmux_start() {
	TMUX_SOCK=lattop-$$-$1
	TMUX_SOCKS="$TMUX_SOCKS $TMUX_SOCK"
	tmux_on new-session -d -s s -x "$2" -y "$3" "$4"
}

tmux_screen() {
	tmux_on capture-pane -p -t s 2>/dev/null
}

tmux_wait() {
	_n=30
	while [ $_n -gt 0 ]; do
		tmux_screen | grep -qF -- "$1" && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}

tmux_shows() {
	tmux_screen | grep -qE -- "$1"
}

# tmux (3.3) leaves its socket behind when its server is killed: removed,
# or every run of the suite leaves dozens in /tmp/tmux-UID.
tmux_sock_rm() {
	[ -z "$1" ] || rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$1"
}

tmux_cleanup() {
	for _s in $TMUX_SOCKS; do
		env -u TMUX tmux -L "$_s" kill-server 2>/dev/null
		tmux_sock_rm "$_s"
	done
}
