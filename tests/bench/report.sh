# SPDX-License-Identifier: BSD-2-Clause
#
# report.sh: turn bench.sh's raw runs into report.md and gnuplot PNGs.
#
#	sh report.sh OUTDIR ELAPSED QUICK BIG NFILES NDIRS NSTRACE WINDOW \
#	    YESBYTES REVSIZE
#
# Kept apart from bench.sh so that a report can be redrawn from the raw
# files of a run without running it again.

set -u
OUT=$1 ELAPSED=$2 QUICK=$3 BIG=$4 NFILES=$5 NDIRS=$6 NSTRACE=$7 WINDOW=$8
YESBYTES=${9:-4294967296} REVSIZE=${10:-104857600}
R=$OUT/report.md

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

# The CPU: the first model name of /proc/cpuinfo, or a BSD's hw.model.
cpu_name() {
	cpu=$(awk -F': ' '
	    /^model name/ && !m { m = $2 }
	    /^cpu family/ && !f { f = $2 }
	    /^model\t/ && !n { n = $2 }
	    END { if (m) printf "%s (family %s, model %s)", m, f, n }' \
	    /proc/cpuinfo 2>/dev/null)
	[ -n "$cpu" ] || cpu=$(sysctl -n hw.model 2>/dev/null)
	echo "${cpu:-unknown}"
}

machine() {
	cpu=$(cpu_name)
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
	echo "- CPU: $cpu, $ncpu cores"
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
	cat_wc|cat_cat|cat_copying|tail_plus) echo pipe ;;
	cat_file|cp_ext4)	echo file ;;
	cp_tmpfs)		echo write-tmpfs ;;
	*)			echo ;;
	esac
}

# One table per case: each tool's median time with its spread, its
# throughput by the wall clock and per CPU second (user+sys of everything
# the run started), its speed relative to ours (the median of per-round
# ratios, so that a slow minute on the shared machine cancels out), its
# peak RSS, and ours against the machine's limit.  A ratio is marked
# noise when the tool's min-max and ours overlap.
#
#	case_table CASE BYTES UNIT TITLE ...
#
# BYTES is what one run moves (0: what the run counted); UNIT is GB/s, or
# k files/s when BYTES is a number of files, or s: times only, for runs
# whose size says nothing (tail -n 10 of a big file).  Writes CASE.dat
# for the bar chart: tool, wall rate (median, min, max), CPU rate (median,
# min, max), ratio, noise, runs.
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
	rm -f "$OUT/$c.dat"
	awk -F'\t' -v c="$c" -v bytes="$bytes" -v limv="${limv:-0}" \
	    -v unit="$unit" -v div="$div" -v cap="$SLOWCAP" \
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
		cpu = $5 + $6
		sec[t, n[t]] = $4
		cs[t, n[t]] = cpu
		if (unit == "s") {
			# Rates of runs a second, for the ratios.
			rate[t, n[t]] = 1 / $4
			crate[t, n[t]] = cpu > 0 ? 1 / cpu : 0
			byk[t, k] = 1 / $4
		} else {
			rate[t, n[t]] = b / $4 / div
			crate[t, n[t]] = cpu > 0 ? b / cpu / div : 0
			byk[t, k] = b / $4
		}
		rss[t, n[t]] = $7
	}
	END {
		if (nt == 0) { print "(no runs)"; exit }
		if (unit == "s") {
			print "| tool | seconds, median (min–max) |" \
			    " CPU seconds | speed vs ours | peak RSS |"
			print "|---|---:|---:|---:|---:|"
		} else {
			printf "| tool | seconds, median (min–max) | %s |", unit
			printf " %s per CPU s |", unit
			print " speed vs ours | peak RSS |"
			print "|---|---:|---:|---:|---:|---:|"
		}
		maxn = 0
		for (t in n)
			if (n[t] > maxn) maxn = n[t]
		if ("ours" in n) {
			for (j = 1; j <= n["ours"]; j++) g[j] = rate["ours", j]
			olo = minof(g, n["ours"]); ohi = maxof(g, n["ours"])
		}
		for (i = 1; i <= nt; i++) {
			t = order[i]
			for (j = 1; j <= n[t]; j++) {
				s[j] = sec[t, j]; g[j] = rate[t, j]
				m[j] = rss[t, j]; h[j] = crate[t, j]
				cc[j] = cs[t, j]
			}
			med = median(s, n[t])
			gm = median(g, n[t])
			lo = minof(g, n[t]); hi = maxof(g, n[t])
			cm = median(h, n[t])
			np = 0
			for (k = 1; k <= 1000; k++)
				if ((t, k) in byk && ("ours", k) in byk)
					p[++np] = byk[t, k] / byk["ours", k]
			# One run each (a slow tool) has no pair: its
			# median against ours.
			if (np == 0 && ("ours" in n) && t != "ours")
				p[++np] = gm / oursmed
			noise = 0
			if (t == "ours") {
				ratio = "1"; oursmed = gm; rv = 1
			} else if (np) {
				rv = median(p, np)
				ratio = sprintf("%.2f×", rv)
				if (("ours" in n) && lo <= ohi && hi >= olo) {
					noise = 1
					ratio = ratio " (noise)"
				}
			} else {
				ratio = "—"; rv = 0
			}
			label = t
			if (n[t] == 1 && maxn > 1) {
				label = t " (1 run)"
				once = 1
			}
			if (unit == "s")
				printf "| %s | %.4f (%.4f–%.4f) | %.4f | %s |" \
				    " %s |\n", label, med, minof(s, n[t]),
				    maxof(s, n[t]), median(cc, n[t]), ratio,
				    human(median(m, n[t]))
			else
				printf "| %s | %.3f (%.3f–%.3f) | %.2f | %.2f |" \
				    " %s | %s |\n", label, med, minof(s, n[t]),
				    maxof(s, n[t]), gm, cm, ratio,
				    human(median(m, n[t]))
			if (unit == "s")
				# Milliseconds, lower is better.
				printf "%s %.4f %.4f %.4f %.4f %.4f %.4f" \
				    " %.4f %d %d\n", t, med * 1000,
				    minof(s, n[t]) * 1000,
				    maxof(s, n[t]) * 1000,
				    median(cc, n[t]) * 1000,
				    minof(cc, n[t]) * 1000,
				    maxof(cc, n[t]) * 1000, rv, noise,
				    n[t] > dat
			else
				printf "%s %.4f %.4f %.4f %.4f %.4f %.4f" \
				    " %.4f %d %d\n", t, gm, lo, hi, cm,
				    minof(h, n[t]), maxof(h, n[t]), rv,
				    noise, n[t] > dat
			if (t == "ours") ours = gm
		}
		for (t in unmeasured)
			if (!(t in n))
				printf "| %s | — | not measurable |" \
				    " — | — | — |\n", t
		print ""
		printf "%d runs a tool, interleaved", maxn
		if (once)
			printf "; a tool whose first run took over %s s," \
			    " once", cap
		printf "."
		if (unit == "s")
			printf " Speed vs ours > 1: faster than ours."
		else
			printf " Speed vs ours > 1: faster than ours (by" \
			    " the wall clock)."
		if (limv > 0 && ours > 0 && unit != "s")
			printf " Ours is at %.0f%% of the limit" \
			    " (%s, %.2f GB/s).", \
			    100 * ours / limv, lim, limv
		print ""
		print ""
		printf "![%s](%s)\n", c, png
	}' "$OUT/runs.tsv"
	echo "$c	$unit	$title" >> "$OUT/charts.list"
}

