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
mandoc -Tascii -O width=200 man/lattop.1 | col -b | tr -s ' \n' '  ' >$LIB_TMP/man
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

out=$(mandoc -Tlint -W warning man/lattop.1 2>&1)
is "mandoc -Tlint -W warning is clean" "$out" ""
out=$(MANWIDTH=80 man --warnings -l man/lattop.1 2>&1 >/dev/null | grep -v 'mandoc.db')
is "man --warnings is clean" "$out" ""
tap_done
