#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The imported cat, cp, tail and yes beside FreeBSD's own, measured in
# the check-freebsd-vm guest after the suites: the guest prints the
# report (Markdown) between markers and vm.sh keeps it as
# logs/bench.md.  FreeBSD's programs are built from the untouched
# source into ORIG (the base ones are the import's).
#
# Each row runs the two programs alternately, RUNS times each, the
# order swapped every round, under /usr/bin/time -l: CPU time (user +
# sys), wall time, and the voluntary and involuntary context switches
# (ru_nvcsw, ru_nivcsw) of the program alone, never of its reader.  One
# more run of each under ktrace(1) counts its system calls and the
# bytes each read, write or copy_file_range returned; one more writes
# the output to a file, and the two programs' outputs must agree.
#
# yes never ends: it runs YESSECS seconds, then is killed, and its
# figures are scaled to MB MiB of output, as the reader counted it.
#
# usage: bench.sh [-r runs] [-m MiB] [-o orig-bindir]

set -u
RUNS=5
MB=64
ORIG=/usr/local/fbsd-orig/bin
while getopts r:m:o: opt; do
	case $opt in
	r)	RUNS=$OPTARG ;;
	m)	MB=$OPTARG ;;
	o)	ORIG=$OPTARG ;;
	*)	echo "usage: bench.sh [-r runs] [-m MiB] [-o orig-bindir]" >&2
		exit 2 ;;
	esac
done
: "${YESSECS:=3}"
: "${SMALLFILES:=1000}"
: "${TEXTMB:=4}"

for p in cat cp tail yes; do
	[ -x "$ORIG/$p" ] || { echo "bench: no $ORIG/$p" >&2; exit 1; }
done
OURS_cat=/bin/cat OURS_cp=/bin/cp OURS_tail=/usr/bin/tail OURS_yes=/usr/bin/yes

D=$(mktemp -d /var/tmp/bench.XXXXXX) || exit 1
TMPFS=$D/tmpfs
cleanup()
{
	umount "$TMPFS" 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir "$TMPFS" && mount -t tmpfs tmpfs "$TMPFS" ||
    { echo "bench: cannot mount a tmpfs" >&2; exit 1; }
RAW=$D/raw.tsv
CALLS=$D/calls.tsv
: > "$RAW"
: > "$CALLS"

# --- the files ---------------------------------------------------------

t0=$(date +%s)
dd if=/dev/random of="$D/big" bs=1m count="$MB" 2>/dev/null || exit 1
# Text for -v, -n and -r: lines of varied length, with tabs, control
# characters and bytes past 0x7f for -v to show.
awk -v size=$((TEXTMB * 1048576)) 'BEGIN {
	s = "the quick brown fox jumps over the lazy dog "
	while (n < size) {
		i++
		l = sprintf("%d\t%s", i, substr(s s, 1 + i % 40, 8 + i % 60))
		if (i % 7 == 0)
			l = l sprintf("%c%c", 1 + i % 26, 128 + i % 128)
		print l
		n += length(l) + 1
	}
}' > "$D/text" || exit 1
mkdir "$D/small" "$D/tree" || exit 1
# Small files of 1 to 4 KiB, cut from the big file by split(1): one
# process, however many files.
dd if="$D/big" bs=1k count=$((SMALLFILES * 2)) 2>/dev/null |
    (cd "$D/small" && split -a 4 -b 2048 - s) || exit 1
i=0
while [ $i -lt 10 ]; do
	mkdir "$D/tree/d$i" &&
	    dd if="$D/big" bs=1k skip=$((i * 400)) count=400 2>/dev/null |
	    (cd "$D/tree/d$i" && split -a 3 -b $((1024 + i * 307)) - f) ||
	    exit 1
	i=$((i + 1))
done
nsmall=$(ls "$D/small" | wc -l | tr -d ' ')
ntree=$(find "$D/tree" -type f | wc -l | tr -d ' ')
t1=$(date +%s)

