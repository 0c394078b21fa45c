# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for tail's selection, usr.bin/tail/select.c: the fuzzer's corpus
# replayed against the plain reference (ref_tail.c); and the installed
# tail against the same reference, over the corpus and over generated
# inputs, every style, counts around the inputs' sizes, from files and
# pipes, with buffers of one page and of the policy.
#

prog()
{
	echo "$(atf_config_get rootdir '')/usr/bin/tail"
}

# path_export: the suites' shared functions.
. "$(atf_get_srcdir)/../../../common/portable.subr"

replay()
{
	echo "$(atf_get_srcdir)/tail_replay"
}

atf_test_case corpus
corpus_head()
{
	atf_set descr "Every input of the corpus selects, window by window" \
	    "and as a stream, what the reference does"
}
corpus_body()
{
	set -- "$(atf_get_srcdir)"/tailcorpus.*
	[ -f "$1" ] || atf_fail "no corpus in $(atf_get_srcdir)"
	atf_check -o "inline:$# inputs replayed\n" "$(replay)" "$@"
}

# check OPTIONS STYLE COUNT FILE: tail OPTIONS FILE, from the file and
# from a pipe, writes what the reference writes for STYLE and COUNT.
# The two programs' paths are looked up once, in check_init: a lookup is
# a subshell, and check runs thousands of times.
check_init()
{
	REPLAY=$(replay)
	TAIL=$(prog)
}
check()
{
	"$REPLAY" -s "$2" -k "$3" "$4" > want ||
	    atf_fail "tail_replay -s $2 -k $3 $4 failed"
	# shellcheck disable=SC2086
	"$TAIL" $1 "$4" > got || atf_fail "tail $1 $4 failed"
	cmp -s want got || atf_fail "tail $1 $4 differs from the reference"
	# shellcheck disable=SC2086
	cat "$4" | "$TAIL" $1 > got || atf_fail "tail $1 of a pipe failed"
	cmp -s want got ||
	    atf_fail "tail $1 of $4 in a pipe differs from the reference"
}

# check_counts FILE COUNT...: every style with each count.
check_counts()
{
	_f=$1
	shift
	for n in $(printf '%s\n' "$@" | sort -nu); do
		[ $n -ge 0 ] || continue
		check "-c $n" rbytes $n "$_f"
		check "-n $n" rlines $n "$_f"
		check "-r -c $n" rrbytes $n "$_f"
		check "-r -n $n" rrlines $n "$_f"
		if [ $n -ge 1 ]; then
			check "-c +$n" fbytes $((n - 1)) "$_f"
			check "-n +$n" flines $((n - 1)) "$_f"
		fi
	done
	check "-r" reverse 0 "$_f"
}

size_of()
{
	wc -c < "$1" | tr -d ' '
}

lines_of()
{
	wc -l < "$1" | tr -d ' '
}

atf_test_case tail_is_reference
tail_is_reference_head()
{
	atf_set descr "The installed tail writes what the reference does," \
	    "for the corpus and for generated inputs"
	# Each of its thousands of runs starts an emulator, where tail is
	# another machine's program.
	atf_set timeout 1800
}
tail_is_reference_body()
{
	check_init
	set -- "$(atf_get_srcdir)"/tailcorpus.*
	[ -f "$1" ] || atf_fail "no corpus in $(atf_get_srcdir)"
	for f in "$@"; do
		check_counts "$f" 1 $(($(lines_of "$f") / 2)) \
		    $(($(size_of "$f") + 1))
	done
	# Lines of 0 to 2000 bytes, some empty, with and without a last
	# newline, around and across page boundaries, through a buffer of a
	# page: counts around 0, the lines and the size.
	for seed in 1 2; do
		awk -v seed=$seed 'BEGIN {
			srand(seed)
			for (i = 0; i < 150; i++) {
				n = int(rand() * rand() * 2000)
				l = ""
				for (j = 0; j < n; j++)
					l = l sprintf("%c", 33 + (i + j) % 90)
				print l
			}
		}' > gen$seed
	done
	head -c 8192 gen1 > page2
	head -c 8193 gen2 > page2plus
	head -c 8191 gen2 > page2minus
	path_export auto 4096
	for f in gen1 gen2 page2 page2plus page2minus; do
		l=$(lines_of $f)
		s=$(size_of $f)
		check_counts $f 0 1 3 $((l / 2)) $((l + 1)) $((s - 1)) \
		    $((s + 1))
	done
	path_export auto
	check_counts gen1 2 $(($(lines_of gen1) - 1)) $(($(size_of gen1) / 3))
}

atf_init_test_cases()
{
	atf_add_test_case corpus
	atf_add_test_case tail_is_reference
}
