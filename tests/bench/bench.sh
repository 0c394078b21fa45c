# SPDX-License-Identifier: BSD-2-Clause
#
# bench.sh: the benchmarks behind `make bench`.
#
# Compares the tree's cat, cp, yes and tail with GNU's, busybox's and
# uutils' (those installed), and measures the machine's limits and
# libbufsz's throughput against buffer size.  Writes a Markdown report,
# the raw runs and gnuplot PNGs under ${OBJTOP}/bench/, and prints the
# report's path last.  See README in this directory.
#
# Environment: ROOT (where the tree is installed: ${ROOT}/bin/cat ...),
# OBJTOP (where to write), BENCHBIN (where timeit, sweep, limits and
# followlat are built), QUICK=1 (small files and few runs, about 2 minutes:
# for CI), TMPDIR (an ext4 or other disk file system), SHMDIR (a tmpfs;
# /dev/shm), BENCH_NOINSTALL=1 (run without the packages that are
# missing rather than install them: see packages.sh), ONLY=confine (only
# what cat's sandbox costs, its section of the report on stdout),
# ONLY=pipe (only cat -n into a pipe against the buffer size, likewise),
# ONLY=fmt (only cat's formatting options, likewise), ONLY=readers (only
# cat and tail -c +1 into six readers, likewise), ONLY=tree (only cp -R
# of the small files, nine rounds, a table of medians on stdout).
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

# YESBYTES: what head -c and dd take from yes.  REVSIZE: the file tail -r
# reverses.  FOLLOWN samples of tail -f's latency a run, the writes
# FOLLOWGAP s apart at most.  A tool whose first timed run of a case takes
# more than SLOWCAP s is timed once (busybox's yes into head -c 4G).
# FMTTEXT and FMTBIN: the text and the random bytes cat formats; there
# the cap is FMTCAP, so that the tools 60 times slower than ours (uutils'
# cat -n) do not take most of the run over some 40 rows.  RDSLOWRUNS:
# the rounds of the readers' rows into sha256sum, whose own cost (some 6 s
# a GiB on this project's machine) is most of every run.
if [ "$QUICK" = 1 ]; then
	BIG=$((32 * 1024 * 1024))
	NDIRS=6 NFILES=300
	RUNS=3
	WINDOW=0.1
	SWEEPARGS="-n 3 -s 16m -b 4k,32k,128k,1m,16m"
	PIPEBIG=$((16 * 1024 * 1024)) PIPEROUNDS=2
	COLDARGS="-n 3 -s 16m -b 4k,128k,1m -o null,file"
	LIMITARGS="-n 3 -s 32m"
	NSTRACE=100
	YESBYTES=$((32 * 1024 * 1024))
	REVSIZE=$((4 * 1024 * 1024))
	FOLLOWN=2 FOLLOWGAP=0.05 FOLLOWRUNS=1
	SLOWCAP=2
	FMTTEXT=$((4 * 1024 * 1024)) FMTBIN=$((4 * 1024 * 1024)) FMTCAP=0.5
else
	BIG=$((1024 * 1024 * 1024))
	NDIRS=200 NFILES=20000
	RUNS=5
	WINDOW=0.5
	SWEEPARGS="-n 5 -s 256m"
	PIPEBIG=$((256 * 1024 * 1024)) PIPEROUNDS=9
	COLDARGS="-n 5 -s 128m -b 4k,32k,128k,512k,1m,4m,16m -o null,pipe,file"
	LIMITARGS="-n 5 -s 1g"
	NSTRACE=2000
	YESBYTES=$((4 * 1024 * 1024 * 1024))
	REVSIZE=$((100 * 1024 * 1024))
	FOLLOWN=4 FOLLOWGAP=1 FOLLOWRUNS=5
	SLOWCAP=10
	FMTTEXT=$((32 * 1024 * 1024)) FMTBIN=$((64 * 1024 * 1024)) FMTCAP=2
fi
RDSLOWRUNS=3

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

# The loop device and its mount, when a clone case has them, go first:
# never remove the work directory with a file system mounted inside.
cleanup() {
	clone_teardown
	[ -n "${WORK:-}" ] && rm -rf "$WORK"
	[ -n "${SHMWORK:-}" ] && rm -rf "$SHMWORK"
}

# ---------------------------------------------------------------------------
# The tools.  tool_cmd PROG TOOL prints the command, or nothing when that
# tool is not installed here.

# Looked for after packages.sh has run.
find_tools() {
	GNUBIN=
	for d in /bin /usr/bin /usr/local/bin \
	    /usr/local/opt/coreutils/libexec/gnubin; do
		if "$d/cat" --version 2>/dev/null | grep -q 'GNU coreutils'
		then
			GNUBIN=$d
			break
		fi
	done
	UUBIN=
	for d in /usr/lib/cargo/bin/coreutils /usr/lib/cargo/bin \
	    /usr/local/bin; do
		# uutils names itself by its path: "/usr/lib/.../cat 0.0.17".
		if [ -x "$d/cat" ] && "$d/cat" --version 2>/dev/null |
		    head -n 1 | grep -Eq '(^|/)cat [0-9][0-9.]*$'; then
			UUBIN=$d
			break
		fi
	done
	BUSYBOX=$(command -v busybox 2>/dev/null || true)
}

# PROG is cat, cp, yes, tail, or tac: reversing a file by lines, which is
# tail -r for ours and tac for the others.  Tool ours-rw is our cat forced
# onto its read/write path, copying into a pipe rather than lending.
tool_cmd() {
	case $2 in
	ours)
		case $1 in
		yes|tail) p=$ROOT/usr/bin/$1 ;;
		tac)	p=$ROOT/usr/bin/tail ;;
		*)	p=$ROOT/bin/$1 ;;
		esac
		[ -x "$p" ] || return 0
		case $1 in
		tac)	echo "$p -r" ;;
		*)	echo "$p" ;;
		esac ;;
	ours-rw)
		fi=$ROOT/usr/tests/lib/libbufsz/faults/libfaultinj.so
		[ "$1" = cat ] && [ -x "$ROOT/bin/cat" ] && [ -f "$fi" ] &&
		    echo "env LD_PRELOAD=$fi FAULTINJ_PATH=rw $ROOT/bin/cat" ;;
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
	for p in cat cp yes tail tac; do
		for k in ours gnu busybox uutils; do
			[ -n "$(tool_cmd $p $k)" ] && continue
			case $p/$k in
			tail/ours)
				note "skipped: the tail cases (no tail under" \
				    "ROOT=$ROOT)" ;;
			tac/ours)
				;;
			*)
				note "skipped: $p from $k (not installed" \
				    "here)" ;;
			esac
		done
	done
}

