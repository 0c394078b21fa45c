# SPDX-License-Identifier: BSD-2-Clause
#
# bench.sh: the benchmarks behind `make bench`.
#
# Compares the tree's cat, cp and yes with GNU's, busybox's and uutils'
# (those installed), and measures the machine's limits and libbufsz's
# throughput against buffer size.  Writes a Markdown report, the raw runs
# and gnuplot PNGs under ${OBJTOP}/bench/.  See README in this directory.
#
# Environment: ROOT (where the tree is installed: ${ROOT}/bin/cat ...),
# OBJTOP (where to write), BENCHBIN (where timeit, sweep and limits are
# built), QUICK=1 (small files and few runs, under a minute: for CI),
# TMPDIR (an ext4 or other disk file system), SHMDIR (a tmpfs; /dev/shm).
#
# It fails only when one of the tree's programs crashes or gets a byte
# wrong, never on a timing.

set -u

: "${ROOT:=}"
: "${OBJTOP:=obj}"
: "${QUICK:=0}"
: "${BENCHBIN:=.}"
: "${SHMDIR:=/dev/shm}"
[ "$QUICK" = 0 ] || [ "$QUICK" = 1 ] || QUICK=1

OUT=$OBJTOP/bench
RAW=$OUT/runs.tsv
TIMEIT=$BENCHBIN/timeit
FAILED=0
NOTES=$OUT/notes.txt

if [ "$QUICK" = 1 ]; then
	BIG=$((32 * 1024 * 1024))
	NDIRS=10 NFILES=1000
	RUNS=3
	WINDOW=0.2
	SWEEPARGS="-n 3 -s 16m -b 4k,32k,128k,1m,16m"
	COLDARGS="-n 3 -s 16m -b 4k,128k,1m -o null,file"
	LIMITARGS="-n 3 -s 32m"
	NSTRACE=200
else
	BIG=$((1024 * 1024 * 1024))
	NDIRS=200 NFILES=20000
	RUNS=5
	WINDOW=0.5
	SWEEPARGS="-n 5 -s 256m"
	COLDARGS="-n 5 -s 128m -b 4k,32k,128k,512k,1m,4m,16m -o null,pipe,file"
	LIMITARGS="-n 5 -s 1g"
	NSTRACE=2000
fi

progress() {
	echo "bench: $*" >&2
}

note() {
	echo "$*" >> "$NOTES"
	progress "$*"
}

# A failure of the tree's own program fails the run; another tool's is
# only noted (busybox lacks options, for instance).
fail() {
	# $1 tool, $2 message
	if [ "$1" = ours ]; then
		FAILED=1
		note "FAIL: $2"
	else
		note "note: $1: $2"
	fi
}

cleanup() {
	[ -n "${WORK:-}" ] && rm -rf "$WORK"
	[ -n "${SHMWORK:-}" ] && rm -rf "$SHMWORK"
}

# ---------------------------------------------------------------------------
# The tools.  tool_cmd PROG TOOL prints the command, or nothing when that
# tool is not installed here.

GNUBIN=
for d in /bin /usr/bin /usr/local/bin /usr/local/opt/coreutils/libexec/gnubin
do
	if "$d/cat" --version 2>/dev/null | grep -q 'GNU coreutils'; then
		GNUBIN=$d
		break
	fi
done
UUBIN=
for d in /usr/lib/cargo/bin/coreutils /usr/lib/cargo/bin /usr/local/bin
do
	# uutils names itself by its path: "/usr/lib/.../cat 0.0.17".
	if [ -x "$d/cat" ] && "$d/cat" --version 2>/dev/null | head -n 1 |
	    grep -Eq '(^|/)cat [0-9][0-9.]*$'; then
		UUBIN=$d
		break
	fi
done
BUSYBOX=$(command -v busybox 2>/dev/null || true)