# A bar chart per case: each tool's median by the wall clock and per CPU
# second, its min-max as an error bar; below each tool, its speed against
# ours, and "noise" where the runs do not separate it from ours.  The key
# sits above the plot, clear of the bars.
bar_chart() {
	c=$1 unit=$2
	shift 2
	title=$*
	[ -s "$OUT/$c.dat" ] || return 0
	if [ "$unit" = s ]; then
		ylabel="milliseconds (median, min-max; lower is faster)"
		wall="wall clock" cpu="CPU time"
	else
		ylabel="$unit (median, min-max)"
		wall="by the wall clock" cpu="per CPU second"
	fi
	# Titles wrap at about 64 characters.
	title=$(echo "$title" | awk '{
		for (i = 1; i <= NF; i++) {
			if (len > 0 && len + length($i) > 64) {
				printf "\\n"; len = 0
			} else if (len > 0) {
				printf " "; len++
			}
			printf "%s", $i; len += length($i)
		}
	}')
	xtics=$(awk 'NR == FNR { if ($10 > maxn) maxn = $10; next }
	{
		r = $1 == "ours" ? "" : sprintf("\\nspeed %.2fx", $8)
		if ($9 == 1) r = r ", noise"
		if ($10 == 1 && maxn > 1) r = r ($1 == "ours" ? "\\n" : ", ") "1 run"
		printf "%s\"%s%s\" %d", (FNR > 1 ? ", " : ""), $1, r, FNR - 1
	}' "$OUT/$c.dat" "$OUT/$c.dat")
	gnuplot <<EOF 2>> "$OUT/gnuplot.log"
set terminal png size 720,440 noenhanced
set output "$OUT/$c.png"
set title "$title"
set ylabel "$ylabel"
set style data histogram
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
set boxwidth 0.9
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
set grid ytics
set key below center horizontal
set xtics ($xtics)
set bmargin 4
plot "$OUT/$c.dat" using 2:3:4 title "$wall" lc rgb "#4477aa", \
     "" using 5:6:7 title "$cpu" lc rgb "#ddaa33"
EOF
}

# Throughput against buffer size from sweep's runs: a plot per mode
# (warm, cold) and output, wall clock and per CPU second, medians with
# their min-max.  sweep.tsv: mode output size round wall cpu bytes
# gbps cpugbps.  A point whose min-max is wider than the spread of its
# line's medians is noise: it is drawn as an open circle, and the text
# under the plot names its sizes.
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
					md[i] = median(a, n[s])
					lo[i] = minof(a, n[s])
					hi[i] = maxof(a, n[s])
					if (i == 1 || md[i] > top) top = md[i]
					if (i == 1 || md[i] < bot) bot = md[i]
				}
				# The effect: how far the medians move
				# along the line.  A point whose runs span
				# half of that cannot be placed on it.
				for (i = 1; i <= ns; i++)
					printf "%d %.4f %.4f %.4f %d\n",
					    sizes[i] / 1024, md[i], lo[i],
					    hi[i],
					    (hi[i] - lo[i] > (top - bot) / 2)
			}' "$OUT/sweep.tsv" > "$OUT/sweep-$mode-$o.$col.dat"
		done
		gnuplot <<EOF 2>> "$OUT/gnuplot.log"