# --- the rows ----------------------------------------------------------

# Each row is a function of $P (the program), $RUN (what runs it: time
# or ktrace, as words) and $OUT (where its output goes: /dev/null in a
# measured run, a file in the checked one).  prep_ROW, where there is
# one, runs before every run, untimed.
ROWS="cat_null cat_pipe cat_file cat_small cat_v cat_n cp_ufs cp_tmpfs
    cp_tree tail_n tail_r tail_c yes_dd yes_wc ybuf_dd ybuf_wc"

what_cat_null="cat big > /dev/null"
row_cat_null() { $RUN "$P" "$D/big" > "$OUT"; }
what_cat_pipe="cat big | wc -c"
row_cat_pipe() { $RUN "$P" "$D/big" | wc -c > "$OUT"; }
what_cat_file="cat big > new file (UFS)"
prep_cat_file() { rm -f "$D/new"; }
row_cat_file() { $RUN "$P" "$D/big" > "$D/new"; }
check_cat_file() { cat "$D/new"; }
what_cat_small="cat of $nsmall files of 2 KiB > /dev/null"
row_cat_small() { $RUN "$P" "$D"/small/s* > "$OUT"; }
what_cat_v="cat -v text ($TEXTMB MiB) > /dev/null"
row_cat_v() { $RUN "$P" -v "$D/text" > "$OUT"; }
what_cat_n="cat -n text ($TEXTMB MiB) > /dev/null"
row_cat_n() { $RUN "$P" -n "$D/text" > "$OUT"; }
what_cp_ufs="cp big copy (UFS to UFS)"
prep_cp_ufs() { rm -f "$D/copy"; sync; }
row_cp_ufs() { $RUN "$P" "$D/big" "$D/copy"; }
check_cp_ufs() { cmp "$D/big" "$D/copy" && echo same; }
what_cp_tmpfs="cp big into tmpfs"
prep_cp_tmpfs() { rm -f "$TMPFS/copy"; }
row_cp_tmpfs() { $RUN "$P" "$D/big" "$TMPFS/copy"; }
check_cp_tmpfs() { cmp "$D/big" "$TMPFS/copy" && echo same; }
what_cp_tree="cp -R of $ntree files in 10 directories (UFS)"
prep_cp_tree() { rm -rf "$D/treecopy"; sync; }
row_cp_tree() { $RUN "$P" -R "$D/tree" "$D/treecopy"; }
check_cp_tree() { diff -r "$D/tree" "$D/treecopy" && echo same; }
what_tail_n="tail -n 10 big > /dev/null"
row_tail_n() { $RUN "$P" -n 10 "$D/big" > "$OUT"; }
what_tail_r="tail -r text ($TEXTMB MiB) > /dev/null"
row_tail_r() { $RUN "$P" -r "$D/text" > "$OUT"; }
what_tail_c="tail -c +1 big | wc -c"
row_tail_c() { $RUN "$P" -c +1 "$D/big" | wc -c > "$OUT"; }
what_yes_dd="yes | dd bs=1m (${YESSECS} s, per $MB MiB)"
# yes_into READER: yes (under $RUN) into READER through a FIFO for
# YESSECS seconds, then yes is killed: /usr/bin/time reports only the
# process it waited for, so yes must be its child, not timeout(1)'s.
# What READER printed, the byte count, in ./count.
yes_into()
{
	rm -f "$D/fifo" "$D/count"
	mkfifo "$D/fifo" || return 1
	sh -c "$1" < "$D/fifo" > "$D/count" 2>&1 &
	_reader=$!
	# shellcheck disable=SC2086
	$RUN "$P" $A > "$D/fifo" 2>/dev/null &
	_runner=$!
	sleep "$YESSECS"
	# yes is the runner's child under time, the runner itself under
	# ktrace (which execs it).
	_yes=$(pgrep -P $_runner)
	kill ${_yes:-$_runner}
	wait $_runner
	wait $_reader
}
row_yes_dd() { yes_into "dd of=/dev/null bs=1m"; }
count_yes_dd() { awk '/bytes transferred/ { print $1 }' "$D/count"; }
check_yes_dd() { "$P" | head -c 1048576; }
what_yes_wc="yes | wc -c (${YESSECS} s, per $MB MiB)"
row_yes_wc() { yes_into "wc -c"; }
count_yes_wc() { tr -d ' ' < "$D/count"; }
check_yes_wc() { check_yes_dd; }
# The write size alone: FreeBSD's own yes writes 8190 bytes at a time,
# or a whole line where the line is longer, so a line of 65,535 bytes
# and its newline make it write 64 KiB.
LONG=$(printf '%065535d' 0 | tr 0 y)
what_ybuf_dd="FreeBSD's yes writing 64 KiB, then 8190 bytes | dd bs=1m"
side_ybuf_dd="64 KiB;8190"
row_ybuf_dd() { row_yes_dd; }
count_ybuf_dd() { count_yes_dd; }
check_ybuf_dd() { echo "not compared: the lines differ"; }
what_ybuf_wc="FreeBSD's yes writing 64 KiB, then 8190 bytes | wc -c"
side_ybuf_wc="64 KiB;8190"
row_ybuf_wc() { row_yes_wc; }
count_ybuf_wc() { count_yes_wc; }
check_ybuf_wc() { check_ybuf_dd; }