tool_cmd() {
	case $2 in
	ours)
		case $1 in
		yes)	p=$ROOT/usr/bin/yes ;;
		*)	p=$ROOT/bin/$1 ;;
		esac
		[ -x "$p" ] && echo "$p" ;;
	gnu)
		[ -n "$GNUBIN" ] && [ -x "$GNUBIN/$1" ] && echo "$GNUBIN/$1" ;;
	busybox)
		[ -n "$BUSYBOX" ] && "$BUSYBOX" --list 2>/dev/null | \
		    grep -qx "$1" && echo "$BUSYBOX $1" ;;
	uutils)
		[ -n "$UUBIN" ] && [ -x "$UUBIN/$1" ] && echo "$UUBIN/$1" ;;
	esac
}

# The tools installed for PROG, ours first.
tools_for() {
	t=
	for k in ours gnu busybox uutils; do
		[ -n "$(tool_cmd "$1" "$k")" ] && t="$t $k"
	done
	echo $t
}

# Say once which tools are missing.
note_missing() {
	for p in cat cp yes; do
		for k in ours gnu busybox uutils; do
			[ -n "$(tool_cmd $p $k)" ] ||
			    note "skipped: $p from $k (not installed here)"
		done
	done
}

# ---------------------------------------------------------------------------
# Input data: real bytes (not sparse) made once, cached, removed at the end.

make_data() {
	progress "making data: $BIG bytes," \
	    "$NFILES files of 4 KiB in $NDIRS directories"
	head -c "$BIG" /dev/urandom > "$WORK/big" || exit 1
	BIGSUM=$(cksum < "$WORK/big")
	# A sparse file of the same size: 1 MiB of data every 64 MiB.
	: > "$WORK/sparse"
	off=0
	while [ $off -lt $((BIG / 1048576)) ]; do
		dd if="$WORK/big" of="$WORK/sparse" bs=1048576 count=1 \
		    skip=$off seek=$off conv=notrunc 2>/dev/null || exit 1
		off=$((off + 64))
	done
	truncate -s "$BIG" "$WORK/sparse" 2>/dev/null || \
	    dd if=/dev/null of="$WORK/sparse" bs=1 seek="$BIG" 2>/dev/null
	SPARSESUM=$(cksum < "$WORK/sparse")
	mkdir "$WORK/small" || exit 1
	awk -v dir="$WORK/small" -v nd="$NDIRS" -v nf="$NFILES" 'BEGIN {
		for (d = 0; d < nd; d++)
			printf "%s/d%03d\n", dir, d
	}' | xargs mkdir || exit 1
	# 4096 bytes a file, different in every file.
	awk -v dir="$WORK/small" -v nd="$NDIRS" -v nf="$NFILES" 'BEGIN {
		# 63 characters and a newline.
		line = "0123456789abcdefghijklmnopqrstuvwxyz"
		line = line "ABCDEFGHIJKLMNOPQRSTUVWXYZ-"
		for (i = 0; i < 63; i++)
			body = body line "\n"
		for (f = 0; f < nf; f++) {
			p = sprintf("%s/d%03d/f%05d", dir, f % nd, f)
			printf "%63d\n%s", f, body > p
			close(p)
			print p > (dir "/../list")
		}
	}' || exit 1
	SMALLSUM=$(xargs cat < "$WORK/list" | cksum)
	SMALLBYTES=$((NFILES * 4096))
	# The files for strace: the first NSTRACE of them, in one directory.
	mkdir "$WORK/few"
	head -n "$NSTRACE" "$WORK/list" | xargs -I{} cp {} "$WORK/few/"
	# yes(1)'s reference: the first MiB of "y\n" lines.
	awk 'BEGIN { for (i = 0; i < 524288; i++) print "y" }' > "$WORK/yes.ref"
	YESSUM=$(cksum < "$WORK/yes.ref")
	# Warm the cache.
	cat "$WORK/big" "$WORK/sparse" > /dev/null
	xargs cat < "$WORK/list" > /dev/null
}

