#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# compare-freebsd.sh: this tree's cat, cp, tail and yes beside FreeBSD's,
# by the measures a reviewer reads first (code, long functions, manuals,
# the safety checker, tracker references, README), written as a Markdown
# table to docs/freebsd/comparison.md and the standard output.
#
# usage: sh tools/compare-freebsd.sh [-o file] FREEBSD_SRC=dir | dir
#
# The output depends only on the files of the two trees, so a rerun on
# the same trees writes the same bytes.

set -eu
export LC_ALL=C

TOP=$(cd "$(dirname "$0")/.." && pwd)
out=$TOP/docs/freebsd/comparison.md
PROGS="bin/cat bin/cp usr.bin/tail usr.bin/yes"

usage()
{
	echo "usage: sh compare-freebsd.sh [-o file] FREEBSD_SRC=dir" >&2
	exit 1
}

while getopts o: ch; do
	case $ch in
	o)	out=$OPTARG ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || usage
FBSD=${1#FREEBSD_SRC=}
[ -n "$FBSD" ] || usage
[ -f "$FBSD/bin/cat/cat.c" ] || {
	echo "compare-freebsd: $FBSD: no bin/cat/cat.c: not a FreeBSD tree" >&2
	exit 1
}
FBSD=$(cd "$FBSD" && pwd)

# The files of a tree that a measure reads: what git tracks where the
# tree is a git checkout (so that build products and scratch files never
# count), every file otherwise; sorted, one path a line, relative.
tree_files()
{
	if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$1" ls-files
	else
		(cd "$1" && find . -path ./obj -prune -o -path ./.git -prune \
		    -o -type f -print | sed 's,^\./,,')
	fi | sort
}

# The product's C files of a directory: its own, not its tests'.
c_files()
{
	tree_files "$1" | awk -v d="$2/" -v ext="$3" '
	    index($0, d) == 1 && substr($0, length(d) + 1) !~ /\// &&
	    $0 ~ ("\\.(" ext ")$")'
}

# Lines of the given files (paths relative to the tree), 0 for none.
lines_of()
{
	root=$1
	shift
	(cd "$root" && for f in "$@"; do
		[ -f "$f" ] && cat -- "$f"
	done) | wc -l | tr -d ' '
}

c_lines()
{
	# shellcheck disable=SC2046
	lines_of "$1" $(c_files "$1" "$2" "$3")
}

# Functions whose body, from the opening brace at column 0 to the closing
# brace at column 0 (style(9)'s layout, which both trees follow), is over
# 80 lines, counting both braces.  The name is the identifier before the
# first parenthesis on the last line before the brace that starts at
# column 0 and has one.  One "file name lines" line each.
long_functions()
{
	root=$1
	shift
	for d in "$@"; do
		c_files "$root" "$d" c
	done | while read -r f; do
		awk -v f="$f" '
		/^[A-Za-z_].*\(/ {
			name = $0
			sub(/\(.*/, "", name)
			sub(/.*[^A-Za-z0-9_]/, "", name)
		}
		/^\{/ { start = FNR; body = 1; next }
		body && /^\}/ {
			body = 0
			if (FNR - start + 1 > 80)
				print f, name, FNR - start + 1
		}' "$root/$f"
	done
}

# Lines that cite a tracker issue by number (the word, then a number),
# and the files that hold them, among the given paths.
TRACKER='[Ii]ssues\{0,1\} #\{0,1\}[0-9]'
tracker_refs()
{
	root=$1
	shift
	[ $# -gt 0 ] || { echo "0 in 0 files"; return; }
	(cd "$root" && grep -c -- "$TRACKER" "$@" /dev/null 2>/dev/null || :) |
	    awk -F: '$NF > 0 { n += $NF; f++ }
		END { printf "%d in %d files\n", n, f }'
}

fbsd_name()
{
	v=$FBSD/sys/conf/newvers.sh
	if [ -f "$v" ]; then
		for k in TYPE REVISION BRANCH; do
			sed -n "s/^$k=\"\\(.*\\)\"\$/\\1/p" "$v"
		done | paste -sd' ' - | sed 's/ \([^ ]*\)$/-\1/'
	else
		echo "FreeBSD"
	fi
}

per_prog()
{
	root=$1
	ext=$2
	sep=
	for p in $PROGS; do
		printf '%s%s' "$sep" "$(c_lines "$root" "$p" "$ext")"
		sep=" / "
	done
}

# The objects a FreeBSD build of the tree makes, bootstrap pass included,
# as make freebsd-import asks the tree's own make (OPSYS=FreeBSD).
freebsd_objs()
{
	for d in lib/libbufsz $PROGS; do
		# The second pass only repeats SANITIZE=0: it is the main one.
		for b in BOOTSTRAPPING=0 SANITIZE=0; do
			# shellcheck disable=SC2016
			(cd "$TOP/$d" && env -u MAKEFLAGS -u MAKELEVEL \
			    MAKESYSPATH="$TOP/share/mk" bmake -m "$TOP/share/mk" \
			    OPSYS=FreeBSD OBJTOP=/nonexistent SANITIZE=0 "$b" \
			    -V '${.ALLTARGETS:M*.o:T}')
		done
	done | tr ' ' '\n' | sort -u | paste -sd' ' -
}

# Lines of the C that make freebsd-import puts in a directory: its .c
# files that some FreeBSD object is made from, and all its .h files.
import_lines()
{
	# shellcheck disable=SC2046
	lines_of "$TOP" $(tree_files "$TOP" | awk -v d="$1/" -v objs="$2" '
	    BEGIN { n = split(objs, o, " "); for (i = 1; i <= n; i++) w[o[i]] }
	    index($0, d) == 1 && substr($0, length(d) + 1) !~ /\// {
		f = substr($0, length(d) + 1)
		if (f ~ /\.h$/ || (f ~ /\.c$/ && (substr(f, 1, length(f) - 2) ".o") in w))
			print
	    }')
}

imported()
{
	objs=$(freebsd_objs)
	sep=
	total=0
	for p in $PROGS lib/libbufsz; do
		n=$(import_lines "$p" "$objs")
		printf '%s%s' "$sep" "$n"
		total=$((total + n))
		sep=" / "
	done
	fb=0
	for p in $PROGS; do
		fb=$((fb + $(c_lines "$FBSD" "$p" 'c|h')))
	done
	awk -v a="$total" -v b="$fb" \
	    'BEGIN { printf "; %d in all, %.2f times FreeBSD'"'"'s %d", a, b ? a / b : 0, b }'
}

manuals()
{
	root=$1
	sep=
	for p in $PROGS; do
		printf '%s%s' "$sep" "$(lines_of "$root" "$p/${p##*/}.1")"
		sep=" / "
	done
}

# Each of our manuals as a multiple of FreeBSD's, two decimals.
man_ratios()
{
	sep=
	for p in $PROGS; do
		m=$p/${p##*/}.1
		awk -v a="$(lines_of "$TOP" "$m")" \
		    -v b="$(lines_of "$FBSD" "$m")" -v s="$sep" \
		    'BEGIN { printf "%s%.2f", s, b ? a / b : 0 }'
		sep=" / "
	done
}

words()
{
	if [ -f "$1" ]; then
		wc -w <"$1" | tr -d ' '
	else
		echo "–"
	fi
}

safety_lines()
{
	# shellcheck disable=SC2046
	lines_of "$TOP" $(tree_files "$TOP" | grep '^tests/safety/')
}

# Functions bufsz.h declares: a prototype's line starts at column 0 with
# its type and holds the name and an open parenthesis.
header_functions()
{
	h=$TOP/lib/libbufsz/bufsz.h
	[ -f "$h" ] || { echo 0; return; }
	awk '/^[A-Za-z_][^#]*[A-Za-z0-9_]\(/ && !/^(typedef|struct|#)/ {
		n++ } END { print n + 0 }' "$h"
}

opsys_files()
{
	# shellcheck disable=SC2046
	(cd "$TOP" && grep -l 'OPSYS' $(tree_files "$TOP" |
	    grep -E '(^|/)(Makefile[^/]*|[^/]*\.mk)$') 2>/dev/null || :) |
	    paste -sd' ' -
}

measure()
{
	fname=$(fbsd_name)
	ours_c=$(per_prog "$TOP" c)
	fb_c=$(per_prog "$FBSD" c)
	ours_ch=$(per_prog "$TOP" 'c|h')
	fb_ch=$(per_prog "$FBSD" 'c|h')
	lib_c=$(c_lines "$TOP" lib/libbufsz c)
	lib_ch=$(c_lines "$TOP" lib/libbufsz 'c|h')
	long_fb=$(long_functions "$FBSD" $PROGS)
	long_ours=$(long_functions "$TOP" $PROGS lib/libbufsz)
	n_fb=$(printf '%s' "$long_fb" | grep -c . || :)
	n_ours=$(printf '%s' "$long_ours" | grep -c . || :)
	safety=$(safety_lines)
	catcp=$(( $(c_lines "$TOP" bin/cat 'c|h') + \
	    $(c_lines "$TOP" bin/cp 'c|h') ))
	# shellcheck disable=SC2046
	refs_fb=$(tracker_refs "$FBSD" $(for p in $PROGS; do
	    tree_files "$FBSD" | grep "^$p/"; done))
	# shellcheck disable=SC2046
	refs_ours=$(tracker_refs "$TOP" $(tree_files "$TOP" |
	    grep -v '^docs/freebsd/comparison\.md$'))
	opsys=$(opsys_files)

	cat <<EOF
# This tree beside FreeBSD: size

Written by \`tools/compare-freebsd.sh\` (\`make compare-freebsd FREEBSD_SRC=DIR\`)
from the files of both trees; rerun it rather than edit this file. FreeBSD side:
$fname, the same four programs.

| | $fname | this tree |
|---|---|---|
| cat / cp / tail / yes, C lines (.c files) | $fb_c | $ours_c |
| the same with their headers (.c and .h) | $fb_ch | $ours_ch |
| libbufsz, C lines (.c; with .h) | – | $lib_c; $lib_ch |
| what make freebsd-import brings: cat / cp / tail / yes / libbufsz | – | $(imported) |
| functions over 80 lines (product) | $n_fb | $n_ours |
| manual pages, lines: cat.1 / cp.1 / tail.1 / yes.1 | $(manuals "$FBSD") | $(manuals "$TOP") |
| manual pages, ours as a multiple of FreeBSD's | 1 | $(man_ratios) |
| tests/safety, lines | – | $safety ($(awk -v a="$safety" -v b="$catcp" \
    'BEGIN { printf "%.2f", b ? a / b : 0 }') times cat and cp's C lines) |
| lines citing a tracker issue by number | $refs_fb | $refs_ours |
| README.md, words | $(words "$FBSD/README.md") (the whole system's) | $(words "$TOP/README.md") |
| functions declared in lib/libbufsz/bufsz.h | – | $(header_functions) |
| Makefiles naming \`OPSYS\` | – | ${opsys:-none} |

Functions over 80 lines, with their length:

EOF
	printf '%s\n' "$long_fb" | awk -v t="$fname" 'NF {
	    printf "- %s %s: %s (%s)\n", t, $1, $2, $3 }'
	printf '%s\n' "$long_ours" | awk 'NF {
	    printf "- this tree %s: %s (%s)\n", $1, $2, $3 }'
	cat <<'EOF'

How each figure is taken:

- C lines: `wc -l` of the program directory's own `.c` (and `.h`) files,
  tests apart; every host's files count, not only those a FreeBSD build
  compiles.
- What the import brings: the same, but of the `.c` files only those a
  FreeBSD build compiles (the tree's make with `OPSYS=FreeBSD`, the
  bootstrap pass included: it is what `make freebsd-import` copies), and
  every header.
- Long functions: in those `.c` files (and libbufsz's), a function's body
  runs from a `{` at column 0 to the next `}` at column 0, both counted;
  style(9) puts a function's braces there and nothing else's. One of
  exactly 80 lines is not counted.
- Manual pages: `wc -l` of the mdoc source, licence comment included.
- tests/safety: `wc -l` of every file in it.
- Tracker references: lines matching `[Ii]ssues\{0,1\} #\{0,1\}[0-9]`,
  in every file of this tree (this file apart) and in the four program
  directories of FreeBSD's.
- Files are those git tracks where a tree is a git checkout, every file
  under it otherwise (obj apart).

## What the lines beyond FreeBSD's buy

The import stays within twice FreeBSD's C for the same programs.  What
it carries beyond FreeBSD's own buys behaviour FreeBSD's programs lack,
each part guarded by the tests named here.  Host files FreeBSD does not
compile (Linux's Landlock, splice, inotify and cp's threads; NetBSD's)
are not in the count.

- **libbufsz** (all of it beyond FreeBSD's: it has no such library).
  The buffer policy, sized by hw.physmem, the page and st_blksize
  (`policy.c`, `probe_bsd.c`; `policy_test`); the copy engine, with
  copy_file_range(2) first and read and write where it is refused,
  holes of sparse files kept by SEEK_DATA, files that lie about their
  size read to their end (`engine.c`, `kpath_freebsd.c`,
  `sizekept_freebsd.c`; `engine_test`, `lib/libbufsz/faults`, which
  fail each system call in turn); the start every program shares:
  standard descriptors held open, the SIGINFO report, the `-B` size cut
  to memory (`start.c`; each suite's `stdout_closed`,
  `progress_signal`).
- **cat**: the refusal to copy a file onto itself where that would harm
  it, by inode and offset (`cat.c`; `cat_test:input_is_output`,
  `same_file_refused`, `same_file_harmless`,
  `same_file_behind_among_others`, `format_onto_own_input`); the
  formatting apart from the I/O, one scan a word at a time for the next
  byte that needs work, so that multibyte `-v` is right across any
  buffer boundary and every option runs ahead of GNU's cat (`cook.c`;
  `v_multibyte`, `v_utf8_*`, `v_eucjp`, `buffer_boundaries`, and the
  fuzzer's `tests/fuzz/cook_test`); the progress report on SIGINFO
  (`progress.c`; `progress_signal`, `fb_siginfo_fifo`).
- **cp**: the target tree reached only beneath the target directory
  (O_RESOLVE_BENEATH), so that a directory swapped for a link while cp
  runs cannot lead it outside (`walk.c`, `beneath_freebsd.c`;
  `cp_test:walk_dir_renamed`, `walk_dir_replaced`, `target_link_out`,
  `to_link_outside`, `target_dir_link`, `dangling_target_chain`,
  `link_farm`, `fd_limit`, `deep_tree`); `-p` copying extended
  attributes as well as ACLs and flags (`attr.c`, `attr_bsd.c`;
  `fb_p_flags`, `fb_p_extattr`, `fb_p_acls`, `p_incomplete`,
  `p_incomplete_full_disk`); `-v` lines that stay whole beside the
  progress report (`progress.c`; `cp_opts_test:progress_whole_lines`,
  `verbose_order`, `verbose_write_error`,
  `cp_test:closed_stderr_progress`, `progress_not_into_copy`); sparse
  files kept sparse (`sparse_holes`, `sparse_5g`).  FreeBSD compiles
  `serial.c`, which copies each entry as the walk meets it, where Linux
  compiles the threads of `pool.c`.
- **tail**: bounded memory for a stream of any length, with a temporary
  file past the bound (`hold.c`; `tail_test:spill`, `spill_bounds`,
  `spill_no_fill`, `spill_past_4g`, `tmpdir_named`); `-r` that reads a
  file once, whatever its line lengths (`reverse.c`;
  `reverse_read_once`); the choice of bytes kept apart from the
  reading, so that a fuzzer drives it with windows cut anywhere
  (`select.c`; `tests/fuzz/tailsel_test`); `-f` and `-F` that follow
  truncation, rotation, a FIFO put in place and a file that fails then
  comes back (`follow.c`, `follow_kqueue.c`; `follow_test`); Capsicum
  with Casper's fileargs, in FreeBSD's few lines (`confine_casper.c`;
  `tail_test:capsicum*`).
- **yes**: a buffer of the policy's size rather than a fixed one, of
  whole lines so that every write ends one, and a line of any length
  (`yes.c`; `yes_test:buffer_boundaries`, `long_line`, `small_machine`).
EOF
}

mkdir -p "$(dirname "$out")"
measure >"$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
