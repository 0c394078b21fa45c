# SPDX-License-Identifier: BSD-2-Clause
#
# report.sh: turn bench.sh's raw runs into report.md and gnuplot PNGs.
#
#	sh report.sh OUTDIR ELAPSED QUICK BIG NFILES NDIRS NSTRACE WINDOW
#
# Kept apart from bench.sh so that a report can be redrawn from the raw
# files of a run without running it again.

set -u
OUT=$1 ELAPSED=$2 QUICK=$3 BIG=$4 NFILES=$5 NDIRS=$6 NSTRACE=$7 WINDOW=$8
R=$OUT/report.md
SMALLBYTES=$((NFILES * 4096))

# Medians and per-pair ratios in awk: a median is of the sorted values,
# the middle one or the mean of the middle two.
AWKLIB='
function sortn(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
}
function median(a, n) {
	sortn(a, n)
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function minof(a, n,    i, m) {
	m = a[1]
	for (i = 2; i <= n; i++) if (a[i] < m) m = a[i]
	return m
}
function maxof(a, n,    i, m) {
	m = a[1]
	for (i = 2; i <= n; i++) if (a[i] > m) m = a[i]
	return m
}
function human(kib) {
	return kib >= 10240 ? sprintf("%.1f MiB", kib / 1024) : kib " KiB"
}
'

machine() {
	cpu=$(awk -F': ' '
	    /^model name/ { m = $2 }
	    /^cpu family/ { f = $2 }
	    /^model\t/ { n = $2 }
	    END { if (m) printf "%s (family %s, model %s)", m, f, n }' \
	    /proc/cpuinfo 2>/dev/null)
	[ -n "$cpu" ] || cpu=$(sysctl -n hw.model 2>/dev/null)
	ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu)
	mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' \
	    /proc/meminfo 2>/dev/null)
	fs=$(df -T "${TMPDIR:-/tmp}" 2>/dev/null | awk 'NR == 2 { print $2 }')
	shmfs=$(df -T "${SHMDIR:-/dev/shm}" 2>/dev/null |
	    awk 'NR == 2 { print $2 }')
	hv=$(lscpu 2>/dev/null |
	    awk -F': *' '/^Hypervisor vendor/ { print $2 }')
	caches=$(lscpu 2>/dev/null | awk -F': *' '/^L[123][di]? cache/ {
	    printf "%s%s %s", s, $1, $2; s = ", " }')
	echo "- CPU: ${cpu:-unknown}, $ncpu cores"
	echo "- Memory: ${mem:-unknown}"
	echo "- Kernel: $(uname -srm)"
	echo "- File systems: ${TMPDIR:-/tmp} on ${fs:-?}," \
	    "${SHMDIR:-/dev/shm} on ${shmfs:-?}"
	echo "- Load average at the end: $(uptime | sed 's/.*load average: //')"
	[ -z "$hv" ] || echo "- Hypervisor: $hv"
	[ -z "$caches" ] || echo "- Caches: $caches"
}

# limit_of CASE: the limits.tsv row that bounds a case, or nothing.
limit_of() {
	case $1 in
	cat_null)		echo read ;;
	cat_wc|cat_cat)		echo pipe ;;
	cat_file|cp_ext4)	echo file ;;
	cp_tmpfs)		echo write-tmpfs ;;
	*)			echo ;;
	esac
}