defined()
{
	type "$1" 2>/dev/null | grep -q function
}

# timed ROW SIDE N: one run under /usr/bin/time -l, a line of RAW.
timed()
{
	prog "$1" "$2"
	OUT=/dev/null
	RUN="/usr/bin/time -l -o $D/time.out"
	! defined "prep_$1" || "prep_$1"
	"row_$1"
	bytes=
	! defined "count_$1" || bytes=$("count_$1")
	awk -v row="$1" -v side="$2" -v n="$3" -v bytes="${bytes:-0}" '
	    NR == 1 { real = $1; user = $3; sys = $5 }
	    /voluntary context switches/ && !/involuntary/ { vcs = $1 }
	    /involuntary context switches/ { ivcs = $1 }
	    END { printf("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row, side, n,
		real, user + sys, vcs, ivcs, bytes) }' "$D/time.out" >> "$RAW"
}

# traced ROW SIDE: the system calls of one run, by name, with the bytes
# returned: a line of CALLS for each name.
traced()
{
	prog "$1" "$2"
	OUT=/dev/null
	# Casper's service, a child of tail, is not traced: the program's
	# own calls are counted.
	RUN="ktrace -t c -f $D/ktr"
	rm -f "$D/ktr"
	! defined "prep_$1" || "prep_$1"
	"row_$1"
	bytes=
	! defined "count_$1" || bytes=$("count_$1")
	kdump -f "$D/ktr" | awk -v row="$1" -v side="$2" -v comm="$3" \
	    -v bytes="${bytes:-0}" '
	    $2 == comm && pid == "" { pid = $1 }
	    $1 != pid { next }
	    $3 == "CALL" { name = $4; sub(/\(.*/, "", name); calls[name]++ }
	    $3 == "RET" && $5 + 0 > 0 { ret[$4] += $5 }
	    END {
		for (c in calls)
			printf("%s\t%s\t%s\t%d\t%.0f\t%s\n", row, side, c,
			    calls[c], ret[c], bytes)
	    }' >> "$CALLS"
}

# checked ROW SIDE: the output of one run (or what check_ROW says of it).
checked()
{
	prog "$1" "$2"
	RUN=
	OUT=$D/check.$2
	! defined "prep_$1" || "prep_$1"
	if defined "check_$1"; then
		case $1 in
		yes_*)	;;
		*)	"row_$1" > /dev/null ;;
		esac
		"check_$1" > "$OUT"
	else
		"row_$1"
	fi
}

