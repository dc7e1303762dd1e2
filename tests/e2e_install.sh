#!/bin/sh
# e2e_install.sh: `make install` puts a stripped binary and the man page
# under DESTDIR; `make install STRIP=` keeps the symbols.
cd "$(dirname "$0")/.." && . tests/lib.sh

if ! command -v readelf >/dev/null 2>&1; then
	skip "no readelf here (apt-get install binutils)"
	tap_done
	exit 0
fi
# symtab FILE: 1 when FILE has a symbol table, 0 when stripped.
symtab() {
	readelf -S "$1" 2>/dev/null | grep -c ' \.symtab '
}

env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install DESTDIR=$LIB_TMP/d PREFIX=/usr >$LIB_TMP/log 2>&1
is "make install: exit 0" "$?" 0
check "make install: the binary is there" test -x $LIB_TMP/d/usr/bin/lattop
check "make install: the man page is there" test -f $LIB_TMP/d/usr/share/man/man1/lattop.1
is "make install: the binary is stripped" "$(symtab $LIB_TMP/d/usr/bin/lattop)" 0
is "make install: and still runs" "$($LIB_TMP/d/usr/bin/lattop --version | cut -d' ' -f1)" lattop
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install DESTDIR=$LIB_TMP/k PREFIX=/usr STRIP= >$LIB_TMP/log 2>&1
is "make install STRIP=: exit 0" "$?" 0
is "make install STRIP=: the symbols are kept" "$(symtab $LIB_TMP/k/usr/bin/lattop)" 1
tap_done