# One table per case: each tool's median time with its spread, its
# throughput, its speed relative to ours (the median of per-round ratios,
# so that a slow minute on the shared machine cancels out), its peak RSS,
# and ours against the machine's limit.
#
#	case_table CASE BYTES UNIT TITLE ...
#
# BYTES is what one run moves (0: what timeit counted); UNIT is GB/s or
# k files/s, when BYTES is a number of files.
case_table() {
	c=$1 bytes=$2 unit=$3
	shift 3
	title=$*
	div=1e9
	[ "$unit" = "GB/s" ] || div=1e3
	lim=$(limit_of "$c")
	limv=
	if [ "$lim" = file ]; then
		limv=$(awk '$1 == "cfr" || $1 == "splice-file" {
		    if ($2 > m) m = $2 } END { if (m) print m }' \
		    "$OUT/limits.tsv" 2>/dev/null)
		lim="file to file (best of cfr, splice)"
	elif [ "$lim" = pipe ]; then
		limv=$(awk '$1 == "pipe" { print $2 }' "$OUT/limits.tsv" \
		    2>/dev/null)
		lim="write(2) and read(2) through a pipe; splice can beat it"
	elif [ -n "$lim" ]; then
		limv=$(awk -v l="$lim" '$1 == l { print $2 }' \
		    "$OUT/limits.tsv" 2>/dev/null)
	fi
	echo
	echo "### $title"
	echo
	awk -F'\t' -v c="$c" -v bytes="$bytes" -v limv="${limv:-0}" \
	    -v unit="$unit" -v div="$div" \
	    -v lim="$lim" -v png="$c.png" -v dat="$OUT/$c.dat" "$AWKLIB"'
	# A bounded run that counted no bytes could not be measured (a
	# yes that splices to /dev/null writes nothing /proc/PID/io sees).
	$1 == c && $3 > 0 && $8 == 0 && bytes == 0 && $9 <= 0 {
		if (!($2 in unmeasured)) unmeasured[$2] = 1
		next
	}
	$1 == c && $3 > 0 && $8 == 0 {
		t = $2; k = $3
		b = $9 > 0 ? $9 : bytes
		if (!(t in n)) {
			# Ours first, the others in the order they ran.
			if (t == "ours") {
				for (i = ++nt; i > 1; i--)
					order[i] = order[i - 1]
				order[1] = t
			} else
				order[++nt] = t
		}
		n[t]++
		sec[t, n[t]] = $4
		rate[t, n[t]] = b / $4 / div
		rss[t, n[t]] = $7
		byk[t, k] = b / $4
	}
	END {
		if (nt == 0) { print "(no runs)"; exit }
		printf "| tool | seconds, median (min–max) | %s |", unit
		print " speed vs ours | peak RSS |"
		print "|---|---:|---:|---:|---:|"
		for (i = 1; i <= nt; i++) {
			t = order[i]
			for (j = 1; j <= n[t]; j++) {
				s[j] = sec[t, j]; g[j] = rate[t, j]
				m[j] = rss[t, j]
			}
			med = median(s, n[t])
			gm = median(g, n[t])
			np = 0
			for (k = 1; k <= 1000; k++)
				if ((t, k) in byk && ("ours", k) in byk)
					p[++np] = byk[t, k] / byk["ours", k]
			ratio = np ? sprintf("%.2f×", median(p, np)) : "—"
			if (t == "ours") ratio = "1"
			printf "| %s | %.3f (%.3f–%.3f) | %.2f | %s | %s |\n",
			    t, med, minof(s, n[t]), maxof(s, n[t]), gm, ratio,
			    human(median(m, n[t]))
			printf "%s %.4f %.4f %.4f\n", t, gm, minof(g, n[t]),
			    maxof(g, n[t]) > dat
			if (t == "ours") ours = gm
		}
		for (t in unmeasured)
			if (!(t in n))
				printf "| %s | — | not measurable |" \
				    " — | — |\n", t
		print ""
		printf "%d runs a tool, interleaved.", n[order[1]]
		printf " Speed vs ours > 1: faster than ours."
		if (limv > 0 && ours > 0)
			printf " Ours is at %.0f%% of the limit" \
			    " (%s, %.2f GB/s).", \
			    100 * ours / limv, lim, limv
		print ""
		print ""
		printf "![%s](%s)\n", c, png
	}' "$OUT/runs.tsv"
}

# A bar chart per case: each tool's median GB/s, its min-max as a bar.
bar_chart() {
	c=$1 title=$2
	[ -s "$OUT/$c.dat" ] || return 0
	case $c in
	cat_small|cp_tree*)	unit="k files/s" ;;
	*)			unit="GB/s" ;;
	esac
	gnuplot <<EOF 2>> "$OUT/gnuplot.log"
