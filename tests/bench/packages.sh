# SPDX-License-Identifier: BSD-2-Clause
#
# packages.sh: what make bench needs beyond the build tools, on a Debian
# host, as tools/packages.debian lists it: gnuplot for the plots, the
# peers (busybox; uutils from rust-coreutils; GNU coreutils is always
# there), strace for the system call counts and the bytes tail reads,
# xfsprogs and btrfs-progs for the copies that clone.
#
#	sh packages.sh full | quick
#
# full: installs what is missing when run as root (as the top GNUmakefile
# installs the build tools), or prints the one apt-get line and fails.
# quick (make bench QUICK=1, which CI runs and which must not need the
# network), or BENCH_NOINSTALL=1: names what is missing, and the run goes
# on without the cases that need it.  Elsewhere than Debian it only says
# what the report will lack.

set -u

# The tree's one list of packages says which.
BENCH_PACKAGES=$(sh "$(dirname "$0")/../../tools/packages.sh" bench)
mode=${1:-full}

if ! command -v dpkg-query > /dev/null 2>&1 ||
    ! command -v apt-get > /dev/null 2>&1; then
	echo "bench: not a Debian host: the peers (busybox, uutils), gnuplot" \
	    "and strace that are missing here are skipped" >&2
	exit 0
fi

missing=
for p in $BENCH_PACKAGES; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
	    grep -q '^install ok installed' || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

if [ "$mode" = quick ] || [ "${BENCH_NOINSTALL:-0}" = 1 ]; then
	echo "bench: not installing$missing; the cases that need them are" \
	    "skipped (apt-get install -y$missing)" >&2
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "bench: missing packages; run:" >&2
	echo "	sudo apt-get install -y$missing" >&2
	echo "bench: (or make bench BENCH_NOINSTALL=1 to run without them)" >&2
	exit 1
fi
echo "bench: installing$missing"
apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing \
    > /dev/null || {
	echo "bench: apt-get failed" >&2
	exit 1
}
exit 0