# prog ROW SIDE: sets P, the program, and A, its further operands.
prog()
{
	A=
	case $1 in
	cat_*)	p=cat ;;
	cp_*)	p=cp ;;
	tail_*)	p=tail ;;
	yes_*)	p=yes ;;
	ybuf_*)	P=$ORIG/yes
		[ "$2" = theirs ] || A=$LONG
		return ;;
	esac
	if [ "$2" = ours ]; then
		eval "P=\$OURS_$p"
	else
		P=$ORIG/$p
	fi
}

bad=
for r in $ROWS; do
	echo "bench: $r started $(date -u +%H:%M:%S)" >&2
	case $r in
	cat_*)	comm=cat ;;
	cp_*)	comm=cp ;;
	tail_*)	comm=tail ;;
	yes_*|ybuf_*) comm=yes ;;
	esac
	checked "$r" ours 2>/dev/null
	checked "$r" theirs 2>/dev/null
	cmp -s "$D/check.ours" "$D/check.theirs" || bad="$bad $r"
	traced "$r" ours "$comm" 2>/dev/null
	traced "$r" theirs "$comm" 2>/dev/null
	n=1
	while [ $n -le "$RUNS" ]; do
		if [ $((n % 2)) = 1 ]; then
			timed "$r" ours $n 2>/dev/null
			timed "$r" theirs $n 2>/dev/null
		else
			timed "$r" theirs $n 2>/dev/null
			timed "$r" ours $n 2>/dev/null
		fi
		n=$((n + 1))
	done
done
t2=$(date +%s)

# --- the report --------------------------------------------------------

physmem=$(sysctl -n hw.physmem)
pagesize=$(sysctl -n hw.pagesize)
maxphys=$(sysctl -n kern.maxphys 2>/dev/null || echo 1048576)
echo "## The guest"
echo
echo "- $(uname -sr), $(sysctl -n hw.model), $(sysctl -n hw.ncpu) CPUs" \
    "emulated by qemu TCG: every CPU instruction is translated, so wall" \
    "and CPU times are the emulator's, and only their ratios between the" \
    "two programs, and the counts, carry over to hardware."
echo "- hw.physmem $physmem bytes ($((physmem / pagesize)) pages of" \
    "$pagesize), kern.maxphys $maxphys," \
    "kern.ipc.pipe_mindirect $(sysctl -n kern.ipc.pipe_mindirect 2>/dev/null)."
echo "- Files: big $MB MiB of /dev/random; text $TEXTMB MiB of lines;" \
    "$nsmall small files of 2 KiB; a tree of $ntree files of 1 to 3.8 KiB" \
    "in 10 directories; all on the root's UFS (soft updates), but the" \
    "tmpfs target, and all in the page cache when read."
echo "- $RUNS runs of each program a row, alternating (ours first in odd" \
    "rounds, FreeBSD's in even ones); medians, and [min-max] over the" \
    "runs.  System calls: one more run of each under ktrace(1)." \
    "Made in $((t1 - t0)) s, measured in $((t2 - t1)) s."
echo "- ours: /bin/cat, /bin/cp, /usr/bin/tail, /usr/bin/yes (the" \
    "import); FreeBSD: FreeBSD 15.1's own, built from its source in" \
    "$ORIG."
echo
if [ -n "$bad" ]; then
	echo "**Outputs differ between the two programs in:$bad**"
	echo
fi

