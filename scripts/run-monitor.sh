#!/bin/sh
# run-monitor.sh: what `make run` runs.  The real PMU when this machine has
# one lattop supports and the rights to use it; otherwise the simulator,
# saying why.  Extra arguments go to lattop (make run ARGS="-d 2").
cd "$(dirname "$0")/.." || exit 2
why=""
if ! ./lattop --detect --format json 2>/dev/null | grep -q '"supported":true'; then
	why=$(./lattop --detect 2>&1 | sed -n 's/^supported: *no: //p')
	[ -n "$why" ] || why="this CPU is not supported"
elif [ "$(id -u)" -ne 0 ]; then
	why="reading and writing MSRs needs root: run 'sudo make run' to measure this machine"
elif [ ! -e /dev/cpu/0/msr ]; then
	modprobe msr 2>/dev/null
	[ -e /dev/cpu/0/msr ] || why="no msr driver (modprobe msr failed)"
fi
if [ -z "$why" ]; then
	exec ./lattop $ARGS
fi
echo "lattop: not measuring this machine: $why" >&2
echo "lattop: running on the SIMULATOR instead: ./lattop --simulate haswell" >&2
exec ./lattop --simulate haswell $ARGS
