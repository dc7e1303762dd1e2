#!/bin/sh
# deps.sh PKG...: install the Debian packages that are missing, when root;
# otherwise print the exact command and fail.
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "lattop: missing Debian packages; run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "lattop: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q $missing >/dev/null 2>&1 ||
	{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $missing >/dev/null; } ||
	{ echo "lattop: apt-get install$missing failed" >&2; exit 1; }
