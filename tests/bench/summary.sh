# SPDX-License-Identifier: BSD-2-Clause
#
# summary.sh: the summary of a make bench run, for docs/bench/summary.md,
# from the files report.sh left in OUTDIR: a table of each case's median
# for each tool, the best of each row in bold, one of cat's formatting
# options, ours against GNU's, and one of cat and tail -c +1 into six
# readers, with the CPU they ran on.
#
#	sh summary.sh OUTDIR
#
# With -p DOCDIR, also copies the report and its plots there (the
# tree's docs/bench), so that docs/bench/summary.md's links show this run.

set -u

usage() {
	echo "usage: sh summary.sh [-p docdir] outdir" >&2
	exit 1
}

docdir=
while getopts p: ch; do
	case $ch in
	p)	docdir=$OPTARG ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || usage
OUT=$1
[ -s "$OUT/report.md" ] && [ -s "$OUT/runs.tsv" ] || {
	echo "summary.sh: $OUT: no report.md and runs.tsv there" >&2
	exit 1
}

BIG=$(awk -F'\t' '$1 == "big" { print $2 }' "$OUT/params.tsv" 2>/dev/null)
NFILES=$(awk -F'\t' '$1 == "nfiles" { print $2 }' "$OUT/params.tsv" \
    2>/dev/null)
: "${BIG:=1073741824}" "${NFILES:=20000}"
# A byte count as GiB or MiB.
gb() {
	awk -v b="$1" 'BEGIN {
		if (b >= 1073741824)
			printf "%g GiB", b / 1073741824
		else
			printf "%g MiB", b / 1048576
	}'
}

size=$(gb "$BIG")
yessize=$(awk -F'\t' '$1 == "yesbytes" { print $2 }' "$OUT/params.tsv" \
    2>/dev/null)
yessize=$(gb "${yessize:-4294967296}")
files=$(awk -v n="$NFILES" 'BEGIN {
	if (n >= 1000 && n % 1000 == 0)
		printf "%d,000\n", n / 1000
	else
		print n }')

# row LABEL HIGHER VALUES...: one line, the best value in bold.  HIGHER
# is 1 when more is better; a value "—" is a tool not measured.
row() {
	label=$1 higher=$2
	shift 2
	echo "$*" | awk -v label="$label" -v higher="$higher" '{
		best = ""
		for (i = 1; i <= NF; i++) {
			v = $i
			if (v == "—") continue
			sub(/;.*/, "", v)
			if (best == "" || (higher && v + 0 > best + 0) ||
			    (!higher && v + 0 < best + 0))
				best = v
		}
		printf "| %s |", label
		for (i = 1; i <= NF; i++) {
			v = $i
			sub(/;.*/, "", v)
			out = $i
			gsub(/;/, "; ", out)
			gsub(/_/, " ", out)
			if (v != "—" && v + 0 == best + 0 && NF > 1)
				out = "**" out "**"
			printf " %s |", out
		}
		printf "\n"
	}'
}

# dat CASE FMT: each tool's median from CASE.dat, as FMT.
dat() {
	for t in ours gnu busybox uutils; do
		awk -v t=$t -v fmt="$2" '$1 == t { printf fmt, $2; f = 1 }
		    END { if (!f) printf "—" }' "$OUT/$1.dat" 2>/dev/null ||
		    printf '—'
		printf ' '
	done
}

# seconds CASE: each tool's median seconds from runs.tsv.
seconds() {
	for t in ours gnu busybox uutils; do
		awk -F'\t' -v c="$1" -v t=$t '
		$1 == c && $2 == t && $3 > 0 && $8 == 0 { v[++n] = $4 }
		END {
			if (!n) { printf "—"; exit }
			for (i = 2; i <= n; i++)
				for (j = i; j > 1 && v[j - 1] > v[j]; j--) {
					x = v[j]; v[j] = v[j - 1]; v[j - 1] = x
				}
			if (n % 2)
				m = v[(n + 1) / 2]
			else
				m = (v[n / 2] + v[n / 2 + 1]) / 2
			printf "%.3f", m
		}' "$OUT/runs.tsv"
		printf ' '
	done
}

# with_space FILE CASE SECONDS: each tool's seconds, and after ";" the
# space (the last column of FILE, KiB) that its copy took.
with_space() {
	set -- "$1" "$2" $3
	file=$1 c=$2
	shift 2
	for t in ours gnu busybox uutils; do
		s=$1
		shift
		if [ "$s" = "—" ]; then
			printf '— '
			continue
		fi
		awk -F'\t' -v c="$c" -v t=$t -v s="$s" '
		$1 == c && $2 == t { k = $NF; f = 1 }
		END {
			if (!f) { printf "%s ", s; exit }
			if (k < 1024 && k > -1024)
				printf "%s;%d_KiB ", s, k
			else
				printf "%s;%.0f_MiB ", s, k / 1024
		}' "$file" 2>/dev/null
	done
}

syscalls() {
	for t in ours gnu busybox uutils; do
		awk -F'\t' -v p="$1" -v t=$t '$1 == p && $2 == t {
		    printf "%.1f", $3; f = 1 } END { if (!f) printf "—" }' \
		    "$OUT/syscalls.tsv" 2>/dev/null || printf '—'
		printf ' '
	done
}

latency() {
	for t in ours gnu busybox uutils; do
		awk -v t=$t '$1 == t { printf "%.3f", $2; f = 1 }
		    END { if (!f) printf "—" }' "$OUT/tail_f.dat" \
		    2>/dev/null || printf '—'
		printf ' '
	done
}

has() {
	[ -s "$OUT/$1" ]
}