set terminal png size 640,400 noenhanced
set output "$OUT/$c.png"
set title "$title"
set ylabel "$unit (median, min-max)"
set style fill solid 0.6
set boxwidth 0.6
set yrange [0:*]
set grid ytics
unset key
plot "$OUT/$c.dat" using 0:2:xtic(1) with boxes, \
     "" using 0:2:3:4 with yerrorbars lc rgb "black" pt 0
EOF
}

# Throughput against buffer size from sweep's runs: a plot per mode
# (warm, cold) and output, wall clock and per CPU second, medians with
# their min-max.  sweep.tsv: mode output size round wall cpu bytes
# gbps cpugbps.
sweep_plot() {
	mode=$1
	[ -s "$OUT/sweep.tsv" ] || return 0
	outs=$(awk -F'\t' -v mode="$mode" '$1 == mode && !seen[$2]++ {
	    printf "%s ", $2 }' "$OUT/sweep.tsv")
	for o in $outs; do
		for col in 8 9; do
			awk -F'\t' -v mode="$mode" -v o="$o" -v col=$col \
			    "$AWKLIB"'
			$1 == mode && $2 == o {
				if (!($3 in n)) sizes[++ns] = $3
				v[$3, ++n[$3]] = $col
			}
			END {
				sortn(sizes, ns)
				for (i = 1; i <= ns; i++) {
					s = sizes[i]
					for (k = 1; k <= n[s]; k++)
						a[k] = v[s, k]
					printf "%d %.4f %.4f %.4f\n", s / 1024,
					    median(a, n[s]), minof(a, n[s]),
					    maxof(a, n[s])
				}
			}' "$OUT/sweep.tsv" > "$OUT/sweep-$mode-$o.$col.dat"
		done
		gnuplot <<EOF 2>> "$OUT/gnuplot.log"
set terminal png size 640,400 noenhanced
set output "$OUT/sweep-$mode-$o.png"
set title "libbufsz read/write loop to $o, $mode cache"
set xlabel "buffer (KiB)"
set ylabel "GB/s (median, min-max)"
set logscale x 2
set yrange [0:*]
set grid
set key bottom center
plot "$OUT/sweep-$mode-$o.8.dat" using 1:2:3:4 with yerrorlines \
	title "wall clock", \
     "$OUT/sweep-$mode-$o.9.dat" using 1:2:3:4 with yerrorlines \
	title "per CPU second"
EOF
		echo "![sweep, $mode, $o](sweep-$mode-$o.png)" \
		    >> "$OUT/sweep-$mode.plots"
	done
}

syscall_table() {
	[ -s "$OUT/syscalls.tsv" ] || return 0
	cat <<EOF

### System calls per small file

strace -f -c over $NSTRACE files of 4 KiB (cat: all of them as operands;
cp: cp -R of their directory).  The calls made at least once every other
file:

| program | tool | calls | per file | the frequent ones, per file |
|---|---|---:|---:|---|
EOF
	awk -F'\t' '{
		printf "| %s | %s | %d | %.1f | %s |\n", $1, $2, $3, $4, $5
	}' "$OUT/syscalls.tsv"
}

sparse_table() {
	[ -s "$OUT/sparse.tsv" ] || return 0
	cat <<EOF

Space taken by each tool's copy of the sparse file (du -k; the source
has $(( (BIG / 1048576 + 63) / 64 )) MiB of data):

EOF
	awk -F'\t' '{ printf "- %s: %d KiB\n", $2, $3 }' "$OUT/sparse.tsv"
}

# A byte count as GiB or MiB.
gb() {
	awk -v b="$1" 'BEGIN {
		if (b >= 1073741824)
			printf "%g GiB", b / 1073741824
		else
			printf "%g MiB", b / 1048576
	}'
}

have_gnuplot() {
	command -v gnuplot > /dev/null 2>&1 && return 0
	echo "bench: no gnuplot: no plots" >&2
	return 1
}