# ---------------------------------------------------------------------------
# Input data: real bytes (not sparse) made once, cached, removed at the end.

# NFILES small files of 4 KiB in NDIRS directories, listed in list.
make_small() {
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
}

# The big file alone serves the readers (ONLY=readers).
make_big() {
	head -c "$BIG" /dev/urandom > "$WORK/big" || exit 1
	BIGSUM=$(cksum < "$WORK/big")
}

make_data() {
	progress "making data: $BIG bytes," \
	    "$NFILES files of 4 KiB in $NDIRS directories"
	make_big
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
	make_small
	# The files for strace: the first NSTRACE of them, in one directory,
	# and the first alone, for what a run costs before its first file.
	mkdir "$WORK/few" "$WORK/one"
	head -n "$NSTRACE" "$WORK/list" | xargs -I{} cp {} "$WORK/few/"
	cp "$(head -n 1 "$WORK/list")" "$WORK/one/"
	# yes(1)'s reference: the first MiB of "y\n" lines, and 8 MiB.
	awk 'BEGIN { for (i = 0; i < 524288; i++) print "y" }' > "$WORK/yes.ref"
	YESSUM=$(cksum < "$WORK/yes.ref")
	YES8SUM=$(for i in 1 2 3 4 5 6 7 8; do cat "$WORK/yes.ref"; done |
	    cksum)
	# tail's: the last 10 lines of big (random bytes, so about 256 a
	# line) from its last MiB, counted by sed; a file for tail -r that
	# ends in a newline (tac and tail -r differ on a last line without
	# one), and what reversing it gives.
	TAILSUM=$(dd if="$WORK/big" bs=1048576 skip=$((BIG / 1048576 - 1)) \
	    2>/dev/null | LC_ALL=C sed -n '$=')
	TAILSUM=$(dd if="$WORK/big" bs=1048576 skip=$((BIG / 1048576 - 1)) \
	    2>/dev/null | LC_ALL=C sed -n "$((TAILSUM - 9)),\$p" | cksum)
	{ head -c "$REVSIZE" "$WORK/big"; echo; } > "$WORK/rev" || exit 1
	REVSUM=
	if [ -n "$GNUBIN" ] && [ -x "$GNUBIN/tac" ]; then
		REVSUM=$("$GNUBIN/tac" "$WORK/rev" | cksum)
	fi
	# Warm the cache.
	cat "$WORK/big" "$WORK/sparse" "$WORK/rev" > /dev/null
	xargs cat < "$WORK/list" > /dev/null
}

# ---------------------------------------------------------------------------
# Runs.  run CASE TOOL K timeit-arguments...: one timed run, its line in
# the raw file: case tool k seconds user sys maxrss_kib status bytes.
# When COUNTED names a file, the bytes are the number in it (what wc -c
# printed) rather than timeit's.  LASTSEC is the run's seconds.

COUNTED=
run() {
	_c=$1 _t=$2 _k=$3
	shift 3
	line=$("$TIMEIT" "$@") || { fail "$_t" "$_c: timeit failed"; return 1; }
	set -- $line
	_b=$6
	if [ -n "$COUNTED" ]; then
		_b=$(tr -d ' \n' < "$COUNTED" 2>/dev/null)
		case $_b in
		''|*[!0-9]*)	_b=-1 ;;
		esac
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	    "$_c" "$_t" "$_k" "$1" "$2" "$3" "$4" "$5" "$_b" >> "$RAW"
	LASTSEC=$1
	if [ "$5" != 0 ]; then
		fail "$_t" "$_c run $_k: exit status $5"
		return 1
	fi
	LASTBYTES=$_b
	return 0
}

# measure CASE PROG [TOOL ...]: a warm-up and check of each tool (those
# installed for PROG unless named), then RUNS rounds, each running every
# tool once, the order rotating round by round.  Calls case_CASE TOOL CMD
# K for a run (K=0: the checked warm-up).  A tool whose first timed run
# took more than SLOWCAP seconds is not run again: its figure is that run.
measure() {
	c=$1 prog=$2
	shift 2
	if [ $# -gt 0 ]; then
		tools=$*
	else
		tools=$(tools_for "$prog")
	fi
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
	slow=
	r=1
	while [ $r -le "$RUNS" ]; do
		i=0
		while [ $i -lt $n ]; do
			j=$(( (i + r) % n + 1 ))
			eval "t=\${$j}"
			i=$((i + 1))
			case " $slow " in
			*" $t "*)	continue ;;
			esac
			progress "$c: run $r of $RUNS: $t"
			LASTSEC=0
			case_"$c" "$t" "$(tool_cmd "$prog" "$t")" $r || true
			if [ $r = 1 ] && [ "$RUNS" -gt 1 ] && awk -v s="$LASTSEC" \
			    -v cap="$SLOWCAP" 'BEGIN { exit !(s > cap) }'; then
				slow="$slow $t"
				note "$c: $t took $LASTSEC s: timed once"
			fi
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

count_ok() {
	# $1 tool, $2 case, $3 file holding a count, $4 expected
	s=$(tr -d ' \n' < "$3" 2>/dev/null)
	[ "$s" = "$4" ] && return 0
	fail "$1" "$2: wc -c counted ${s:-nothing}, not $4"
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
	count_ok "$1" cat_wc "$WORK/wc.out" "$BIG"
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

# What the pipe would cost if cat copied rather than lent the
# file's pages (ours against ours-rw), into the fixed 64 KiB reader.
case_cat_copying() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" cat_copying "$BIGSUM" \
		    "$($2 "$WORK/big" | cksum)" || return 1
	fi
	run cat_copying "$1" "$3" -c $2 "$WORK/big" || return 1
	[ "$LASTBYTES" = "$BIG" ] && return 0
	fail "$1" "cat_copying: the reader saw $LASTBYTES bytes, not $BIG"
	return 1
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

# yes as users read it: head -c and dd take YESBYTES and stop it (-p),
# wc -c reads for WINDOW seconds.  The warm-up only checks 8 MiB.
case_yes_head() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" yes_head "$YES8SUM" \
		    "$($2 | head -c 8388608 | cksum)"
		return
	fi
	run yes_head "$1" "$3" -p $2 '|' head -c "$YESBYTES"
}

case_yes_dd() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" yes_dd "$YES8SUM" \
		    "$($2 | dd bs=1048576 iflag=fullblock count=8 \
		    2>/dev/null | cksum)"
		return
	fi
	run yes_dd "$1" "$3" -p $2 '|' dd bs=1048576 iflag=fullblock \
	    count=$((YESBYTES / 1048576)) status=none
}