# ---------------------------------------------------------------------------
# Runs.  run CASE TOOL K timeit-arguments...: one timed run, its line in
# the raw file: case tool k seconds user sys maxrss_kib status bytes.

run() {
	_c=$1 _t=$2 _k=$3
	shift 3
	line=$("$TIMEIT" "$@") || { fail "$_t" "$_c: timeit failed"; return 1; }
	set -- $line
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	    "$_c" "$_t" "$_k" "$1" "$2" "$3" "$4" "$5" "$6" >> "$RAW"
	if [ "$5" != 0 ]; then
		fail "$_t" "$_c run $_k: exit status $5"
		return 1
	fi
	LASTBYTES=$6
	return 0
}

# measure CASE PROG: a warm-up and check of each tool, then RUNS rounds,
# each running every tool once, the order rotating round by round.
# Calls case_CASE TOOL CMD K for a run (K=0: the checked warm-up).
measure() {
	c=$1 prog=$2
	tools=$(tools_for "$prog")
	ok=
	for t in $tools; do
		progress "$c: checking $t"
		if case_"$c" "$t" "$(tool_cmd "$prog" "$t")" 0; then
			ok="$ok $t"
		fi
	done
	set -- $ok
	n=$#
	[ $n -gt 0 ] || return 0
	r=1
	while [ $r -le "$RUNS" ]; do
		i=0
		while [ $i -lt $n ]; do
			j=$(( (i + r) % n + 1 ))
			eval "t=\${$j}"
			progress "$c: run $r of $RUNS: $t"
			case_"$c" "$t" "$(tool_cmd "$prog" "$t")" $r || true
			i=$((i + 1))
		done
		r=$((r + 1))
	done
}

sum_ok() {
	# $1 tool, $2 case, $3 expected, $4 got
	[ "$3" = "$4" ] && return 0
	fail "$1" "$2: wrong output (cksum $4, expected $3)"
	return 1
}

size_ok() {
	# $1 tool, $2 case, $3 file, $4 expected size
	s=$(wc -c < "$3" 2>/dev/null | tr -d ' ')
	[ "$s" = "$4" ] && return 0
	fail "$1" "$2: $3 has ${s:-no} bytes, not $4"
	return 1
}

# Each case_X TOOL CMD K.  K=0 checks the output in full; the timed runs
# check what is cheap to check (exit status, sizes, counts).

case_cat_null() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" cat_null "$BIGSUM" "$($2 "$WORK/big" | cksum)" ||
		    return 1
	fi
	run cat_null "$1" "$3" -o /dev/null $2 "$WORK/big"
}

case_cat_wc() {
	run cat_wc "$1" "$3" -o "$WORK/wc.out" $2 "$WORK/big" '|' wc -c ||
	    return 1
	[ "$(tr -d ' ' < "$WORK/wc.out")" = "$BIG" ] && return 0
	fail "$1" "cat_wc: wc -c counted $(cat "$WORK/wc.out")"
	return 1
}

case_cat_cat() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" cat_cat "$BIGSUM" \
		    "$($2 "$WORK/big" | $2 | cksum)" || return 1
	fi
	run cat_cat "$1" "$3" $2 "$WORK/big" '|' $2
}

# A new file each run; the last one goes just before it (see README).
case_cat_file() {
	rm -f "$WORK"/cf.*
	run cat_file "$1" "$3" -o "$WORK/cf.$1.$3" $2 "$WORK/big" || return 1
	if [ "$3" = 0 ]; then
		cmp -s "$WORK/big" "$WORK/cf.$1.$3" ||
		    { fail "$1" "cat_file: the copy differs"; return 1; }
	fi
	size_ok "$1" cat_file "$WORK/cf.$1.$3" "$BIG"
}

case_cat_small() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" cat_small "$SMALLSUM" \
		    "$(xargs $2 < "$WORK/list" | cksum)" || return 1
	fi
	run cat_small "$1" "$3" -i "$WORK/list" -o /dev/null xargs $2
}

