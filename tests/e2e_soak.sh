#!/bin/sh
# e2e_soak.sh: the short soak inside `make check` (tests/soak.sh): 16 runs,
# at most about 40 s; `make soak` is the long one.
cd "$(dirname "$0")/.." && exec sh tests/soak.sh 16 35
