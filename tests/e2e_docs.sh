#!/bin/sh
# e2e_docs.sh: every user-facing behaviour appears in --help, the man page
# and README in the same words; the man page is clean under mandoc -Tlint
# and man --warnings.
cd "$(dirname "$0")/.." && . tests/lib.sh

./lattop --help >$LIB_TMP/help
# README carries the help text verbatim, in the block after "`lattop --help`:".
awk '/^`lattop --help`:/ { f = 1; next } f && /^```$/ { if (in_) exit; in_ = 1; next } in_' README.md >$LIB_TMP/readme
if cmp -s $LIB_TMP/help $LIB_TMP/readme; then
	ok "README carries lattop --help verbatim"
else
	not_ok "README carries lattop --help verbatim"
	diag "$(diff $LIB_TMP/help $LIB_TMP/readme | head -10)"
fi

# The man page, rendered and with white space folded, says each option's
# description in the help's words.
mandoc -Tascii -O width=200 man/lattop.1 | col -bx | tr -s ' \n' '  ' >$LIB_TMP/man
# Continuation lines belong to the description above them.  (mawk: no {n,}.)
awk '/^  +(-[a-zA-Z], )?--[a-z-]+( [A-Z]+)?   */ { if (d) print d; sub(/^  +(-[a-zA-Z], )?--[a-z-]+( [A-Z]+)?   */, ""); d = $0; next }
     /^                    / && d { sub(/^ +/, ""); d = d " " $0; next }
     { if (d) print d; d = "" } END { if (d) print d }' $LIB_TMP/help >$LIB_TMP/descs
n=0 miss=0
while IFS= read -r d; do
	n=$((n + 1))
	if ! grep -qF -- "$d" $LIB_TMP/man; then
		miss=$((miss + 1))
		diag "not in the man page: $d"
	fi
done <$LIB_TMP/descs
check "help has option descriptions ($n)" test $n -ge 16
is "the man page says every option as --help does" $miss 0
# The keys: the man page's KEYS section says each in the same words.
awk '/^Keys on the screen:/ { f = 1; next } f && /^$/ { exit }
     f && /^  [^ ]/ { line = $0; sub(/^  /, "", line); n = split(line, w, "   +"); if (n > 1) print w[n]; next }
     f && /^          / { sub(/^ +/, ""); print }' $LIB_TMP/help >$LIB_TMP/keys
nk=0 miss=0
while IFS= read -r d; do
	nk=$((nk + 1))
	grep -qF -- "$d" $LIB_TMP/man || { miss=$((miss + 1)); diag "key not in the man page: $d"; }
done <$LIB_TMP/keys
check "help lists the keys ($nk)" test $nk -ge 11
is "the man page says every key as --help does" $miss 0
for opt in $(grep -o -- '--[a-z][a-z-]*' $LIB_TMP/help | sort -u); do
	grep -qF -- "$opt" README.md || { not_ok "README names $opt"; continue; }
done
ok "README names every option"

# Rendered by groff and by mandoc: the footer names lattop and its version,
# keys read as typed, the nested JSON key lists have balanced quotes.
ver=$(./lattop --version)
for r in "groff -mdoc -Tutf8 -rLL=1000n" "mandoc -Tutf8 -Owidth=1000"; do
	if ! command -v ${r%% *} >/dev/null 2>&1; then
		skip "no ${r%% *} here (apt-get install ${r%% *})"
		continue
	fi
	$r man/lattop.1 2>/dev/null | col -bx >$LIB_TMP/rendered
	has_text() { tr -s ' \n' '  ' <$LIB_TMP/rendered | grep -qF -- "$1"; }
	_foot=$(grep -v '^ *$' $LIB_TMP/rendered | tail -n 1)
	case $_foot in
	*"$ver "*"$ver") ok "${r%% *}: the footer names $ver" ;;
	*) not_ok "${r%% *}: the footer names $ver"; diag "footer: $_foot" ;;
	esac
	check "${r%% *}: the help key renders as typed, 'h ? F1'" grep -q '^ *h ? F1 *this help' $LIB_TMP/rendered
	check "${r%% *}: the pmu keys render with balanced quotes" \
		has_text '“pmu”, an object with “version”, “gp_counters”, “gp_width”, “fixed_counters” and “fixed_width”.'
	check "${r%% *}: the floor line renders with balanced quotes" \
		has_text '“floor”, the MSR operations per logical CPU per interval that this plan cannot do without: “reads”, the counters each slot reads, and “writes”, the registers'
	is "${r%% *}: no doubled quotes anywhere" "$(grep -c '““\|””' $LIB_TMP/rendered)" 0
	check "${r%% *}: the note key is documented as optional" has_text '“note” is optional'
done
# The first synopsis line, measuring, takes --state-dir as the man page's does.
check "--help: the measuring synopsis lists --state-dir" \
	sh -c "sed -n '1,/^       lattop --detect/p' $LIB_TMP/help | grep -q -- '--state-dir DIR'"
# TERM=dumb and standard input not a terminal, on a terminal, behave as the man page says.
if command -v script >/dev/null 2>&1; then
	TERM=dumb script -qec "./lattop --simulate haswell -n 1 -d 0.1" /dev/null >$LIB_TMP/dumb 2>&1
	is "TERM=dumb: the screen is refused, exit 1" "$?" 1
	check "TERM=dumb: it says so and names --once and -b" grep -q "cannot move its cursor: use --once or -b" $LIB_TMP/dumb
	check "the man page says what TERM=dumb does" has_text 'such as ‘TERM=dumb’, or one without a terminfo entry, or with TERM unset, the screen cannot be drawn: lattop says so and exits 1'
	TERM=xterm script -qec "./lattop --simulate haswell -n 1 -d 0.1 </dev/null" /dev/null >$LIB_TMP/stdin 2>&1
	check "standard input not a terminal: a text report, as --batch" grep -q '^total ' $LIB_TMP/stdin
	check "... as --help says" grep -q 'input or output is not a terminal' $LIB_TMP/help
else
	skip "no script(1) here (apt-get install bsdutils)"
fi

out=$(mandoc -Tlint -W warning man/lattop.1 2>&1)
is "mandoc -Tlint -W warning is clean" "$out" ""
out=$(MANWIDTH=80 man --warnings -l man/lattop.1 2>&1 >/dev/null | grep -v 'mandoc.db')
is "man --warnings is clean" "$out" ""
tap_done
