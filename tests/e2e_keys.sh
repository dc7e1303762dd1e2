#!/bin/sh
# e2e_keys.sh: the man page's KEYS lists are the key table's (ui/keys.c).
#
# `lattop --help` prints the table's rows (the screen's keys, then the
# replay's own); the man page's two lists under KEYS must name the same
# keys, in the same order, each with the same words.  README carries
# --help verbatim (tests/e2e_docs.sh), the help screen draws the same rows
# (tests/e2e_screen.sh), and the screen dispatches keys from them.
cd "$(dirname "$0")/.." && . tests/lib.sh

if [ ! -x ./lattop ]; then
	not_ok "./lattop is built (make lattop)"
	tap_done
	exit 1
fi
./lattop --help >$LIB_TMP/help

help_keys $LIB_TMP/help "Keys on the screen:" >$LIB_TMP/help.screen
help_keys $LIB_TMP/help "Keys replaying a recording on the screen" >$LIB_TMP/help.replay

# The man page's source: under .Sh KEYS, the Nth .Bl list, ".It Ic NAME"
# then the text up to the next .It or .El.
man_keys() {
	awk -v want="$1" '
	function flush() { if (name != "") print name "\t" text; name = ""; text = "" }
	/^\.Sh / { keys = ($0 == ".Sh KEYS"); next }
	!keys { next }
	/^\.Bl / { bl++; next }
	bl != want { next }
	/^\.El/ { flush(); exit }
	/^\.It Ic / { flush(); name = substr($0, 8); gsub(/\\&/, "", name); next }
	/^\./ { next }
	{ gsub(/\\&/, ""); text = text (text == "" ? "" : " ") $0 }' man/lattop.1
}
man_keys 1 >$LIB_TMP/man.screen
man_keys 2 >$LIB_TMP/man.replay

for l in screen replay; do
	n=$(wc -l <$LIB_TMP/help.$l)
	check "--help lists the $l keys ($n)" test "$n" -ge 4
	if cmp -s $LIB_TMP/help.$l $LIB_TMP/man.$l; then
		ok "man KEYS: the $l keys are the table's, in its order and words"
	else
		not_ok "man KEYS: the $l keys are the table's, in its order and words"
		diag "$(diff $LIB_TMP/help.$l $LIB_TMP/man.$l | head -20)"
	fi
done

# The table's facts that --help shows: every key once per list, the steps
# of + - as the screen steps (tests/e2e_screen.sh steps through them).
is "no key listed twice on the screen" "$(cut -f1 $LIB_TMP/help.screen | sort | uniq -d)" ""
is "no key listed twice for a replay" "$(cut -f1 $LIB_TMP/help.replay | sort | uniq -d)" ""
check "Ctrl-Z is listed" grep -q '^Ctrl-Z	stop' $LIB_TMP/help.screen
check "the panes' toggles are listed as 1 2 3" grep -q '^1 2 3	show or hide' $LIB_TMP/help.screen
tap_done