set terminal png size 720,440 noenhanced
set output "$OUT/sweep-$mode-$o.png"
set title "libbufsz read/write loop to $o, $mode cache"
set xlabel "buffer (KiB)"
set ylabel "GB/s (median, min-max)"
set logscale x 2
set yrange [0:*]
set offsets graph 0.04, graph 0.04, graph 0.05, 0
set grid
set key below center horizontal
plot "$OUT/sweep-$mode-$o.8.dat" using 1:2:3:4 with yerrorlines \
	lc rgb "#4477aa" pt 7 title "wall clock", \
     "$OUT/sweep-$mode-$o.9.dat" using 1:2:3:4 with yerrorlines \
	lc rgb "#ddaa33" dt 2 pt 7 title "per CPU second", \
     "$OUT/sweep-$mode-$o.8.dat" using 1:(\$5 > 0 ? \$2 : NaN) \
	with points lc rgb "#cc3311" pt 6 ps 2.5 lw 2 \
	title "noise: runs spread over half the line's move", \
     "$OUT/sweep-$mode-$o.9.dat" using 1:(\$5 > 0 ? \$2 : NaN) \
	with points lc rgb "#cc3311" pt 6 ps 2.5 lw 2 notitle
EOF
		echo "![sweep, $mode, $o](sweep-$mode-$o.png)" \
		    >> "$OUT/sweep-$mode.plots"
		for col in 8 9; do
			noisy=$(awk '$5 == 1 { printf "%s%s KiB", s, $1
			    s = ", " }' "$OUT/sweep-$mode-$o.$col.dat")
			[ -n "$noisy" ] || continue
			what="by the wall clock"
			[ $col = 8 ] || what="per CPU second"
			{
				echo
				echo "Noise, to $o $what: at $noisy the runs" \
				    "span more than half the move of the" \
				    "line's medians from its worst size to" \
				    "its best; read those points as noise," \
				    "not as an effect of the buffer size."
				echo
			} >> "$OUT/sweep-$mode.plots"
		done
	done
}

# System calls per small file, from the runs over NSTRACE files and over
# one (syscalls.tsv: program tool per-file calls-N calls-1 by-call).
syscall_table() {
	prog=$1
	[ -s "$OUT/syscalls.tsv" ] || return 0
	grep -q "^$prog	" "$OUT/syscalls.tsv" || return 0
	if [ "$prog" = cat ]; then
		how="cat with the $NSTRACE files as operands, and with one"
	else
		how="cp -R of a directory of the $NSTRACE files, and of one"
	fi
	cat <<EOF

### $prog: system calls per small file

strace -f -c of $how:
the calls a file adds are the difference over $((NSTRACE - 1)), so that
the start-up (loading, locale, the first stat of the output) is not
spread over the files.  By call: those a file makes at least once in
twenty.

| tool | calls per file | calls, $NSTRACE files | calls, 1 file | per file, by call |
|---|---:|---:|---:|---|
EOF
	awk -F'\t' -v p="$prog" '$1 == p {
		printf "| %s | **%.2f** | %d | %d | %s |\n", $2, $3, $4, $5, $6
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

# cp on XFS and Btrfs: time, and the space each copy took (clone.tsv:
# case tool k KiB).  A copy that took under 1% of the file is a clone.
clone_table() {
	c=$1 fs=$2
	grep -q "^$c	" "$OUT/runs.tsv" 2>/dev/null || return 0
	cat <<EOF

### cp: a $bigname file on $fs (a loop device), to the same file system

Each copy is timed; then the file system is synced and the space the
copy took read from df.  A copy that shares the source's extents (a
reflink: copy_file_range or FICLONE) takes no time and no space; one
that moves the data takes both.

| tool | seconds, median (min–max) | new space, median (min–max) | the copy |
|---|---:|---:|---|
EOF
	awk -F'\t' -v c="$c" -v big="$BIG" "$AWKLIB"'
	FILENAME ~ /clone.tsv$/ {
		if ($1 == c && $3 > 0) sp[$2, ++ns[$2]] = $4
		next
	}
	$1 == c && $3 > 0 && $8 == 0 {
		t = $2
		if (!(t in n)) {
			if (t == "ours") {
				for (i = ++nt; i > 1; i--)
					order[i] = order[i - 1]
				order[1] = t
			} else
				order[++nt] = t
		}
		sec[t, ++n[t]] = $4
	}
	END {
		for (i = 1; i <= nt; i++) {
			t = order[i]
			for (j = 1; j <= n[t]; j++) s[j] = sec[t, j]
			for (j = 1; j <= ns[t]; j++) a[j] = sp[t, j]
			m = ns[t] ? median(a, ns[t]) : -1
			what = m < 0 ? "?" : m * 1024 < big / 100 ? \
			    "**a clone**" : "copied"
			printf "| %s | %.3f (%.3f–%.3f) | %s (%s–%s) | %s |\n",
			    t, median(s, n[t]), minof(s, n[t]),
			    maxof(s, n[t]), human(m), human(minof(a, ns[t])),
			    human(maxof(a, ns[t])), what
		}
	}' "$OUT/clone.tsv" "$OUT/runs.tsv"
}