# cp_big DIR NAME TOOL CMD K SRC SUM
cp_big() {
	rm -f "$1"/cp.*
	run "$2" "$3" "$5" $4 "$6" "$1/cp.$3.$5" || return 1
	if [ "$5" = 0 ]; then
		cmp -s "$6" "$1/cp.$3.$5" ||
		    { fail "$3" "$2: the copy differs"; return 1; }
	fi
	size_ok "$3" "$2" "$1/cp.$3.$5" "$BIG"
}

case_cp_ext4() {
	cp_big "$WORK/dst" cp_ext4 "$1" "$2" "$3" "$WORK/big"
}

case_cp_tmpfs() {
	cp_big "$SHMWORK" cp_tmpfs "$1" "$2" "$3" "$WORK/big"
}

case_cp_sparse() {
	cp_big "$WORK/dst" cp_sparse "$1" "$2" "$3" "$WORK/sparse" ||
	    return 1
	if [ "$3" = 0 ]; then
		printf 'cp_sparse\t%s\t%s\n' "$1" \
		    "$(du -k "$WORK/dst/cp.$1.0" | cut -f1)" \
		    >> "$OUT/sparse.tsv"
	fi
}

# Trees on ext4 are never removed before the end: copying into the
# place of a removed tree is many times slower for minutes.  tmpfs has
# no such trap, and may be small (a container's /dev/shm).
cp_tree() {
	run "$2" "$3" "$5" $4 -R "$WORK/small" "$1/t.$3.$5" || return 1
	if [ "$5" = 0 ]; then
		diff -r "$WORK/small" "$1/t.$3.$5" > /dev/null ||
		    { fail "$3" "$2: the tree differs"; return 1; }
	fi
	[ "$1" != "$SHMWORK" ] || rm -rf "$1/t.$3.$5"
}

case_cp_tree_ext4() {
	cp_tree "$WORK/dst" cp_tree_ext4 "$1" "$2" "$3"
}

case_cp_tree_tmpfs() {
	cp_tree "$SHMWORK" cp_tree_tmpfs "$1" "$2" "$3"
}

case_yes_pipe() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" yes_pipe "$YESSUM" \
		    "$($2 | head -c 1048576 | cksum)" || return 1
	fi
	run yes_pipe "$1" "$3" -c -w "$WINDOW" $2
}

case_yes_null() {
	run yes_null "$1" "$3" -w "$WINDOW" -o /dev/null $2
}

# ---------------------------------------------------------------------------
# System calls per small file, counted with strace -f -c.

count_syscalls() {
	command -v strace > /dev/null 2>&1 || {
		note "skipped: system call counts (no strace)"
		return 0
	}
	for prog in cat cp; do
		for t in ours gnu busybox uutils; do
			cmd=$(tool_cmd $prog $t)
			[ -n "$cmd" ] || continue
			progress "syscalls: $prog from $t"
			f=$OUT/strace.$prog.$t
			if [ $prog = cat ]; then
				(cd "$WORK/few" && strace -f -c -o "$f" \
				    $cmd $(ls) > /dev/null)
			else
				strace -f -c -o "$f" $cmd -R "$WORK/few" \
				    "$WORK/dst/strace.$t"
			fi
			# strace -c: % time, seconds, usecs/call, calls,
			# errors (blank when none), syscall.
			awk -v p=$prog -v t=$t -v n="$NSTRACE" '
			    $1 !~ /^[0-9.]+$/ { next }
			    $NF == "total" { tot = $4; next }
			    { calls[$NF] = $4 }
			    END {
				top = ""
				for (s in calls)
					if (calls[s] >= n / 2)
						top = top sprintf(" %s:%.1f",
						    s, calls[s] / n)
				printf "%s\t%s\t%d\t%.1f\t%s\n", p, t, tot,
				    tot / n, top
			    }' "$f" >> "$OUT/syscalls.tsv"
		done
	done
}