case_yes_wc() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" yes_wc "$YESSUM" \
		    "$($2 | head -c 1048576 | cksum)"
		return
	fi
	rm -f "$WORK/yeswc.out"
	COUNTED=$WORK/yeswc.out
	run yes_wc "$1" "$3" -w "$WINDOW" -o "$WORK/yeswc.out" $2 '|' wc -c
	st=$?
	COUNTED=
	[ $st = 0 ] || return 1
	[ "$LASTBYTES" -gt 0 ] 2>/dev/null && return 0
	fail "$1" "yes_wc: wc -c counted ${LASTBYTES:-nothing}"
	return 1
}

# tail: the last 10 lines of BIG; from its first byte to its end into
# wc -c (against cat's rate: the engine's paths); tail -r (tac) of REVSIZE.
case_tail_n10() {
	run tail_n10 "$1" "$3" -o "$WORK/tail.out" $2 -n 10 "$WORK/big" ||
	    return 1
	[ "$3" = 0 ] || return 0
	sum_ok "$1" tail_n10 "$TAILSUM" "$(cksum < "$WORK/tail.out")"
}

case_tail_plus() {
	if [ "$3" = 0 ]; then
		sum_ok "$1" tail_plus "$BIGSUM" \
		    "$($2 -c +1 "$WORK/big" | cksum)" || return 1
	fi
	run tail_plus "$1" "$3" -o "$WORK/wc.out" $2 -c +1 "$WORK/big" \
	    '|' wc -c || return 1
	count_ok "$1" tail_plus "$WORK/wc.out" "$BIG"
}

case_tail_r() {
	if [ "$3" = 0 ] && [ -n "$REVSUM" ]; then
		sum_ok "$1" tail_r "$REVSUM" "$($2 "$WORK/rev" | cksum)" ||
		    return 1
	elif [ "$3" = 0 ]; then
		$2 "$WORK/rev" > "$WORK/rev.out"
		size_ok "$1" tail_r "$WORK/rev.out" $((REVSIZE + 1)) ||
		    return 1
		rm -f "$WORK/rev.out"
	fi
	run tail_r "$1" "$3" -o /dev/null $2 "$WORK/rev"
}

# ---------------------------------------------------------------------------
# System calls per small file, counted with strace -f -c: the calls of a
# run over NSTRACE files less those of a run over one, over NSTRACE - 1,
# so that what a run costs before its first file is not spread over them.

# strace_calls FILE: "syscall calls" a line, and "total calls".
strace_calls() {
	# strace -c: % time, seconds, usecs/call, calls, errors (blank
	# when none), syscall.
	awk '$1 ~ /^[0-9.]+$/ && $4 ~ /^[0-9]+$/ { print $NF, $4 }' "$1"
}

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
			for d in few one; do
				if [ $prog = cat ]; then
					(cd "$WORK/$d" && strace -f -c \
					    -o "$f.$d" $cmd $(ls) > /dev/null)
				else
					rm -rf "$WORK/dst/strace.$t"
					strace -f -c -o "$f.$d" $cmd -R \
					    "$WORK/$d" "$WORK/dst/strace.$t"
				fi
			done
			rm -rf "$WORK/dst/strace.$t"
			{
				strace_calls "$f.few" | sed 's/^/N /'
				strace_calls "$f.one" | sed 's/^/1 /'
			} | awk -v p=$prog -v t=$t -v n="$NSTRACE" '
			    # Most frequent first, by name among equals.
			    function before(i, j) {
				if (v[i] != v[j])
					return v[i] > v[j]
				return name[i] < name[j]
			    }
			    { c[$1, $2] = $3; if ($2 != "total") s[$2] = 1 }
			    END {
				per = (c["N", "total"] - c["1", "total"]) / (n - 1)
				m = 0
				for (x in s) {
					d = (c["N", x] - c["1", x]) / (n - 1)
					if (d < 0.05) continue
					name[++m] = x; v[m] = d
				}
				for (i = 2; i <= m; i++)
					for (j = i; j > 1 && before(j, j - 1); j--) {
						a = v[j]; v[j] = v[j - 1]; v[j - 1] = a
						a = name[j]; name[j] = name[j - 1]
						name[j - 1] = a
					}
				top = ""
				for (i = 1; i <= m; i++)
					top = top sprintf("%s%s %.2g",
					    (i > 1 ? ", " : ""), name[i], v[i])
				printf "%s\t%s\t%.2f\t%d\t%d\t%s\n", p, t, per,
				    c["N", "total"], c["1", "total"], top
			    }' >> "$OUT/syscalls.tsv"
		done
	done
}