# tail -n 10: the bytes read, beside the bytes shown.
tail_reads_table() {
	[ -s "$OUT/tailreads.tsv" ] || return 0
	cat <<EOF

The bytes each tail read from the $bigname file for those 10 lines
(strace: what read(2) and pread(2) returned from its descriptors, and
the lengths mmap(2) mapped of it), beside the bytes it printed:

| tool | calls | bytes read | bytes mapped | bytes shown |
|---|---:|---:|---:|---:|
EOF
	awk -F'\t' '{ printf "| %s | %d | %d | %d | %d |\n", $1, $2, $3,
	    $4, $5 }' "$OUT/tailreads.tsv"
}

# tail -f: latency.tsv: case tool run seconds.
latency_table() {
	[ -s "$OUT/latency.tsv" ] || return 0
	cat <<EOF

### tail -f: from a write(2) to the file until its line comes out

tests/bench/followlat appends one line at a time, each after a pause
drawn between 10 ms and $FOLLOWGAPS s (so that a follower that looks on
a timer is caught at every point of its period), and times until that
line comes out of \`tail -f\`'s stdout, a pipe; every byte is checked.

| tool | latency, ms: median (min–max) | samples |
|---|---:|---:|
EOF
	awk -F'\t' "$AWKLIB"'
	$1 == "tail_f" {
		t = $2
		if (!(t in n)) order[++nt] = t
		v[t, ++n[t]] = $4
	}
	END {
		for (i = 1; i <= nt; i++) {
			t = order[i]
			for (j = 1; j <= n[t]; j++) a[j] = v[t, j]
			printf "| %s | %.3f (%.3f–%.3f) | %d |\n", t,
			    median(a, n[t]) * 1000, minof(a, n[t]) * 1000,
			    maxof(a, n[t]) * 1000, n[t]
			printf "%s %.6f %.6f %.6f\n", t, median(a, n[t]) * 1000,
			    minof(a, n[t]) * 1000, maxof(a, n[t]) * 1000 \
			    > dat
		}
	}' dat="$OUT/tail_f.dat" "$OUT/latency.tsv"
	echo
	echo "![tail_f](tail_f.png)"
}

latency_chart() {
	[ -s "$OUT/tail_f.dat" ] || return 0
	gnuplot <<EOF 2>> "$OUT/gnuplot.log"
set terminal png size 720,440 noenhanced
set output "$OUT/tail_f.png"
set title "tail -f: from a write to its line out of the pipe"
set ylabel "milliseconds (median, min-max; log scale)"
set logscale y
set grid ytics
set xrange [-0.5:*]
set offsets 0, 0.5, 0, 0
unset key
plot "$OUT/tail_f.dat" using 0:2:3:4:xtic(1) with yerrorbars \
	lc rgb "#4477aa" pt 7 ps 1.5
EOF
}

# A parameter of the run, from params.tsv, or "?".
param() {
	awk -F'\t' -v p="$1" '$1 == p { v = $2 } END { print v == "" ? "?" : v }' \
	    "$OUT/params.tsv" 2>/dev/null || echo "?"
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

# The median GB/s of TOOL in CASE, from its .dat, or "?".
rate_of() {
	awk -v t="$2" '$1 == t { printf "%.2f", $2; f = 1 }
	    END { if (!f) printf "?" }' "$OUT/$1.dat" 2>/dev/null || echo "?"
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
# make bench: cat, cp, yes and tail against GNU, busybox and uutils

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

How to read the noise:

- *Speed vs ours* is the median of per-round ratios.  It is marked
  "(noise)" where the tool's min–max and ours overlap: some runs of the
  slower one beat some runs of the faster one, so the ratio is not an
  effect these runs can show.
- Rates per CPU second stand beside the wall clock: CPU time (user and
  system, of every process the run started) counts little of the time
  spent waiting for a CPU that a neighbour holds, so where the two
  disagree, the wall clock measured the neighbours.
- In the sweep plots, a point ringed in red has a min–max wider than
  half the move of its line's medians from the worst buffer size to
  the best: its place on the curve is noise, not an effect of the
  size.  The sizes are named under each such plot.
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
	syscall_table cat
	grep -q '^cat_copying	' "$OUT/runs.tsv" 2>/dev/null || return 0
	case_table cat_copying "$BIG" GB/s \
	    "cat: what lending the file's pages saves: a $bigname file" \
	    "into a pipe read 64 KiB at a time, as it runs (ours) and" \
	    "forced to copy (ours-rw, FAULTINJ_PATH=rw)"
	r=$(awk '$1 == "ours-rw" { printf "%.2f", $8 }' \
	    "$OUT/cat_copying.dat" 2>/dev/null)
	cat <<EOF

Into a pipe, cat hands the reader references to the file's cached pages
(splice; sendfile into a socket) instead of copying the bytes.  The price:
a reader that drains the pipe late sees an in-place overwrite of the file
made after cat exited 0 (cat(1), CAVEATS; a new file renamed into place
is unaffected).  A cat that copied into the pipe, as GNU's does, would
run at ${r:-?}× the speed measured here.
EOF
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
	syscall_table cp
	clone_table cp_clone_xfs XFS
	clone_table cp_clone_btrfs Btrfs
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
	case_table yes_head "$YESBYTES" GB/s "yes | head -c $yesname" \
	    "(to /dev/null)"
	case_table yes_dd "$YESBYTES" GB/s \
	    "yes | dd bs=1M iflag=fullblock count=$((YESBYTES / 1048576))" \
	    "(to /dev/null)"
	case_table yes_wc 0 GB/s "yes | wc -c for $WINDOW s" \
	    "(the bytes wc counted)"
	case_table yes_null 0 GB/s "yes: to /dev/null for $WINDOW s" \
	    "(bytes from /proc/PID/io)"
	cat <<EOF

/dev/null copies nothing: this counts the bytes handed to write(2) a
second, which grows with the size of each write.
EOF
}

tail_cases() {
	grep -q '^tail_' "$OUT/runs.tsv" 2>/dev/null ||
	    [ -s "$OUT/latency.tsv" ] || return 0
	printf '\n## tail\n'
	case_table tail_n10 "$BIG" s \
	    "tail -n 10 of a cached $bigname file (to a file)"
	tail_reads_table
	case_table tail_plus "$BIG" GB/s \
	    "tail -c +1 of a cached $bigname file into wc -c"
	cat <<EOF

For scale, our cat of the same file into wc -c: $(rate_of cat_wc ours)
GB/s (above); tail from a position to the end goes through the same
engine.
EOF
	case_table tail_r "$((REVSIZE + 1))" GB/s \
	    "tail -r of a $(gb "$REVSIZE") file (GNU, busybox and uutils:" \
	    "tac, which has no tail -r)"
	latency_table
}

# cat's sandbox: confine.tsv (bench.sh's confine_cost), medians of the
# rounds and of the per-round differences.
confine_cases() {
	[ -s "$OUT/confine.tsv" ] || return 0
	rounds=$(awk -F'\t' '$1 == 1 && $4 == "confined"' "$OUT/confine.tsv" |
	    wc -l | tr -d ' ')
	cat <<EOF

### cat's sandbox: what Landlock costs

CPU time (user and system) of a run of our cat of N files of 4 KiB to
/dev/null, confined and with Landlock made unavailable by a seccomp
filter (tests/bench/confinecost.c), in microseconds a run: medians of
$rounds alternating rounds; the extra time and the ratio are medians of
each round's.  Confined, cat takes an lstat of each operand and makes a
rule for each directory that holds one before the first file, and
Landlock checks each open.  Beyond 1024 operands cat runs unconfined
(CONFINE_MAX in lib/libbufsz/sandbox_linux.c).

| files | where | unconfined µs | confined µs | extra µs | extra µs a file | confined / unconfined |
| ---: | --- | ---: | ---: | ---: | ---: | ---: |
EOF
	awk -F'\t' -v nd="$NDIRS" "$AWKLIB"'
	{
		k = $1 SUBSEP $2
		if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		v[k, $3, $4] = $5
		if ($3 > maxr[k]) maxr[k] = $3
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]
			n = 0
			for (r = 1; r <= maxr[k]; r++) {
				if (!((k, r, "confined") in v) ||
				    !((k, r, "unconfined") in v))
					continue
				n++
				c[n] = v[k, r, "confined"]
				u[n] = v[k, r, "unconfined"]
				d[n] = c[n] - u[n]
				q[n] = c[n] / u[n]
			}
			if (n == 0)
				continue
			split(k, f, SUBSEP)
			mc = median(c, n); mu = median(u, n)
			md = median(d, n); mq = median(q, n)
			printf "| %d | %s | %.0f | %.0f | %.0f | %.2f | %.3f |\n",
			    f[1], f[2] == "one" ? "one directory" : \
			    nd " directories, in turn", mu, mc, md, md / f[1], mq
		}
	}' "$OUT/confine.tsv"
}

# cat -n into a pipe against the buffer size: pipe.tsv (bench.sh's
# pipe_sizes).  Each size's time as a ratio to the same round's run at
# PIPEBASE, the policy's pipe buffer, so that a round slowed by the
# neighbours slows both sides of its ratios; medians of the rounds.
PIPEBASE=65536
pipe_cases() {
	[ -s "$OUT/pipe.tsv" ] || return 0
	rounds=$(awk -F'\t' -v b="$PIPEBASE" '$2 == b && $3 == "wc"' \
	    "$OUT/pipe.tsv" | wc -l | tr -d ' ')
	cat <<EOF

### cat -n into a pipe: the buffer size

Our cat -n of text lines (which cannot splice) into a pipe read by
wc -c and by the system's cat into /dev/null, at each buffer size
(cat -B); $rounds rounds, the sizes in rotating order.  Time is a
ratio to the same round's run at $((PIPEBASE / 1024)) KiB, the policy's
pipe buffer (BUFSZ_PIPE in lib/libbufsz/policy.c): below 1 is faster.
CPU is user+sys of cat and its reader.  Medians of the rounds
(min–max).

| buffer | wc -c: wall | wc -c: CPU | cat: wall | cat: CPU |
| ---: | ---: | ---: | ---: | ---: |
EOF
	awk -F'\t' -v base="$PIPEBASE" "$AWKLIB"'
	function cell(b, rd, col,    r, n, a) {
		n = 0
		for (r = 1; r <= maxr; r++) {
			if (!((r, b, rd) in wall) || !((r, base, rd) in wall))
				continue
			n++
			a[n] = col == "wall" ? wall[r, b, rd] / wall[r, base, rd] : \
			    cpu[r, b, rd] / cpu[r, base, rd]
		}
		if (n == 0)
			return "-"
		return sprintf("%.2f (%.2f–%.2f)", median(a, n), minof(a, n),
		    maxof(a, n))
	}
	{
		wall[$1, $2, $3] = $4
		cpu[$1, $2, $3] = $5 + $6
		if (!($2 in seen)) { seen[$2] = 1; sizes[++ns] = $2 + 0 }
		if ($1 > maxr) maxr = $1
	}
	END {
		sortn(sizes, ns)
		for (i = 1; i <= ns; i++) {
			b = sizes[i]
			printf "| %s | %s | %s | %s | %s |\n", human(b / 1024),
			    cell(b, "wc", "wall"), cell(b, "wc", "cpu"),
			    cell(b, "cat", "wall"), cell(b, "cat", "cpu")
		}
	}' "$OUT/pipe.tsv"
}

# cat's formatting: fmt.tsv (bench.sh's fmt_cases: case, options, role,
# locale, input, output, in the order measured) and the runs.  A row a
# case: each tool's median seconds (min–max); ours/GNU, the median of
# per-round ratios of time (below 1: ours is faster); whether ours' and
# GNU's min–max overlap (then the ratio is noise); the fastest median.
# Writes fmt.dat (label, locale, ratio, overlap, best) for summary.sh.
fmt_cases() {
	[ -s "$OUT/fmt.tsv" ] || return 0
	utf8=$(param fmtutf8)
	euc=$(param fmteuc)
	[ "$euc" != - ] || euc="none here, skipped"
	[ "$utf8" != - ] || utf8="none here, skipped"
	cat <<EOF

### cat's formatting options

Our cat, GNU's, busybox's and uutils' with each formatting option, on
$(gb "$(param fmttext)") of text (licence texts, then seq's numbers) and on
$(gb "$(param fmtbin)") of random bytes, each run with LC_ALL set to the
row's locale.

- CPU: $(cpu_name)
- Locales: C; UTF-8: $utf8; EUC-JP: $euc

Seconds are the median (min–max) of the runs, the tools interleaved; a
tool whose first run took over $(param fmtcap) s was run once.  ours/GNU is
the median of per-round ratios of time: below 1, ours is faster.
Overlap "yes": ours' and GNU's min–max overlap, so the runs cannot tell
the two apart.  Ours' output was checked against itself reading the
input 4 KiB at a time and from a pipe; the others' for exit status and
output only.  A tool that refused the option is left out of the row (see
the notes).

| case | locale | ours | GNU | busybox | uutils | ours/GNU | overlap | fastest |
|---|---|---:|---:|---:|---:|---:|---|---|
EOF
	awk -F'\t' -v dat="$OUT/fmt.dat" "$AWKLIB"'
	function cell(c, t,    j, a) {
		if (!((c, t) in n)) return "—"
		for (j = 1; j <= n[c, t]; j++) a[j] = sec[c, t, j]
		if (n[c, t] == 1)
			return sprintf("%.3f (1 run)", a[1])
		return sprintf("%.3f (%.3f–%.3f)", median(a, n[c, t]),
		    minof(a, n[c, t]), maxof(a, n[c, t]))
	}
	function med(c, t,    j, a) {
		for (j = 1; j <= n[c, t]; j++) a[j] = sec[c, t, j]
		return median(a, n[c, t])
	}
	function lo(c, t,    j, a) {
		for (j = 1; j <= n[c, t]; j++) a[j] = sec[c, t, j]
		return minof(a, n[c, t])
	}
	function hi(c, t,    j, a) {
		for (j = 1; j <= n[c, t]; j++) a[j] = sec[c, t, j]
		return maxof(a, n[c, t])
	}
	FILENAME ~ /fmt.tsv$/ {
		row[++nr] = $1; opts[$1] = $2; loc[$1] = $4
		what = $5 == "text" ? "text" : "random bytes"
		to = $6 == "null" ? "/dev/null" : $6 == "pipe" ? \
		    "pipe → `wc -c`" : "new file"
		label[$1] = sprintf("`cat %s` %s → %s", $2, what, to)
		next
	}
	($1 in opts) && $3 > 0 && $8 == 0 {
		c = $1; t = $2
		sec[c, t, ++n[c, t]] = $4
		k[c, t, $3] = $4
	}
	END {
		split("ours gnu busybox uutils", tools, " ")
		for (i = 1; i <= nr; i++) {
			c = row[i]
			np = 0
			for (r = 1; r <= 1000; r++)
				if ((c, "ours", r) in k && (c, "gnu", r) in k)
					p[++np] = k[c, "ours", r] / k[c, "gnu", r]
			ratio = np ? sprintf("%.2f", median(p, np)) : "—"
			over = "—"
			if ((c, "ours") in n && (c, "gnu") in n)
				over = lo(c, "ours") <= hi(c, "gnu") &&
				    hi(c, "ours") >= lo(c, "gnu") ? "yes" : "no"
			best = "—"
			for (j = 1; j <= 4; j++) {
				t = tools[j]
				if (!((c, t) in n)) continue
				if (best == "—" || med(c, t) < bm) {
					best = t; bm = med(c, t)
				}
			}
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			    label[c], loc[c], cell(c, "ours"), cell(c, "gnu"),
			    cell(c, "busybox"), cell(c, "uutils"), ratio, over,
			    best
			printf "%s\t%s\t%s\t%s\t%s\n", label[c], loc[c], ratio,
			    over, best > dat
		}
	}' "$OUT/fmt.tsv" "$OUT/runs.tsv"
	# Alone (ONLY=fmt), the section carries its own notes.
	[ "${SECTION:-}" = fmt ] || return 0
	awk '/fmt_/ {
		if (!n++) printf "\nNotes:\n\n"
		print "- " $0
	}' "$OUT/notes.txt" 2>/dev/null
}

# The readers: readers.tsv (bench.sh's readers_cases: case, reader,
# writer, in the order measured) and the runs.  A row a writer and
# reader: each tool's median seconds (min–max) and the reader's alone on
# the file; ours over each peer, the median of per-round ratios of time
# (below 1: ours is faster); the peers whose min–max overlaps ours'; the
# fastest median.  Writes readers.dat (label, the five medians, the three
# ratios, overlap, fastest) for summary.sh.
readers_cases() {
	[ -s "$OUT/readers.tsv" ] || return 0
	cpu=$(param rdcpu)
	case $cpu in
	-)	cpu="not known: /proc/cpuinfo has no model name here" ;;
	\?)	cpu="not recorded" ;;
	esac
	# In the full report, a part of its own after tail's.
	[ "${SECTION:-}" = readers ] || printf '\n## Readers\n'
	cat <<EOF

### cat and tail -c +1 into six readers

$(gb "$BIG") of random bytes, cached, from each tool's cat and from its
tail -c +1 into a pipe read by the system's wc -c, cat (to /dev/null),
dd (of=/dev/null), sha256sum and tail -c 1; "alone" is the reader given
the file itself (\`R < file\`), measured in the same rounds.  wc -c and
tail -c 1 do not read a file: they take its size, or seek to its end,
so alone they only start and stop.  Each run's reader showed what it
read (a count, dd's record of the bytes, the digest, the last byte); cat
showed it on each tool's warm-up, into wc -c.

- CPU: $cpu

Seconds are the median (min–max) of the runs, the tools interleaved
(sha256sum's rows: fewer rounds, its own cost being most of each run).
ours/X is the median of per-round ratios of time: below 1, ours is
faster.  Overlap names the peers whose min–max overlaps ours', which the
runs cannot tell apart from ours.

| writer → pipe → reader | ours | GNU | busybox | uutils | alone | ours/GNU | ours/busybox | ours/uutils | overlap | fastest |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|
EOF
	awk -F'\t' -v dat="$OUT/readers.dat" -v size="$(gb "$BIG")" \
	    "$AWKLIB"'
	function vals(c, t,    j) {
		for (j = 1; j <= n[c, t]; j++) a[j] = sec[c, t, j]
		return n[c, t]
	}
	function cell(c, t,    m) {
		if (!((c, t) in n)) return "—"
		m = vals(c, t)
		if (m == 1)
			return sprintf("%.3f (1 run)", a[1])
		return sprintf("%.3f (%.3f–%.3f)", median(a, m), minof(a, m),
		    maxof(a, m))
	}
	function med(c, t) {
		if (!((c, t) in n)) return "—"
		return sprintf("%.3f", median(a, vals(c, t)))
	}
	function ratio(c, t,    r, np, p) {
		np = 0
		for (r = 1; r <= 1000; r++)
			if ((c, "ours", r) in k && (c, t, r) in k)
				p[++np] = k[c, "ours", r] / k[c, t, r]
		return np ? sprintf("%.2f", median(p, np)) : "—"
	}
	FILENAME ~ /readers.tsv$/ {
		row[++nr] = $1
		rd = $2 == "wc" ? "wc -c" : $2 == "cat" ? "cat" : \
		    $2 == "dd64k" ? "dd bs=64k" : $2 == "dd1m" ? "dd bs=1M" : \
		    $2 == "sha256" ? "sha256sum" : "tail -c 1"
		wr = $3 == "cat" ? "cat" : "tail -c +1"
		label[$1] = sprintf("%s %s → pipe → `%s`", wr, size, rd)
		next
	}
	($1 in label) && $3 > 0 && $8 == 0 {
		c = $1; t = $2
		sec[c, t, ++n[c, t]] = $4
		k[c, t, $3] = $4
	}
	END {
		split("ours gnu busybox uutils", tools, " ")
		for (i = 1; i <= nr; i++) {
			c = row[i]
			over = ""
			best = "—"
			if ((c, "ours") in n) {
				vals(c, "ours")
				olo = minof(a, n[c, "ours"])
				ohi = maxof(a, n[c, "ours"])
			}
			for (j = 1; j <= 4; j++) {
				t = tools[j]
				if (!((c, t) in n)) continue
				m = vals(c, t)
				if (j > 1 && (c, "ours") in n && \
				    minof(a, m) <= ohi && maxof(a, m) >= olo)
					over = over (over == "" ? "" : ", ") t
				if (best == "—" || median(a, m) < bm) {
					best = t; bm = median(a, m)
				}
			}
			if (over == "") over = (c, "ours") in n ? "none" : "—"
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			    label[c], cell(c, "ours"), cell(c, "gnu"),
			    cell(c, "busybox"), cell(c, "uutils"),
			    cell(c, "alone"), ratio(c, "gnu"),
			    ratio(c, "busybox"), ratio(c, "uutils"), over, best
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
			    label[c], med(c, "ours"), med(c, "gnu"),
			    med(c, "busybox"), med(c, "uutils"), med(c, "alone"),
			    ratio(c, "gnu"), ratio(c, "busybox"),
			    ratio(c, "uutils"), over, best > dat
		}
	}' "$OUT/readers.tsv" "$OUT/runs.tsv"
	# Alone (ONLY=readers), the section carries its own notes.
	[ "${SECTION:-}" = readers ] || return 0
	awk '/rd_/ {
		if (!n++) printf "\nNotes:\n\n"
		print "- " $0
	}' "$OUT/notes.txt" 2>/dev/null
}

main() {
	if [ "${SECTION:-}" = confine ]; then
		confine_cases
		return
	fi
	if [ "${SECTION:-}" = pipe ]; then
		pipe_cases
		return
	fi
	if [ "${SECTION:-}" = fmt ]; then
		rm -f "$OUT/fmt.dat"
		fmt_cases
		return
	fi
	if [ "${SECTION:-}" = readers ]; then
		rm -f "$OUT/readers.dat"
		readers_cases
		return
	fi
	bigname=$(gb "$BIG")
	yesname=$(gb "$YESBYTES")
	FOLLOWGAPS=$(param followgap)
	SLOWCAP=$(param slowcap)
	rm -f "$OUT"/*.plots "$OUT"/*.png "$OUT"/*.dat "$OUT/charts.list"
	if have_gnuplot; then
		sweep_plot warm
		sweep_plot cold
	fi
	{
		header
		limits_and_sweep
		cat_cases
		pipe_cases
		fmt_cases
		confine_cases
		cp_cases
		yes_cases
		tail_cases
		readers_cases
	} > "$R"

	# The bar charts draw the .dat files the tables wrote.
	have_gnuplot 2>/dev/null || return 0
	while IFS='	' read -r c unit title; do
		bar_chart "$c" "$unit" "$title"
	done < "$OUT/charts.list"
	latency_chart
}

main