header() {
	quick=
	[ "$QUICK" = 1 ] && quick=" QUICK=1"
	cat <<EOF
# make bench: cat, cp and yes against GNU, busybox and uutils

$(date -u '+%Y-%m-%d %H:%M UTC'), QUICK=$QUICK, $ELAPSED s.  Reproduce:
\`make bench$quick\` at the top of the tree (tests/bench/README).
EOF
	[ "$QUICK" = 1 ] && cat <<EOF
QUICK: small files and few runs, to keep the harness alive; its figures
mean little.
EOF
	echo
	echo "## The machine"
	echo
	machine
	cat <<EOF

GB/s are 10^9 bytes a second.  Each figure is the median of the runs
with its min–max; tools alternate within a round after an untimed,
checked warm-up.  This machine is shared: trust the ratios more than
the absolute figures.
EOF
	if [ -s "$OUT/notes.txt" ]; then
		printf '\n## Notes\n\n'
		sed 's/^/- /' "$OUT/notes.txt"
	fi
}

limits_and_sweep() {
	printf "\n## The machine's limits\n\n"
	cat "$OUT/limits.md" 2>/dev/null
	printf "\n## libbufsz's read/write loop against its buffer size"
	printf " (sweep)\n\nWarm cache:\n\n"
	cat "$OUT/sweep-warm.md" 2>/dev/null
	echo
	cat "$OUT/sweep-warm.plots" 2>/dev/null
	cat <<EOF

Cold cache (the input evicted with posix_fadvise(POSIX_FADV_DONTNEED)
before each run):

EOF
	cat "$OUT/sweep-cold.md" 2>/dev/null
	echo
	cat "$OUT/sweep-cold.plots" 2>/dev/null
}

cat_cases() {
	printf '\n## cat\n'
	case_table cat_null "$BIG" GB/s \
	    "cat: a cached $bigname file to /dev/null"
	case_table cat_wc "$BIG" GB/s \
	    "cat: a cached $bigname file into a pipe read by wc -c"
	case_table cat_cat "$BIG" GB/s \
	    "cat: a cached $bigname file into a pipe" \
	    "read by the same cat (to /dev/null)"
	case_table cat_file "$BIG" GB/s \
	    "cat: a cached $bigname file to a new file"
	case_table cat_small "$NFILES" "k files/s" \
	    "cat: $NFILES files of 4 KiB through xargs to /dev/null"
}

cp_cases() {
	printf '\n## cp\n'
	case_table cp_ext4 "$BIG" GB/s \
	    "cp: a cached $bigname file to a new file on the same file system"
	case_table cp_tmpfs "$BIG" GB/s "cp: a cached $bigname file to tmpfs"
	case_table cp_sparse "$BIG" GB/s "cp: a $bigname sparse file"
	sparse_table
	case_table cp_tree_ext4 "$NFILES" "k files/s" \
	    "cp -R: $NFILES files of 4 KiB in $NDIRS directories," \
	    "to a new directory"
	case_table cp_tree_tmpfs "$NFILES" "k files/s" \
	    "cp -R: the same tree to tmpfs"
	syscall_table
}

yes_cases() {
	printf '\n## yes\n'
	case_table yes_pipe 0 GB/s "yes: into a pipe read by a fixed reader" \
	    "(64 KiB reads) for $WINDOW s"
	pipe=$(awk '$1 == "pipe" { print $2 " GB/s" }' "$OUT/limits.tsv" \
	    2>/dev/null)
	cat <<EOF

For scale, write(2) of memory into a pipe with the same reader:
${pipe:-?} (limits); a yes that beats it is not using write(2).
EOF
	case_table yes_null 0 GB/s "yes: to /dev/null for $WINDOW s" \
	    "(bytes from /proc/PID/io)"
	cat <<EOF

/dev/null copies nothing: this counts the bytes handed to write(2) a
second, which grows with the size of each write.
EOF
}

main() {
	bigname=$(gb "$BIG")
	rm -f "$OUT"/*.plots "$OUT"/*.png
	if have_gnuplot; then
		sweep_plot warm
		sweep_plot cold
	fi
	{
		header
		limits_and_sweep
		cat_cases
		cp_cases
		yes_cases
	} > "$R"

	# The bar charts draw the .dat files the tables wrote.
	have_gnuplot 2>/dev/null || return 0
	for c in cat_null cat_wc cat_cat cat_file cat_small cp_ext4 cp_tmpfs \
	    cp_sparse cp_tree_ext4 cp_tree_tmpfs yes_pipe yes_null; do
		bar_chart $c "$c"
	done
}

main