# The bytes each tail reads for tail -n 10 of BIG: what read(2) and
# pread(2) returned from it, and what mmap(2) mapped of it, found by
# following the descriptors strace shows it opened as.
count_tail_reads() {
	command -v strace > /dev/null 2>&1 || {
		note "skipped: the bytes tail reads (no strace)"
		return 0
	}
	for t in $(tools_for tail); do
		cmd=$(tool_cmd tail $t)
		progress "tail reads: $t"
		f=$OUT/strace.tail.$t
		strace -f -o "$f" -e trace=open,openat,close,read,pread64,readv,preadv,preadv2,mmap,dup,dup2,dup3,fcntl \
		    $cmd -n 10 "$WORK/big" > "$WORK/tail.out" 2>/dev/null ||
		    { fail "$t" "tail -n 10 under strace failed"; continue; }
		shown=$(wc -c < "$WORK/tail.out" | tr -d ' ')
		awk -v path="\"$WORK/big\"" -v t=$t -v shown="$shown" '
		    { sub(/^[0-9]+ +/, "") }
		    /^open(at)?\(/ && index($0, path) {
			if (match($0, /= [0-9]+/))
				fd[substr($0, RSTART + 2, RLENGTH - 2)] = 1
			next
		    }
		    /^close\(/ {
			if (match($0, /^close\([0-9]+/))
				delete fd[substr($0, 7, RLENGTH - 6)]
			next
		    }
		    /^(dup[23]?\(|fcntl\([0-9]+, F_DUPFD)/ {
			# A copy of a descriptor of the file reads it too.
			if (match($0, /^[a-z0-9]+\([0-9]+/)) {
				s = substr($0, 1, RLENGTH)
				sub(/^[a-z0-9]+\(/, "", s)
				if ((s in fd) && match($0, /= [0-9]+$/))
					fd[substr($0, RSTART + 2)] = 1
			}
			next
		    }
		    /^p?readv?(64|2)?\(/ {
			if (!match($0, /^[a-z0-9]+\([0-9]+/)) next
			s = substr($0, 1, RLENGTH)
			sub(/^[a-z0-9]+\(/, "", s)
			if (!(s in fd)) next
			if (match($0, /= [0-9]+$/)) {
				bytes += substr($0, RSTART + 2); calls++
			}
			next
		    }
		    /^mmap\(/ {
			# mmap(addr, length, prot, flags, fd, offset)
			split($0, a, ", ")
			if ((a[5] in fd) && !/= -1 /) {
				mapped += a[2]; calls++
			}
		    }
		    END {
			printf "%s\t%d\t%d\t%d\t%d\n", t, calls, bytes,
			    mapped, shown
		    }' "$f" >> "$OUT/tailreads.tsv"
	done
}

# The latency of tail -f, from a write(2) to the file until its line is
# read from the follower's pipe: FOLLOWN samples a run, FOLLOWRUNS runs
# of each follower, interleaved.  followlat checks every byte.
follow_latency() {
	tools=$(tools_for tail)
	r=1
	while [ $r -le "$FOLLOWRUNS" ]; do
		for t in $tools; do
			progress "tail -f latency: run $r of $FOLLOWRUNS: $t"
			cmd=$(tool_cmd tail $t)
			f=$WORK/follow.$t
			if "$BENCHBIN/followlat" -n "$FOLLOWN" \
			    -g "$FOLLOWGAP" "$f" $cmd -f "$f" \
			    > "$WORK/follow.out"; then
				sed "s/^/tail_f	$t	$r	/" \
				    "$WORK/follow.out" >> "$OUT/latency.tsv"
			else
				fail "$t" "tail -f: followlat failed"
				tools=$(echo " $tools " | sed "s/ $t / /")
			fi
			rm -f "$f"
		done
		r=$((r + 1))
	done
}

tail_cases() {
	[ -n "$(tool_cmd tail ours)" ] || return 0
	for c in tail_n10 tail_plus; do
		measure $c tail
	done
	measure tail_r tac
	count_tail_reads
	follow_latency
}

# ---------------------------------------------------------------------------
# Copies that need not move data: cp of BIG on a loop-mounted XFS and
# Btrfs, where copy_file_range (and GNU cp's FICLONE) shares the extents.
# Each run is timed, then the file system synced and the space it lost
# recorded (clone.tsv: case tool k KiB).  Root only; skipped elsewhere.

CLONE_DEV= CLONE_MNT=

clone_teardown() {
	if [ -n "$CLONE_MNT" ]; then
		umount "$CLONE_MNT" 2>/dev/null ||
		    umount -l "$CLONE_MNT" 2>/dev/null ||
		    echo "bench: could not unmount $CLONE_MNT" >&2
		rmdir "$CLONE_MNT" 2>/dev/null
		CLONE_MNT=
	fi
	if [ -n "$CLONE_DEV" ]; then
		losetup -d "$CLONE_DEV" ||
		    echo "bench: could not detach $CLONE_DEV" >&2
		CLONE_DEV=
	fi
	[ -z "${WORK:-}" ] || rm -f "$WORK"/clone.img
}

# clone_setup FS: a new FS on a loop device, mounted; 1 when impossible
# (the reason noted).
clone_setup() {
	fs=$1
	why=
	if [ "$(uname -s)" != Linux ]; then
		why="not Linux"
	elif [ "$(id -u)" != 0 ]; then
		why="loop devices need root"
	elif ! command -v losetup > /dev/null 2>&1; then
		why="no losetup"
	elif ! command -v mkfs.$fs > /dev/null 2>&1; then
		why="no mkfs.$fs (Debian: $fs-progs or xfsprogs)"
		[ $fs = xfs ] && why="no mkfs.xfs (Debian: xfsprogs)"
		[ $fs = btrfs ] && why="no mkfs.btrfs (Debian: btrfs-progs)"
	fi
	# The source, one copy that is not a clone, and room to spare: Btrfs
	# allocates data in 1 GiB chunks and keeps two copies of its
	# metadata, XFS wants 300 MiB at least.  The image is sparse: the
	# host's disk holds only what is written.
	size=$((BIG * 3 + 1024 * 1048576))
	room=$(df -kP "$WORK" | awk 'NR == 2 { print $4 }')
	if [ -z "$why" ] && [ "${room:-0}" -lt $((size / 1024)) ]; then
		why="$WORK has ${room:-no} KiB free, the image needs $((size / 1024))"
	fi
	if [ -n "$why" ]; then
		note "skipped: cp_clone_$fs ($why)"
		return 1
	fi
	truncate -s "$size" "$WORK/clone.img" &&
	    CLONE_DEV=$(losetup -f --show "$WORK/clone.img") &&
	    [ -n "$CLONE_DEV" ] || {
		clone_teardown
		note "skipped: cp_clone_$fs (no loop device could be set up)"
		return 1
	}
	if ! mkfs.$fs -q -f "$CLONE_DEV" > "$WORK/mkfs.out" 2>&1; then
		clone_teardown
		note "skipped: cp_clone_$fs (mkfs.$fs failed:" \
		    "$(head -n 1 "$WORK/mkfs.out"))"
		return 1
	fi
	mkdir -p "$WORK/mnt.$fs" && CLONE_MNT=$WORK/mnt.$fs
	if ! mount -t $fs "$CLONE_DEV" "$CLONE_MNT" 2> "$WORK/mount.out"; then
		rmdir "$CLONE_MNT"
		CLONE_MNT=
		clone_teardown
		note "skipped: cp_clone_$fs (mount failed:" \
		    "$(head -n 1 "$WORK/mount.out"))"
		return 1
	fi
	# The source is written, not copied: nothing shares its extents.
	cat "$WORK/big" > "$CLONE_MNT/src" && sync_fs "$CLONE_MNT" || {
		clone_teardown
		fail ours "cp_clone_$fs: could not write the source"
		return 1
	}
	return 0
}

sync_fs() {
	sync -f "$1" 2>/dev/null || sync
}

used_kib() {
	df -kP "$1" | awk 'NR == 2 { print $3 }'
}

# The space used once it stops moving: XFS and Btrfs free a removed
# file's blocks in the background, after the sync that made it go.
settled_kib() {
	sync_fs "$1"
	_u=$(used_kib "$1")
	_i=0
	while [ $_i -lt 30 ]; do
		sleep 0.1
		sync_fs "$1"
		_v=$(used_kib "$1")
		[ "$_v" = "$_u" ] && break
		_u=$_v
		_i=$((_i + 1))
	done
	echo "$_u"
}

# The previous copy goes and the space settles before the run; after
# it, the file system is synced (untimed) and the space it took measured.
cp_clone() {
	fs=$1
	rm -f "$CLONE_MNT"/cp.*
	before=$(settled_kib "$CLONE_MNT")
	run cp_clone_$fs "$2" "$4" $3 "$CLONE_MNT/src" \
	    "$CLONE_MNT/cp.$2.$4" || return 1
	after=$(settled_kib "$CLONE_MNT")
	printf 'cp_clone_%s\t%s\t%s\t%s\n' "$fs" "$2" "$4" \
	    $((after - before)) >> "$OUT/clone.tsv"
	if [ "$4" = 0 ]; then
		cmp -s "$CLONE_MNT/src" "$CLONE_MNT/cp.$2.$4" ||
		    { fail "$2" "cp_clone_$fs: the copy differs"; return 1; }
	fi
	size_ok "$2" cp_clone_$fs "$CLONE_MNT/cp.$2.$4" "$BIG"
}

case_cp_clone_xfs() {
	cp_clone xfs "$1" "$2" "$3"
}

case_cp_clone_btrfs() {
	cp_clone btrfs "$1" "$2" "$3"
}

clone_cases() {
	for fs in xfs btrfs; do
		clone_setup $fs || continue
		measure cp_clone_$fs cp
		clone_teardown
	done
}

# cat's formatted output into a pipe against cat's buffer size
# (cat -B): cat -n, which cannot splice, of PIPEBIG bytes of text
# lines into wc -c and into the system's cat to /dev/null, PIPEROUNDS
# rounds, the sizes in an order that rotates from round to round, into
# pipe.tsv (round, buffer, reader, wall, user, sys).  The policy's pipe
# buffer (BUFSZ_PIPE in lib/libbufsz/policy.c) rests on it.
PIPESIZES="4096 8192 16384 32768 65536 131072 262144 1048576"
pipe_sizes() {
	ourcat=$(tool_cmd cat ours)
	text=$WORK/pipetext
	# Text lines (hex, 49 bytes a line), 1 MiB of them repeated: cat -n's work
	# is the same on each copy.
	head -c 400000 /dev/urandom | od -An -tx1 | head -c 1048576 \
	    > "$text.1" || return 1
	i=0
	while [ $i -lt $((PIPEBIG / 1048576)) ]; do
		cat "$text.1"
		i=$((i + 1))
	done > "$text" || return 1
	rm -f "$text.1"
	want=$($ourcat -n "$text" | wc -c | tr -d ' ')
	: > "$OUT/pipe.tsv"
	n=$(echo $PIPESIZES | wc -w)
	r=1
	while [ $r -le "$PIPEROUNDS" ]; do
		progress "cat -n into a pipe: round $r of $PIPEROUNDS"
		i=0
		while [ $i -lt $n ]; do
			j=$(( (i + r) % n + 1 ))
			b=$(echo $PIPESIZES | cut -d ' ' -f $j)
			i=$((i + 1))
			for reader in wc cat; do
				if [ $reader = wc ]; then
					line=$("$TIMEIT" -o "$WORK/pipe.wc" \
					    $ourcat -B "$b" -n \
					    "$text" '|' wc -c)
					got=$(tr -d ' \n' < "$WORK/pipe.wc")
				else
					line=$("$TIMEIT" -o /dev/null \
					    $ourcat -B "$b" -n \
					    "$text" '|' cat)
					got=$want
				fi
				set -- $line
				if [ "${5:-1}" != 0 ] || [ "$got" != "$want" ]; then
					fail ours "cat -n into $reader at $b:\
 status ${5:-none}, $got bytes, not $want"
					return 1
				fi
				printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$r" "$b" \
				    "$reader" "$1" "$2" "$3" >> "$OUT/pipe.tsv"
			done
		done
		r=$((r + 1))
	done
	rm -f "$text" "$WORK/pipe.wc"
}

# What cat's sandbox costs (confinecost, Linux): the CPU time of a run of
# our cat of N small files to /dev/null, confined and with Landlock made
# unavailable, in alternating rounds, into confine.tsv (files, where,
# round, mode, microseconds a run).  N files of one directory, and 1024
# spread over the NDIRS directories of the small files, in turn;
# fewer where there are fewer small files (QUICK).
confine_cost() {
	[ -x "$BENCHBIN/confinecost" ] || {
		note "skipped: cat's sandbox (no confinecost on $(uname -s))"
		return 0
	}
	mkdir -p "$WORK/conf" || return 1
	head -n 1024 "$WORK/list" | xargs -I{} cp {} "$WORK/conf/"
	rounds=15
	[ "$QUICK" = 0 ] || rounds=3
	r=1
	while [ $r -le $rounds ]; do
		progress "cat's sandbox: round $r of $rounds"
		# files:where:runs a measurement
		for spec in 1:one:200 100:one:50 1024:one:20 1024:spread:20; do
			n=${spec%%:*}
			k=${spec##*:}
			where=${spec#*:}
			where=${where%:*}
			if [ "$where" = one ]; then
				set -- $(ls "$WORK/conf" | head -n "$n" |
				    sed "s|^|$WORK/conf/|")
			else
				set -- $(head -n "$n" "$WORK/list")
			fi
			for mode in confined unconfined; do
				opt=
				[ $mode = confined ] || opt=-u
				us=$("$BENCHBIN/confinecost" $opt "$k" \
				    "$(tool_cmd cat ours)" "$@") || {
					fail ours "confinecost: $mode, $n files"
					return 1
				}
				printf '%s\t%s\t%s\t%s\t%s\n' $# "$where" "$r" \
				    "$mode" "$us" >> "$OUT/confine.tsv"
			done
		done
		r=$((r + 1))
	done
}

# ---------------------------------------------------------------------------
# cat's formatting options: each of them on real text and on
# random bytes, in the C, a UTF-8 and, where the host has one, an EUC-JP
# locale, into /dev/null, a pipe read by wc -c and a new file.  One case
# function serves every row; fmt_row sets what the row is.  The rows go
# to fmt.tsv (case, options, locale's role, locale, input, output) in the
# order measured, for report.sh.

# The text: the licence texts the host ships, repeated to half of
# FMTTEXT, then seq's numbers (short lines, no blank ones) to FMTTEXT, as
# in the issue's figures.  Where there are none, awk writes paragraphs of
# words with tabs and runs of blank lines, which -s, -b and -T act on.
make_fmt_text() {
	half=$((FMTTEXT / 2))
	lic=/usr/share/common-licenses
	if cat "$lic"/* > "$WORK/fmt.lic" 2>/dev/null &&
	    [ -s "$WORK/fmt.lic" ]; then
		n=$(( half / $(wc -c < "$WORK/fmt.lic") + 1 ))
		i=0
		while [ $i -lt $n ]; do
			cat "$WORK/fmt.lic"
			i=$((i + 1))
		done > "$WORK/fmt.words"
	else
		note "cat's formatting: no $lic here: the text is awk's"
		awk -v size="$half" 'BEGIN {
			nw = split("the of a licence to any work in program" \
			    " or software copy source code that you this" \
			    " be with and may not under terms", w, " ")
			srand(36)
			while (total < size) {
				line = (rand() < 0.1) ? "\t" : ""
				k = 4 + int(rand() * 10)
				for (i = 0; i < k; i++)
					line = line (i ? " " : "") \
					    w[1 + int(rand() * nw)]
				print line
				total += length(line) + 1
				if (rand() < 0.15) {
					b = 1 + int(rand() * 3)
					for (i = 0; i < b; i++) print ""
					total += b
				}
			}
		}' > "$WORK/fmt.words"
	fi
	# Numbers: FMTTEXT / 4 lines are more than enough to fill the rest.
	if command -v seq > /dev/null 2>&1; then
		nums="seq 1 $((FMTTEXT / 4))"
	else
		nums="awk -v n=$((FMTTEXT / 4)) \
		    'BEGIN { for (i = 1; i <= n; i++) print i }'"
	fi
	{ head -c "$half" "$WORK/fmt.words"; eval "$nums"; } |
	    head -c "$FMTTEXT" > "$WORK/fmt.text"
	rm -f "$WORK/fmt.lic" "$WORK/fmt.words"
	[ "$(wc -c < "$WORK/fmt.text" | tr -d ' ')" = "$FMTTEXT" ]
}

# The inputs, and the first MiB of each (the others' warm-ups); cached.
make_fmt_data() {
	progress "making data for cat's formatting: $FMTTEXT bytes of" \
	    "text, $FMTBIN of random bytes"
	make_fmt_text || { fail ours "could not make the text"; return 1; }
	head -c "$FMTBIN" /dev/urandom > "$WORK/fmt.bin" || return 1
	for f in text bin; do
		head -c 1048576 "$WORK/fmt.$f" > "$WORK/fmt.$f.head"
	done
	cat "$WORK"/fmt.text "$WORK"/fmt.bin > /dev/null
	: > "$WORK/fmt.sums"
}

# fmt_locale NAME: the first locale that locale -a lists under NAME (an
# ERE, matched without regard to case: C.UTF-8 is C.utf8 on glibc), or
# nothing.
fmt_locale() {
	locale -a 2>/dev/null |
	    awk -v re="^($1)\$" 'tolower($0) ~ re { print; exit }'
}

# The locale of a role: C, utf8 or eucjp.
fmt_loc() {
	case $1 in
	C)	echo C ;;
	utf8)	echo "$FMTUTF8" ;;
	eucjp)	echo "$FMTEUC" ;;
	esac
}

# fmt_bytes TOOL BYTES: what one run wrote.  Ours must write what its
# checked warm-up wrote; the others only something.
fmt_bytes() {
	if [ "$1" = ours ]; then
		[ "$2" = "$FMTLEN" ] && return 0
		fail ours "$FMTCASE: ${2:-no} bytes out, the warm-up wrote $FMTLEN"
		return 1
	fi
	[ "${2:-0}" -gt 0 ] 2>/dev/null && return 0
	fail "$1" "$FMTCASE: no output"
	return 1
}

# The warm-up.  Ours formats the whole input, and the same input cut in
# other places must come out the same: read 4 KiB at a time (cat -B is
# rounded down to whole pages, so 4096 is the oddest it takes), and
# from a pipe written 4099 bytes at a time, whose reads end anywhere: in
# a multibyte character, a CRLF or a run of blank lines.  Once for each
# options, locale and input; the rows into a pipe or a file then compare
# against the sum.  The others need only exit 0 and write something,
# which the first MiB shows as well as the whole: an option they lack
# (busybox's -s) leaves them out of the row, with a note.
fmt_check() {
	if [ "$1" != ours ]; then
		$2 "$3.head" > "$WORK/fmt.chk" 2> "$WORK/fmt.err"
		st=$?
		if [ $st != 0 ]; then
			fail "$1" "$FMTCASE: exit status $st\
 ($(head -n 1 "$WORK/fmt.err")): not in this row"
			return 1
		fi
		[ -s "$WORK/fmt.chk" ] && return 0
		fail "$1" "$FMTCASE: no output: not in this row"
		return 1
	fi
	sum=$({ $2 "$3"; echo $? > "$WORK/fmt.st"; } | cksum)
	st=$(cat "$WORK/fmt.st")
	[ "$st" = 0 ] || { fail ours "$FMTCASE: exit status $st"; return 1; }
	FMTLEN=${sum##* }
	key="$FMTOPTS $FMTLOC $3"
	known=$(awk -F'\t' -v k="$key" '$1 == k { print $2 }' "$WORK/fmt.sums")
	if [ -n "$known" ]; then
		sum_ok ours "$FMTCASE" "$known" "$sum"
		return
	fi
	sum_ok ours "$FMTCASE, read 4 KiB at a time" "$sum" \
	    "$($2 -B 4096 "$3" | cksum)" || return 1
	sum_ok ours "$FMTCASE, from a pipe written 4099 bytes at a time" \
	    "$sum" "$(dd if="$3" bs=4099 2>/dev/null | $2 | cksum)" ||
	    return 1
	printf '%s\t%s\n' "$key" "$sum" >> "$WORK/fmt.sums"
}

case_fmt() {
	in=$WORK/fmt.$FMTIN
	set -- "$1" "env $FMTENV LC_ALL=$FMTLOC $2 $FMTOPTS" "$3"
	if [ "$3" = 0 ]; then
		fmt_check "$1" "$2" "$in"
		return
	fi
	case $FMTDEST in
	null)
		run "$FMTCASE" "$1" "$3" -o /dev/null $2 "$in" ;;
	pipe)
		run "$FMTCASE" "$1" "$3" -o "$WORK/fmt.wc" $2 "$in" '|' \
		    wc -c || return 1
		fmt_bytes "$1" "$(tr -d ' \n' < "$WORK/fmt.wc")" ;;
	file)
		# A new file each run, the last one removed just before.
		rm -f "$WORK"/ff.*
		run "$FMTCASE" "$1" "$3" -o "$WORK/ff.$1.$3" $2 "$in" ||
		    return 1
		fmt_bytes "$1" "$(wc -c < "$WORK/ff.$1.$3" | tr -d ' ')" ;;
	esac
}

# fmt_row OPTIONS ROLE INPUT OUTPUT: one row, measured.  INPUT is text or
# bin, OUTPUT null, pipe or file.  The row's case (fmt_et_utf8_text_null)
# gets a case function of its own, case_fmt under that name, so that
# measure()'s progress and notes name the row.
fmt_row() {
	FMTOPTS=$1 FMTLOC=$(fmt_loc "$2") FMTIN=$3 FMTDEST=$4
	FMTENV=
	[ "$2" = eucjp ] && [ -n "$FMTEUCPATH" ] && FMTENV=LOCPATH=$FMTEUCPATH
	FMTCASE=fmt_${1#-}_$2_$3_$4
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$FMTCASE" "$1" "$2" "$FMTLOC" \
	    "$3" "$4" >> "$OUT/fmt.tsv"
	eval "case_$FMTCASE() { case_fmt \"\$@\"; }"
	measure "$FMTCASE" cat
}

fmt_cases() {
	make_fmt_data || return 1
	FMTUTF8=$(fmt_locale 'c\.utf-?8')
	[ -n "$FMTUTF8" ] || FMTUTF8=$(fmt_locale 'en_us\.utf-?8')
	FMTEUC=$(fmt_locale 'ja_jp\.euc-?jp')
	FMTEUCPATH=
	# glibc's LOCPATH lets a locale be built here, without root.
	if [ -z "$FMTEUC" ] && mkdir -p "$WORK/loc" &&
	    localedef -i ja_JP -f EUC-JP "$WORK/loc/ja_JP.EUC-JP" \
	    > /dev/null 2>&1 &&
	    [ "$(LOCPATH=$WORK/loc LC_ALL=ja_JP.EUC-JP locale charmap \
	    2>/dev/null)" = EUC-JP ]; then
		FMTEUC=ja_JP.EUC-JP
		FMTEUCPATH=$WORK/loc
	fi
	printf '%s\t%s\n' fmttext "$FMTTEXT" fmtbin "$FMTBIN" \
	    fmtcap "$FMTCAP" fmtutf8 "${FMTUTF8:--}" fmteuc "${FMTEUC:--}" \
	    >> "$OUT/params.tsv"
	roles=C
	if [ -n "$FMTUTF8" ]; then
		roles="C utf8"
	else
		note "skipped: the fmt_*_utf8_* cases (locale -a has" \
		    "neither C.UTF-8 nor en_US.UTF-8)"
	fi
	: > "$OUT/fmt.tsv"
	fmt_cap=$SLOWCAP
	SLOWCAP=$FMTCAP
	# measure() sets r, c, t, i, j and n: other names here.
	for fr in $roles; do
		for fo in -n -b -s -v -e -t -A -E -T -et -ns -bv; do
			fmt_row $fo $fr text null
		done
	done
	for fr in $roles; do
		for fo in -v -A; do
			fmt_row $fo $fr bin null
		done
	done
	if [ -n "$FMTUTF8" ]; then
		for fd in pipe file; do
			for fo in -v -n -A; do
				fmt_row $fo utf8 text $fd
			done
		done
	fi
	if [ -n "$FMTEUC" ]; then
		fmt_row -v eucjp text null
		fmt_row -v eucjp bin null
	else
		note "skipped: fmt_v_eucjp_text_null and _bin_null (locale -a" \
		    "has no ja_JP.eucJP, and localedef could not make one)"
	fi
	SLOWCAP=$fmt_cap
	rm -f "$WORK"/fmt.* "$WORK"/ff.*
}

# ---------------------------------------------------------------------------
# The readers: BIG from each tool's cat, and from its tail -c +1, into a
# pipe read by wc -c, cat (to /dev/null), dd bs=64k and bs=1M, sha256sum
# and tail -c 1, the system's (GNU's where find_tools found it).  Which
# way of filling the pipe is faster depends on the reader and the CPU, so
# each row also times the reader alone on the file (tool "alone": R <
# BIG), in the same rounds.  Rows go to readers.tsv (case, reader,
# writer) in the order measured, for report.sh.

# rd_cmd READER: the reader's command, run by sh -c with its stderr on its
# stdout, where timeit puts both in a file: a count (wc -c), dd's record
# of the bytes, a digest, or the last byte.  cat writes to /dev/null.
rd_cmd() {
	case $1 in
	wc)	echo "${RDBIN}wc -c" ;;
	cat)	echo "${RDBIN}cat > /dev/null" ;;
	dd64k)	echo "${RDBIN}dd bs=65536 of=/dev/null" ;;
	dd1m)	echo "${RDBIN}dd bs=1048576 of=/dev/null" ;;
	sha256)	echo "$RDSHA" ;;
	tail1)	echo "${RDBIN}tail -c 1" ;;
	esac
}

# What the reader must have seen, against what it shows: the size (wc,
# dd), the digest, the last byte.  cat shows nothing: its warm-up reads
# the tool's output again into wc -c; every run is checked by status.
case_rd() {
	out=$WORK/rd.out
	if [ "$1" = alone ]; then
		run "$RDCASE" alone "$3" -i "$WORK/big" -o "$out" \
		    sh -c "exec 2>&1 $RDCMD" || return 1
	else
		run "$RDCASE" "$1" "$3" -o "$out" $2 $RDOPTS "$WORK/big" \
		    '|' sh -c "exec 2>&1 $RDCMD" || return 1
	fi
	want=$BIG
	case $RDKEY in
	wc)	got=$(tr -d ' \n' < "$out") ;;
	dd*)	got=$(awk '/bytes/ { print $1; exit }' "$out") ;;
	sha256)	got=$(awk '{ print $1; exit }' "$out") want=$RDSUM ;;
	tail1)	got=$(od -An -tx1 < "$out" | tr -d ' \n') want=$RDLAST ;;
	cat)	[ "$3" = 0 ] && [ "$1" != alone ] || return 0
		got=$($2 $RDOPTS "$WORK/big" | "${RDBIN}cat" | wc -c |
		    tr -d ' ') ;;
	esac
	[ "$got" = "$want" ] && return 0
	fail "$1" "$RDCASE run $3: the reader saw ${got:-nothing}, not $want"
	return 1
}

readers_cases() {
	RDBIN=${GNUBIN:+$GNUBIN/}
	RDSHA=$(command -v sha256sum || command -v sha256)
	progress "readers: the file's digest and last byte"
	RDSUM=
	[ -z "$RDSHA" ] || RDSUM=$($RDSHA < "$WORK/big" | awk '{ print $1 }')
	RDLAST=$(tail -c 1 "$WORK/big" | od -An -tx1 | tr -d ' \n')
	# The CPU the rows ran on, for the report and the summary:
	# /proc/cpuinfo's model name, with its family and model, or "-".
	printf 'rdcpu\t%s\n' "$(awk -F': *' '
	    /^model name/ && !m { m = $2 }
	    /^cpu family/ && !f { f = $2 }
	    /^model\t/ && !n { n = $2 }
	    END { print m ? m " (family " f ", model " n ")" : "-" }' \
	    /proc/cpuinfo 2>/dev/null || echo -)" >> "$OUT/params.tsv"
	: > "$OUT/readers.tsv"
	writers=cat
	[ -n "$(tool_cmd tail ours)" ] && writers="cat tail"
	rd_runs=$RUNS
	# measure() sets r, c, t, i, j and n: other names here.
	for rw in $writers; do
		RDOPTS=
		[ $rw = tail ] && RDOPTS="-c +1"
		for RDKEY in wc cat dd64k dd1m sha256 tail1; do
			if [ $RDKEY = sha256 ] && [ -z "$RDSHA" ]; then
				note "skipped: rd_sha256_$rw (no sha256sum here)"
				continue
			fi
			RDCMD=$(rd_cmd $RDKEY)
			RDCASE=rd_${RDKEY}_$rw
			printf '%s\t%s\t%s\n' "$RDCASE" $RDKEY $rw \
			    >> "$OUT/readers.tsv"
			eval "case_$RDCASE() { case_rd \"\$@\"; }"
			RUNS=$rd_runs
			[ $RDKEY != sha256 ] || [ "$RUNS" -le "$RDSLOWRUNS" ] ||
			    RUNS=$RDSLOWRUNS
			measure "$RDCASE" $rw $(tools_for $rw) alone
		done
	done
	RUNS=$rd_runs
	rm -f "$WORK/rd.out"
}

# ONLY=tree: each tool's median, min and max of the timed runs of the tree
# cases, and its rate.
tree_table() {
	printf '| case | tool | median s | min-max s | k files/s |\n'
	printf '| --- | --- | ---: | ---: | ---: |\n'
	awk -F '\t' '$1 ~ /^cp_tree/ && $3 > 0 { print $1 "\t" $2 "\t" $4 }' \
	    "$RAW" | sort -t "$(printf '\t')" -k1,1 -k2,2 -k3,3n |
	    awk -F '\t' -v nf="$NFILES" '
		function out() {
			m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			printf "| %s | %s | %.3f | %.3f-%.3f | %.1f |\n", \
			    c, t, m, v[1], v[n], nf / m / 1000
		}
		$1 != c || $2 != t { if (n > 0) out(); c = $1; t = $2; n = 0 }
		{ v[++n] = $3 }
		END { if (n > 0) out() }'
}

# ---------------------------------------------------------------------------

main() {
	if [ "$QUICK" = 1 ]; then
		sh "$(dirname "$0")/packages.sh" quick
	else
		sh "$(dirname "$0")/packages.sh" full || exit 1
	fi
	find_tools
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
	printf '%s\t%s\n' followgap "$FOLLOWGAP" big "$BIG" nfiles "$NFILES" \
	    yesbytes "$YESBYTES" quick "$QUICK" slowcap "$SLOWCAP" \
	    > "$OUT/params.tsv"
	trap cleanup EXIT
	trap 'exit 1' INT TERM HUP PIPE
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
	command -v gnuplot > /dev/null 2>&1 || note "skipped: the plots (no gnuplot)"
	START=$(date +%s)
	if [ "${ONLY:-}" = confine ]; then
		make_small
		confine_cost
		SECTION=confine sh "$(dirname "$0")/report.sh" "$OUT" 0 \
		    "$QUICK" "$BIG" "$NFILES" "$NDIRS" "$NSTRACE" "$WINDOW"
		exit $FAILED
	fi
	if [ "${ONLY:-}" = pipe ]; then
		pipe_sizes
		SECTION=pipe sh "$(dirname "$0")/report.sh" "$OUT" 0 \
		    "$QUICK" "$BIG" "$NFILES" "$NDIRS" "$NSTRACE" "$WINDOW"
		exit $FAILED
	fi
	if [ "${ONLY:-}" = fmt ]; then
		fmt_cases
		SECTION=fmt sh "$(dirname "$0")/report.sh" "$OUT" 0 \
		    "$QUICK" "$BIG" "$NFILES" "$NDIRS" "$NSTRACE" "$WINDOW"
		exit $FAILED
	fi
	if [ "${ONLY:-}" = readers ]; then
		progress "making data: $BIG bytes"
		make_big
		readers_cases
		SECTION=readers sh "$(dirname "$0")/report.sh" "$OUT" 0 \
		    "$QUICK" "$BIG" "$NFILES" "$NDIRS" "$NSTRACE" "$WINDOW"
		exit $FAILED
	fi
	if [ "${ONLY:-}" = tree ]; then
		make_small
		RUNS=9
		for c in cp_tree_ext4 ${TMPFSCASES#cp_tmpfs }; do
			measure $c cp
		done
		tree_table
		cleanup
		trap - EXIT
		exit $FAILED
	fi
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
	measure cat_copying cat ours ours-rw
	pipe_sizes
	fmt_cases
	rm -f "$WORK"/cf.*
	for c in cp_ext4 cp_sparse cp_tree_ext4 $TMPFSCASES; do
		measure $c cp
		rm -f "$WORK"/dst/cp.* "$SHMWORK"/cp.*
	done
	clone_cases
	for c in yes_pipe yes_null yes_head yes_dd yes_wc; do
		measure $c yes
	done
	tail_cases
	readers_cases
	count_syscalls
	confine_cost
	ELAPSED=$(( $(date +%s) - START ))

	progress "writing the report"
	sh "$(dirname "$0")/report.sh" "$OUT" "$ELAPSED" "$QUICK" \
	    "$BIG" "$NFILES" "$NDIRS" "$NSTRACE" "$WINDOW" "$YESBYTES" \
	    "$REVSIZE" || {
		note "FAIL: the report could not be written"
		FAILED=1
	}
	# Removing the copied trees takes a while: before the last line,
	# which is the report's path, whatever happened.
	progress "removing the data"
	cleanup
	trap - EXIT
	[ "$FAILED" = 0 ] || echo "bench: FAILED (see $NOTES)" >&2
	echo "bench: report: $OUT/report.md"
	exit $FAILED
}

main "$@"