echo "| case | ours | GNU | busybox | uutils |"
echo "| --- | ---: | ---: | ---: | ---: |"
has cat_null.dat && row "cat $size cached → /dev/null, GB/s" 1 $(dat cat_null %.2f)
has cat_wc.dat && row "cat $size → pipe → \`wc -c\`, GB/s" 1 $(dat cat_wc %.2f)
has cat_cat.dat && row "cat $size → pipe → cat, GB/s" 1 $(dat cat_cat %.2f)
has cat_file.dat && row "cat $size → new file, GB/s" 1 $(dat cat_file %.2f)
has cat_small.dat &&
    row "cat $files files of 4 KiB → /dev/null, k files/s" 1 $(dat cat_small %.0f)
has syscalls.tsv && row "system calls per small file: cat" 0 $(syscalls cat)
if has cat_copying.dat; then
	rw=$(awk '$1 == "ours-rw" { printf "%.2f", $2 }' "$OUT/cat_copying.dat")
	auto=$(awk '$1 == "ours" { printf "%.2f", $2 }' "$OUT/cat_copying.dat")
	echo "| cat $size → pipe, lending pages (ours) or copying them (FAULTINJ_PATH=rw), GB/s | $auto; copying $rw | — | — | — |"
fi
has cp_ext4.dat && row "cp $size, same file system, GB/s" 1 $(dat cp_ext4 %.2f)
has cp_tmpfs.dat && row "cp $size → tmpfs, GB/s" 1 $(dat cp_tmpfs %.2f)
has cp_sparse.dat &&
    row "cp $size sparse, s; space of the copy" 0 \
    $(with_space "$OUT/sparse.tsv" cp_sparse "$(seconds cp_sparse)")
for fs in xfs btrfs; do
	grep -q "^cp_clone_$fs	" "$OUT/runs.tsv" || continue
	name=XFS
	[ $fs = btrfs ] && name=Btrfs
	# The space of the first timed run.
	awk -F'\t' -v c=cp_clone_$fs '$1 == c && $3 == 1' "$OUT/clone.tsv" \
	    > "$OUT/clone.first"
	row "cp $size on $name (clone), s; new space" 0 \
	    $(with_space "$OUT/clone.first" cp_clone_$fs \
	    "$(seconds cp_clone_$fs)")
	rm -f "$OUT/clone.first"
done
has cp_tree_ext4.dat &&
    row "cp -R $files files, same file system, k files/s" 1 $(dat cp_tree_ext4 %.1f)
has cp_tree_tmpfs.dat &&
    row "cp -R $files files → tmpfs, k files/s" 1 $(dat cp_tree_tmpfs %.1f)
has syscalls.tsv && row "system calls per small file: cp" 0 $(syscalls cp)
has yes_pipe.dat && row "yes → pipe → 64 KiB reader, GB/s" 1 $(dat yes_pipe %.2f)
has yes_head.dat && row "yes \\| head -c $yessize, GB/s" 1 $(dat yes_head %.2f)
has yes_dd.dat &&
    row "yes \\| dd bs=1M iflag=fullblock, GB/s" 1 $(dat yes_dd %.2f)
has yes_wc.dat && row "yes \\| wc -c, GB/s" 1 $(dat yes_wc %.2f)
has tail_n10.dat && row "tail -n 10 of $size, ms" 0 $(dat tail_n10 %.2f)
if has tailreads.tsv; then
	row "tail -n 10 of $size: bytes read (and mapped)" 0 $(
	for t in ours gnu busybox uutils; do
		awk -F'\t' -v t=$t '$1 == t { printf "%d", $3 + $4; f = 1 }
		    END { if (!f) printf "—" }' "$OUT/tailreads.tsv"
		printf ' '
	done)
fi
has tail_plus.dat &&
    row "tail -c +1 $size \\| wc -c, GB/s" 1 $(dat tail_plus %.2f)
has tail_r.dat && row "tail -r (others: tac), GB/s" 1 $(dat tail_r %.2f)
has tail_f.dat && row "tail -f, write to output, ms" 0 $(latency)

# cat's formatting: a table of its own, from report.sh's fmt.dat (case,
# locale, ours/GNU, overlap, fastest); the seconds are in the report.
if has fmt.dat; then
	cat <<EOF

cat's formatting options: ours/GNU is the median of per-round ratios of
time, below 1 where ours is faster; overlap "yes" where ours' and GNU's
min–max overlap, so that the runs cannot tell the two apart.

| cat's formatting | locale | ours/GNU | overlap | fastest |
| --- | --- | ---: | --- | --- |
EOF
	awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4,
	    $5 }' "$OUT/fmt.dat"
fi

# The readers: a table of their own, from report.sh's readers.dat (case;
# the medians of ours, GNU, busybox, uutils and the reader alone; ours
# over each; overlap; fastest), with the CPU they ran on.
if has readers.dat; then
	cpu=$(awk -F'\t' '$1 == "rdcpu" { print $2 }' "$OUT/params.tsv")
	case $cpu in
	-)	cpu="not known (/proc/cpuinfo has no model name there)" ;;
	'')	cpu="not recorded" ;;
	esac
	cat <<EOF

cat and tail -c +1 into six readers, on CPU: $cpu.  Seconds, medians;
"alone" is the reader given the file itself.  ours/X is the median of
per-round ratios of time, below 1 where ours is faster; overlap names
the peers whose min–max overlaps ours'.

| writer → pipe → reader | ours | GNU | busybox | uutils | alone | ours/GNU | ours/busybox | ours/uutils | overlap | fastest |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |
EOF
	awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
	    $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 }' "$OUT/readers.dat"
fi

if [ -n "$docdir" ]; then
	mkdir -p "$docdir" || exit 1
	rm -f "$docdir"/*.png
	cp "$OUT/report.md" "$OUT"/*.png "$docdir"/ || exit 1
	echo "summary.sh: copied the report and its plots to $docdir" >&2
fi