# FreeBSD's cat and cp size their buffer by one rule (bin/cat/cat.c
# raw_cat, bin/cp/utils.c copy_fallback): 2 MiB, or 8 times MAXPHYS if
# less, where there are more than 32k pages, else MAXPHYS; cat writing
# anything but a regular file takes the output's st_blksize instead, at
# least a page.  Both try copy_file_range(2) first.
echo "## The buffer, by FreeBSD's rule and by libbufsz's policy"
echo
pipeblk=$(: | stat -f %k)
nullblk=$(stat -f %k /dev/null)
[ "$pipeblk" -ge "$pagesize" ] || pipeblk=$pagesize
[ "$nullblk" -ge "$pagesize" ] || nullblk=$pagesize
pages=$((physmem / pagesize))
if [ $pages -gt $((32 * 1024)) ]; then
	large=$((8 * maxphys))
	[ $large -le 2097152 ] || large=2097152
	past="more than 32k"
else
	large=$maxphys
	past="not more than 32k"
fi
echo "FreeBSD 15.1's cat and cp on this guest ($pages pages, $past):" \
    "copy_file_range(2) first; where it is refused, read(2) and" \
    "write(2) with a buffer of $((large / 1024)) KiB to a regular file" \
    "(cat and cp), and of the output's st_blksize, at least a page, to" \
    "anything else (cat): $((pipeblk / 1024)) KiB to a pipe," \
    "$((nullblk / 1024)) KiB to /dev/null.  FreeBSD's tail reads with" \
    "stdio or mmap(2); its yes writes 8190 bytes at a time."
echo
# Installed beside FreeBSD's own programs, out of rc.local's PATH.
if [ -x /usr/local/bin/bufszinfo ]; then
	echo "libbufsz's policy on this guest, as bufszinfo (tools/bufszinfo)" \
	    "prints it:"
	echo
	echo '```'
	TMPDIR=$D /usr/local/bin/bufszinfo
	echo '```'
else
	echo "(no bufszinfo in the guest)"
fi
echo
echo "On the big file of every row, each program's own choice is the" \
    "bytes a data call returned, in the table below."
echo

echo "## The rows"
echo
echo "CPU s: user + sys of the program alone.  wall: ours / FreeBSD's" \
    "median wall time.  cs: context switches, voluntary and involuntary" \
    "(ru_nvcsw, ru_nivcsw, as \`/usr/bin/time -l\` prints them).  calls:" \
    "every system call, from ktrace; then each data call's count and" \
    "the bytes it returned on average.  yes's rows are scaled to $MB MiB" \
    "of output."