# ---------------------------------------------------------------------------

main() {
	# Without the tree's programs there is nothing to compare.
	for p in cat cp yes; do
		[ -n "$(tool_cmd $p ours)" ] && continue
		echo "bench: no $p under ROOT=$ROOT:" \
		    "build and install the tree first (make)" >&2
		exit 1
	done
	mkdir -p "$OUT" || exit 1
	rm -f "$OUT"/*.tsv "$OUT"/*.png "$OUT"/*.md "$OUT"/*.dat \
	    "$OUT"/*.plots "$OUT"/strace.* "$OUT"/gnuplot.log "$NOTES"
	: > "$NOTES"
	trap cleanup EXIT
	trap 'exit 1' INT TERM HUP
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench.XXXXXX") || exit 1
	# tmpfs cases need a tmpfs with room for the big file and a tree.
	need=$(( (BIG + NFILES * 4096) / 1024 * 5 / 4 ))
	room=$(df -kP "$SHMDIR" 2>/dev/null | awk 'NR == 2 { print $4 }')
	if [ "${room:-0}" -ge "$need" ] 2>/dev/null; then
		SHMWORK=$(mktemp -d "$SHMDIR/bench.XXXXXX") || exit 1
		TMPFSCASES="cp_tmpfs cp_tree_tmpfs"
		SWEEPOUTS=null,pipe,file,tmpfs
		LIMITNAMES=
	else
		note "skipped: the tmpfs cases" \
		    "($SHMDIR has ${room:-no} KiB free, they need $need)"
		SHMWORK=$WORK/shm
		mkdir "$SHMWORK" || exit 1
		TMPFSCASES=
		SWEEPOUTS=null,pipe,file
		LIMITNAMES="memcpy memcpy-l2 read pipe write-file cfr"
		LIMITNAMES="$LIMITNAMES splice-file splice-null"
	fi
	mkdir "$WORK/dst" || exit 1
	note_missing
	START=$(date +%s)
	make_data

	progress "limits"
	"$BENCHBIN/limits" -q -d "$WORK" -t "$SHMWORK" -R "$OUT/limits.tsv" \
	    $LIMITARGS $LIMITNAMES > "$OUT/limits.md" ||
	    fail ours "limits crashed"
	progress "sweep: warm (prints a line a run)"
	"$BENCHBIN/sweep" -d "$WORK" -t "$SHMWORK" -o $SWEEPOUTS \
	    -R "$OUT/sweep.tsv" $SWEEPARGS > "$OUT/sweep-warm.md" ||
	    fail ours "sweep (warm) failed"
	progress "sweep: cold (the input evicted before each run)"
	"$BENCHBIN/sweep" -c -d "$WORK" -t "$SHMWORK" -R "$OUT/sweep.tsv" \
	    $COLDARGS > "$OUT/sweep-cold.md" || fail ours "sweep (cold) failed"

	for c in cat_null cat_wc cat_cat cat_file cat_small; do
		measure $c cat
	done
	rm -f "$WORK"/cf.*
	for c in cp_ext4 cp_sparse cp_tree_ext4 $TMPFSCASES; do
		measure $c cp
		rm -f "$WORK"/dst/cp.* "$SHMWORK"/cp.*
	done
	for c in yes_pipe yes_null; do
		measure $c yes
	done
	count_syscalls
	ELAPSED=$(( $(date +%s) - START ))

	progress "writing the report"
	sh "$(dirname "$0")/report.sh" "$OUT" "$ELAPSED" "$QUICK" \
	    "$BIG" "$NFILES" "$NDIRS" "$NSTRACE" "$WINDOW" || {
		note "FAIL: the report could not be written"
		FAILED=1
	}
	echo "bench: report: $OUT/report.md"
	[ "$FAILED" = 0 ] || {
		echo "bench: FAILED (see $NOTES)" >&2
		exit 1
	}
	exit 0
}

main "$@"