echo
{
	echo "#what"
	for r in $ROWS; do
		eval "printf '%s\t%s\t%s\n' $r \"\$what_$r\" \"\${side_$r:-}\""
	done
	echo "#calls"
	cat "$CALLS"
	echo "#raw"
	cat "$RAW"
} | awk -F '\t' -v mb="$MB" -v rows="$(echo $ROWS)" '
    /^#/ { part = $0; next }
    part == "#what" {
	w = $2
	gsub(/\|/, "\\|", w)
	what[$1] = w
	label[$1, "o"] = "ours"
	label[$1, "t"] = "FreeBSD"
	if (split($3, l, ";") == 2) {
		label[$1, "o"] = l[1]
		label[$1, "t"] = l[2]
	}
	next
    }
    part == "#calls" {
	k = $1 SUBSEP $2
	scale = $6 > 0 ? mb * 1048576 / $6 : 1
	ncalls[k] += $4 * scale
	if ($3 ~ /^(read|pread|readv|write|pwrite|writev|copy_file_range|sendfile)$/) {
		dn[k, $3] += $4 * scale
		db[k, $3] += $5 * scale
		names[k] = names[k] " " $3
	}
	next
    }
    part == "#raw" {
	k = $1 SUBSEP $2
	scale = $8 > 0 ? mb * 1048576 / $8 : 1
	nr[k]++
	real[k, nr[k]] = $4 * scale
	cpu[k, nr[k]] = $5 * scale
	vcs[k, nr[k]] = $6 * scale
	ivcs[k, nr[k]] = $7 * scale
    }
    function sort(a, k, n,	i, j, t) {
	for (i = 1; i <= n; i++)
		s[i] = a[k, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && s[j - 1] > s[j]; j--) {
			t = s[j]; s[j] = s[j - 1]; s[j - 1] = t
		}
    }
    function med(a, k, n) {
	sort(a, k, n)
	return (n % 2 ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2)
    }
    function spread(a, k, n, fmt) {
	sort(a, k, n)
	return (sprintf(fmt " [" fmt "-" fmt "]", med(a, k, n), s[1], s[n]))
    }
    function data(k,	out, m, i, c, seen) {
	m = split(names[k], c, " ")
	out = ""
	for (i = 1; i <= m; i++) {
		if (c[i] in seen)
			continue
		seen[c[i]] = 1
		out = out (out == "" ? "" : ", ") sprintf("%s %.0f x %.0f",
		    c[i], dn[k, c[i]], dn[k, c[i]] ? db[k, c[i]] / dn[k, c[i]] : 0)
	}
	return (out == "" ? "-" : out)
    }
    END {
	print "| row | program | CPU s | wall s | wall ratio | voluntary cs | involuntary cs | calls | data calls x bytes |"
	print "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
	nrow = split(rows, r, " ")
	for (i = 1; i <= nrow; i++) {
		o = r[i] SUBSEP "ours"
		t = r[i] SUBSEP "theirs"
		ratio = "-"
		if (med(real, t, nr[t]) > 0)
			ratio = sprintf("%.2f",
			    med(real, o, nr[o]) / med(real, t, nr[t]))
		printf("| %s | %s | %s | %s | %s | %s | %s | %.0f | %s |\n",
		    what[r[i]], label[r[i], "o"], spread(cpu, o, nr[o], "%.2f"),
		    spread(real, o, nr[o], "%.2f"), ratio,
		    spread(vcs, o, nr[o], "%.0f"),
		    spread(ivcs, o, nr[o], "%.0f"), ncalls[o], data(o))
		printf("| | %s | %s | %s | | %s | %s | %.0f | %s |\n",
		    label[r[i], "t"], spread(cpu, t, nr[t], "%.2f"),
		    spread(real, t, nr[t], "%.2f"),
		    spread(vcs, t, nr[t], "%.0f"),
		    spread(ivcs, t, nr[t], "%.0f"), ncalls[t], data(t))
	}
    }'

echo
echo "## The system calls, by name"
echo
echo "Every call of one run of each program under ktrace(1), with the" \
    "bytes the data calls returned in all (yes: unscaled, over" \
    "$YESSECS s)."
echo
echo '```'
# label ROW SIDE: the side's name in the report.
label()
{
	case $1:$2 in
	ybuf_*:ours)	echo 64KiB ;;
	ybuf_*:theirs)	echo 8190 ;;
	*:ours)		echo ours ;;
	*)		echo FreeBSD ;;
	esac
}
for r in $ROWS; do
	for side in ours theirs; do
		awk -F '\t' -v row="$r" -v side="$side" '
		    $1 == row && $2 == side { print $4 "\t" $3 "\t" $5 "\t" $6 }' \
		    "$CALLS" | sort -nr | awk -F '\t' -v row="$r" \
		    -v side="$(label "$r" "$side")" '
		    NR == 1 {
			printf("%-10s %-7s", row, side)
			if ($4 > 0)
				printf(" (%s bytes out)", $4)
			printf(":")
		    }
		    { printf(" %s %d", $2, $1); if ($3 > 0) printf("/%.0f", $3) }
		    END { if (NR > 0) printf("\n") }'
	done
done
echo '```'

echo
echo "## The runs"
echo
echo "row, program, run, wall s, CPU s, voluntary and involuntary cs," \
    "bytes (yes: as its reader counted them, unscaled)."
echo
echo '```'
while IFS='	' read -r r side rest; do
	printf '%s\t%s\t%s\n' "$r" "$(label "$r" "$side")" "$rest"
done < "$RAW"
echo '```'
