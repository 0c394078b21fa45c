# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for tail(1) without -f: every option as FreeBSD documents it,
# the historic forms, headers, the kinds of input (files, pipes, FIFOs,
# terminals, files past 4 GiB), the edges of buffers and
# pages, every error, and what is read to show the end of a large file.
# The -f and -F cases are in follow_test.
#

PATHS="rw cfr splice sendfile"

# path_env, refused_option, info_signal: the suites' shared functions;
# lines, the references, size_of, small_machine: tail's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/tail.subr"

LC_ALL=C
export LC_ALL

# from_byte FILE OFFSET: the file from byte OFFSET (0-based) on.
from_byte()
{
	if [ "$2" -le 0 ]; then
		cat "$1"
	else
		dd if="$1" ibs="$2" skip=1 obs=65536 2>/dev/null
	fi
}

random_file()
{
	dd if=/dev/urandom of="$1" bs="$2" count=1 2>/dev/null
	[ "$(size_of "$1")" -eq "$2" ] || atf_fail "could not make $1"
}

# same_as_pipe OPTIONS... FILE: tail gives the same from the file, from
# a pipe and from a FIFO; the file's output is left in ./got.
same_as_pipe()
{
	eval _f=\${$#}
	"$(prog)" "$@" > got || atf_fail "tail $* failed"
	_n=$#
	_args=
	_i=1
	for _a in "$@"; do
		[ $_i -lt $_n ] && _args="$_args '$_a'"
		_i=$((_i + 1))
	done
	eval "cat '$_f' | '$(prog)' $_args" > got.pipe ||
	    atf_fail "tail $* from a pipe failed"
	cmp -s got got.pipe || atf_fail "tail $*: a pipe gives another output"
	rm -f fifo.t
	mkfifo fifo.t || atf_fail "mkfifo"
	cat "$_f" > fifo.t &
	eval "'$(prog)' $_args fifo.t" > got.fifo ||
	    atf_fail "tail $* from a FIFO failed"
	wait
	cmp -s got got.fifo || atf_fail "tail $*: a FIFO gives another output"
}

atf_test_case default_ten_lines
default_ten_lines_head()
{
	atf_set descr "Without options, the last ten lines, of a file or stdin"
}
default_ten_lines_body()
{
	lines 25 > f
	ref_last 10 f > exp
	atf_check -o file:exp "$(prog)" f
	atf_check -o file:exp -x "$(prog) < f"
	atf_check -o file:exp -x "cat f | $(prog)"
	lines 4 > short
	atf_check -o file:short "$(prog)" short
}

atf_test_case n_option
n_option_head()
{
	atf_set descr "-n N, -n -N, -n +N: lines from the end or the start"
}
n_option_body()
{
	lines 40 > f
	for n in 1 2 9 10 39 40 41 1000; do
		ref_last $n f > exp
		atf_check -o file:exp "$(prog)" -n $n f
		atf_check -o file:exp "$(prog)" -n -$n f
		atf_check -o file:exp "$(prog)" -n$n f
		same_as_pipe -n $n f
		ref_from $n f > exp
		atf_check -o file:exp "$(prog)" -n +$n f
		same_as_pipe -n +$n f
	done
	atf_check -o empty "$(prog)" -n 0 f
	atf_check -o empty "$(prog)" -n -0 f
	atf_check -o file:f "$(prog)" -n +0 f
	atf_check -o file:f "$(prog)" -n +1 f
	same_as_pipe -n 0 f
	same_as_pipe -n +0 f
}

atf_test_case c_option
c_option_head()
{
	atf_set descr "-c N, -c +N: bytes, NULs and all, from file or pipe"
}
c_option_body()
{
	random_file f 10000
	for n in 1 2 511 512 4095 4096 4097 9999 10000 10001 99999; do
		from_byte f $((10000 - n)) > exp
		atf_check -o file:exp "$(prog)" -c $n f
		atf_check -o file:exp "$(prog)" -c -$n f
		same_as_pipe -c $n f
		from_byte f $((n - 1)) > exp
		atf_check -o file:exp "$(prog)" -c +$n f
		same_as_pipe -c +$n f
	done
	atf_check -o empty "$(prog)" -c 0 f
	atf_check -o file:f "$(prog)" -c +0 f
	atf_check -o file:f "$(prog)" -c +1 f
	same_as_pipe -c 0 f
}

atf_test_case b_option
b_option_head()
{
	atf_set descr "-b N counts 512-byte blocks, +N from the start"
}
b_option_body()
{
	random_file f 3000
	from_byte f $((3000 - 1024)) > exp
	atf_check -o file:exp "$(prog)" -b 2 f
	atf_check -o file:exp "$(prog)" -b -2 f
	same_as_pipe -b 2 f
	from_byte f 512 > exp
	atf_check -o file:exp "$(prog)" -b +2 f
	same_as_pipe -b +2 f
	atf_check -o file:f "$(prog)" -b 6 f
	atf_check -o file:f "$(prog)" -b +1 f
	atf_check -o file:f "$(prog)" -b +0 f
	atf_check -o empty "$(prog)" -b 0 f
}

atf_test_case number_forms
number_forms_head()
{
	atf_set descr "Numbers as expand_number(3) reads them: suffixes," \
	    "bases, a b that means nothing"
}
number_forms_body()
{
	# FreeBSD's own case: -c 1k is 1024 bytes, -n 1k 1024 lines.
	awk 'BEGIN { for (i = 0; i < 129; i++) print "aaaaaaa" }' > f8
	awk 'BEGIN { for (i = 0; i < 128; i++) print "aaaaaaa" }' > exp
	atf_check -o file:exp "$(prog)" -c 1k f8
	atf_check -o file:exp "$(prog)" -c 1K f8
	atf_check -o file:exp "$(prog)" -c 1kb f8
	atf_check -o file:exp "$(prog)" -c 1KB f8
	lines 1025 > f
	ref_last 1024 f > exp
	atf_check -o file:exp "$(prog)" -n 1k f
	ref_from 1024 f > exp
	atf_check -o file:exp "$(prog)" -n +1k f
	# Hexadecimal, octal, a lone b, blanks before.
	lines 40 > f
	ref_last 16 f > exp
	atf_check -o file:exp "$(prog)" -n 0x10 f
	atf_check -o file:exp "$(prog)" -n 020 f
	atf_check -o file:exp "$(prog)" -n 16b f
	atf_check -o file:exp "$(prog)" -n ' 16' f
	atf_check -o file:exp "$(prog)" --lines=0x10 f
	# 1m and beyond: everything of a small file.
	for s in 1m 1g 1t 1p 1e 7e; do
		atf_check -o file:f "$(prog)" -n $s f
		atf_check -o file:f "$(prog)" -c $s f
	done
	atf_check -o empty "$(prog)" -n +1m f
}

atf_test_case bad_numbers
bad_numbers_head()
{
	atf_set descr "A malformed or too large number is an error, exit 1"
}
bad_numbers_body()
{
	lines 3 > f
	for s in x 1x 1kk 1bk 08 '' + - 1.5 ' ' 0x -+1 +-1 '1 '; do
		atf_check -s exit:1 -o empty \
		    -e "inline:tail: illegal offset -- $s: Invalid argument\n" \
		    "$(prog)" -n "$s" f
	done
	atf_check -s exit:1 -o empty \
	    -e match:'^tail: illegal offset -- 9223372036854775808: ' \
	    "$(prog)" -c 9223372036854775808 f
	atf_check -s exit:1 -o empty \
	    -e match:'^tail: illegal offset -- 8e: ' "$(prog)" -c 8e f
	atf_check -s exit:1 -o empty \
	    -e match:'^tail: illegal offset -- 99999999999999999999: ' \
	    "$(prog)" -n 99999999999999999999 f
	# In range as a number, not once made blocks.
	atf_check -s exit:1 -o empty \
	    -e inline:'tail: illegal offset -- 18014398509481984\n' \
	    "$(prog)" -b 18014398509481984 f
	# The largest counts there are: everything, or nothing.
	atf_check -o file:f "$(prog)" -c 9223372036854775807 f
	atf_check -o file:f "$(prog)" -n -9223372036854775808 f
	atf_check -o file:f "$(prog)" -b 18014398509481983 f
	atf_check -o empty "$(prog)" -c +9223372036854775807 f
	atf_check -o empty "$(prog)" -n +9223372036854775807 f
	atf_check -o file:f -x "cat f | $(prog) -n 9223372036854775807"
	atf_check -o empty -x "cat f | $(prog) -c +9223372036854775807"
}

atf_test_case historic_forms
historic_forms_head()
{
	atf_set descr "-N, +N and their unit and flag letters, as FreeBSD" \
	    "takes them"
}
historic_forms_body()
{
	lines 30 > f
	ref_last 3 f > exp
	atf_check -o file:exp "$(prog)" -3 f
	atf_check -o file:exp "$(prog)" -3l f
	ref_from 28 f > exp
	atf_check -o file:exp "$(prog)" +28 f
	atf_check -o file:exp "$(prog)" +28l f
	atf_check -o inline:'e 30\n' "$(prog)" -5c f
	from_byte f 206 > exp
	atf_check -o file:exp "$(prog)" +207c f
	random_file r 2000
	from_byte r $((2000 - 1024)) > exp
	atf_check -o file:exp "$(prog)" -2b r
	from_byte r 512 > exp
	atf_check -o file:exp "$(prog)" +2b r
	# A flag at the end: r, and a count of blocks with suffixes.
	printf 'line 30\nline 29\n' > exp
	atf_check -o file:exp "$(prog)" -2r f
	atf_check -o file:exp "$(prog)" -2lr f
	atf_check -o file:exp "$(prog)" -r -2 f
	# Among other options, before the operands only: here a second count.
	atf_check -s exit:1 -e match:'^usage:' "$(prog)" -r -n 1 -4 f
	{ echo '==> f <=='; ref_last 10 f; } > exp
	atf_check -s exit:1 -e inline:'tail: -4: No such file or directory\n' \
	    -o file:exp "$(prog)" f -4
	# FreeBSD's walk stops at an option it does not know to step over.
	atf_check -s exit:1 -e match:'tail: .*3' "$(prog)" -q -3 f
	# A letter it does not know.
	atf_check -s exit:1 -e inline:'tail: illegal option -- -5x\n' \
	    "$(prog)" -5x f
	atf_check -s exit:1 -e inline:'tail: illegal option -- -5q\n' \
	    "$(prog)" -5qf f
	# -n's argument is not taken for a historic form.
	ref_last 5 f > exp
	atf_check -o file:exp "$(prog)" -n -5 f
	atf_check -o file:exp "$(prog)" -n 5 -- f
}

atf_test_case help
help_head()
{
	atf_set descr "--help is an unknown option: the usage on the" \
	    "standard error, exit 1, as FreeBSD's tail"
}
help_body()
{
	usage='usage: tail [-F | -f | -r] [-qv] [-b # | -c # | -n #] [file ...]\n'
	lines 3 > f
	refused_option "$usage" help "$(prog)" --help
	refused_option "$usage" help "$(prog)" -n 1 --help f
}

atf_test_case progress_signal_ignored
progress_signal_ignored_head()
{
	atf_set descr "SIGINFO, or SIGUSR1 where there is none, meant for a" \
	    "copier in the pipeline, is ignored: tail goes on"
}
progress_signal_ignored_body()
{
	need_signal_view "$(prog)"
	sig=$(info_signal)
	lines 100 > f
	# Waiting for a FIFO's writer, then reading it.
	mkfifo fifo
	"$(prog)" -n 3 fifo > out 2> err &
	pid=$!
	exec 3> fifo
	signal_set $pid $sig
	kill -$sig $pid
	cat f >&3
	kill -$sig $pid
	exec 3>&-
	wait $pid
	atf_check_equal 0 $?
	ref_last 3 f > exp
	atf_check cmp exp out
	atf_check -o empty cat err
	# Following a file: what is written after the signals still shows.
	lines 5 > g
	"$(prog)" -f g > out 2> err &
	pid=$!
	signal_set $pid $sig
	kill -$sig $pid
	kill -$sig $pid
	echo after >> g
	n=0
	while ! grep -q '^after$' out && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -0 $pid 2>/dev/null
	alive=$?
	kill $pid 2>/dev/null
	wait $pid
	atf_check_equal 0 $alive
	{ cat g; } > exp
	atf_check cmp exp out
	atf_check -o empty cat err
}

atf_test_case option_errors
option_errors_head()
{
	atf_set descr "Unknown options, missing arguments, two counts and" \
	    "-r with -f give the usage, exit 1"
}
option_errors_body()
{
	usage='usage: tail [-F | -f | -r] [-qv] [-b # | -c # | -n #] [file ...]\n'
	lines 3 > f
	# In the C library's getopt words, which name the option.
	refused_option "$usage" x "$(prog)" -x f
	(POSIXLY_CORRECT=1 && export POSIXLY_CORRECT &&
	    refused_option "$usage" x "$(prog)" -x f) || exit 1
	refused_option "$usage" n "$(prog)" -n
	refused_option "$usage" c "$(prog)" -qc
	refused_option "$usage" n "$(prog)" -v -n
	refused_option "$usage" lines "$(prog)" -v --lines
	refused_option "$usage" nosuch "$(prog)" --nosuch f
	refused_option "$usage" b "$(prog)" --b 1 f
	refused_option "$usage" bytes "$(prog)" --bytes
	refused_option "$usage" li "$(prog)" --li
	refused_option "$usage" verb "$(prog)" --verb=1 f
	# A letter after a long option is still a letter.
	refused_option "$usage" x "$(prog)" --verbose -qx f
	# Two long names of one option are no ambiguity.
	atf_check -o file:f "$(prog)" --quiet --s f
	atf_check -o inline:'line 3\n' "$(prog)" --l=1 f
	atf_check -o inline:'3\n' "$(prog)" --by 2 f
	atf_check -s exit:1 -o empty -e "inline:$usage" "$(prog)" -n 1 -c 1 f
	atf_check -s exit:1 -o empty -e "inline:$usage" "$(prog)" -n 1 -n 2 f
	atf_check -s exit:1 -o empty -e "inline:$usage" "$(prog)" -rf f
	atf_check -s exit:1 -o empty -e "inline:$usage" "$(prog)" -r -F f
	# Options end at the first operand; -- ends them.
	printf 'dash\n' > -n
	atf_check -o inline:'dash\n' "$(prog)" -- -n
	{ echo '==> f <=='; cat f; } > exp
	atf_check -s exit:1 -o file:exp \
	    -e inline:'tail: -q: No such file or directory\n' \
	    "$(prog)" -n 3 f -q
}

atf_test_case long_options
long_options_head()
{
	atf_set descr "--blocks, --bytes, --lines, --quiet, --silent, --verbose"
}
long_options_body()
{
	lines 20 > f
	random_file r 2000
	ref_last 3 f > exp
	atf_check -o file:exp "$(prog)" --lines=3 f
	atf_check -o file:exp "$(prog)" --lines 3 f
	from_byte r 1000 > exp
	atf_check -o file:exp "$(prog)" --bytes=1000 r
	from_byte r 1488 > exp
	atf_check -o file:exp "$(prog)" --blocks=1 r
	ref_last 1 f > one
	{ ref_last 1 f; ref_last 1 f; } > exp
	atf_check -o file:exp "$(prog)" --quiet -n 1 f f
	atf_check -o file:exp "$(prog)" --silent -n 1 f f
	{ echo '==> f <=='; ref_last 1 f; } > exp
	atf_check -o file:exp "$(prog)" --verbose -n 1 f
}

atf_test_case headers
headers_head()
{
	atf_set descr "Several operands: ==> name <== before each, an empty" \
	    "line between; -q none, -v even for one"
}
headers_body()
{
	printf 'a1\na2\n' > a
	printf 'b1' > b
	: > e
	printf '==> a <==\na1\na2\n\n==> b <==\nb1\n==> e <==\n' > exp
	atf_check -o file:exp "$(prog)" a b e
	printf 'a1\na2\nb1' > exp
	atf_check -o file:exp "$(prog)" -q a b
	printf '==> a <==\na1\na2\n' > exp
	atf_check -o file:exp "$(prog)" -v a
	# The last of -q and -v counts.
	atf_check -o file:exp "$(prog)" -q -v a
	atf_check -o inline:'a1\na2\nb1' "$(prog)" -v -q a b
	# The standard input has no header, even with -v.
	atf_check -o inline:'a1\na2\n' -x "$(prog) -v < a"
	# The same file twice, and with -r.
	printf '==> a <==\na2\n\n==> a <==\na2\n' > exp
	atf_check -o file:exp "$(prog)" -n 1 a a
	printf '==> a <==\na2\na1\n\n==> b <==\nb1' > exp
	atf_check -o file:exp "$(prog)" -r a b
}

atf_test_case missing_operand
missing_operand_head()
{
	atf_set descr "An operand that cannot be opened is reported; the" \
	    "others are shown; exit 1"
}
missing_operand_body()
{
	printf 'a\n' > a
	printf 'b\n' > b
	printf '==> a <==\na\n\n==> b <==\nb\n' > exp
	atf_check -s exit:1 -o file:exp \
	    -e inline:'tail: nonexistent: No such file or directory\n' \
	    "$(prog)" a nonexistent b
	atf_check -s exit:1 -o empty \
	    -e inline:'tail: nonexistent: No such file or directory\n' \
	    "$(prog)" nonexistent
	atf_check -s exit:1 -o inline:'a\nb\n' \
	    -e inline:'tail: x: No such file or directory\ntail: y: No such file or directory\n' \
	    "$(prog)" -q x a y b
	atf_check -s exit:1 -o inline:'a\n' \
	    -e inline:'tail: x: No such file or directory\n' \
	    "$(prog)" -r -q x a
}

atf_test_case unreadable_operand
unreadable_operand_head()
{
	atf_set descr "A file that may not be read is reported"
	atf_set require.user unprivileged
}
unreadable_operand_body()
{
	printf 'secret\n' > secret
	chmod 000 secret
	printf 'a\n' > a
	atf_check -s exit:1 -o inline:'==> a <==\na\n' \
	    -e inline:'tail: secret: Permission denied\n' "$(prog)" secret a
}

atf_test_case directory
directory_head()
{
	atf_set descr "A directory operand: Is a directory, after its header"
}
directory_body()
{
	mkdir d
	printf 'a\nb\nc\n' > a
	for o in "" "-c 3" "-n +2" "-c +2" "-r"; do
		{ printf '==> d <==\n\n==> a <==\n'; "$(prog)" $o a; } > exp
		atf_check -s exit:1 -o file:exp \
		    -e inline:'tail: d: Is a directory\n' "$(prog)" $o d a
	done
	atf_check -s exit:1 -e inline:'tail: stdin: Is a directory\n' \
	    -x "$(prog) < d"
}

atf_test_case dash_operand
dash_operand_head()
{
	atf_set descr "'-' is a file of that name, as on FreeBSD"
}
dash_operand_body()
{
	printf 'in\n' > in
	atf_check -s exit:1 -e inline:'tail: -: No such file or directory\n' \
	    -x "$(prog) - < in"
	printf 'dash\n' > ./-
	atf_check -o inline:'dash\n' -x "$(prog) - < in"
}

atf_test_case no_trailing_newline
no_trailing_newline_head()
{
	atf_set descr "A last line without a newline is a line"
}
no_trailing_newline_body()
{
	printf 'a\nb\nc' > f
	atf_check -o inline:'c' "$(prog)" -n 1 f
	atf_check -o inline:'b\nc' "$(prog)" -n 2 f
	atf_check -o inline:'a\nb\nc' "$(prog)" -n 3 f
	atf_check -o inline:'a\nb\nc' "$(prog)" -n 4 f
	atf_check -o inline:'b\nc' "$(prog)" -n +2 f
	atf_check -o inline:'c' "$(prog)" -n +3 f
	atf_check -o empty "$(prog)" -n +4 f
	for n in 1 2 3 4; do
		same_as_pipe -n $n f
		same_as_pipe -n +$n f
	done
	# Reversed, it goes first, without a newline.
	atf_check -o inline:'cb\na\n' "$(prog)" -r f
	atf_check -o inline:'cb\n' "$(prog)" -rn 2 f
	same_as_pipe -r f
	same_as_pipe -rn 2 f
	printf 'x' > one
	atf_check -o inline:'x' "$(prog)" one
	atf_check -o inline:'x' "$(prog)" -r one
	atf_check -o inline:'x' "$(prog)" -c 1 one
}

atf_test_case empty_file
empty_file_head()
{
	atf_set descr "An empty file or input shows nothing, in every mode"
}
empty_file_body()
{
	: > e
	for o in "" "-n 3" "-n +1" "-n +3" "-c 3" "-c +1" "-c +3" "-b 1" \
	    "-r" "-rn 2" "-rc 2"; do
		atf_check -o empty "$(prog)" $o e
		atf_check -o empty -x "$(prog) $o < e"
		atf_check -o empty -x "cat e | $(prog) $o"
	done
}

atf_test_case odd_bytes
odd_bytes_head()
{
	atf_set descr "NULs, CRLF, all 256 bytes, a file of newlines only"
}
odd_bytes_body()
{
	printf 'a\000b\nc\000\000\nd\000' > nul
	atf_check -o inline:'c\000\000\nd\000' "$(prog)" -n 2 nul
	atf_check -o inline:'d\000c\000\000\na\000b\n' "$(prog)" -r nul
	same_as_pipe -n 2 nul
	same_as_pipe -r nul
	printf 'one\r\ntwo\r\nthree\r\n' > crlf
	atf_check -o inline:'two\r\nthree\r\n' "$(prog)" -n 2 crlf
	atf_check -o inline:'three\r\ntwo\r\none\r\n' "$(prog)" -r crlf
	atf_check -o inline:'\r\n' "$(prog)" -c 2 crlf
	printf '\n\n\n\n\n' > nl
	atf_check -o inline:'\n\n' "$(prog)" -n 2 nl
	atf_check -o inline:'\n\n\n' "$(prog)" -n +3 nl
	atf_check -o file:nl "$(prog)" -r nl
	atf_check -o inline:'\n\n' "$(prog)" -rn 2 nl
	same_as_pipe -n 2 nl
	same_as_pipe -r nl
	i=0
	while [ $i -lt 256 ]; do
		printf "\\$(printf %03o $i)"
		i=$((i + 1))
	done > all
	[ "$(size_of all)" -eq 256 ] || atf_fail "could not make all 256 bytes"
	from_byte all $(($(size_of all) - 200)) > exp
	atf_check -o file:exp "$(prog)" -c 200 all
	same_as_pipe -c 200 all
	same_as_pipe -r all
}

atf_test_case long_lines
long_lines_head()
{
	atf_set descr "Lines longer than any buffer or window, forward and" \
	    "reversed, from files and pipes"
	atf_set timeout 300
}
long_lines_body()
{
	need_faultinj
	# Lines of 20,000 to 300,000 bytes, read through a buffer of a page.
	awk 'BEGIN {
		for (i = 1; i <= 6; i++) {
			n = i * 50000
			l = sprintf("%07d", i)
			while (length(l) < n)
				l = l l
			print substr(l, 1, n)
		}
	}' > f
	ref_last 2 f > exp
	for size in "" 4096 8192; do
		path_export auto $size
		atf_check -o file:exp "$(prog)" -n 2 f
		same_as_pipe -n 2 f
		ref_rev f > rexp
		atf_check -o file:rexp "$(prog)" -r f
		same_as_pipe -r f
		same_as_pipe -rn 3 f
		same_as_pipe -rc 123457 f
		same_as_pipe -n +5 f
		same_as_pipe -c 250001 f
	done
	path_export auto
	# No newline at all.
	awk 'BEGIN { for (i = 0; i < 40000; i++) printf "0123456789" }' > one
	atf_check -o file:one "$(prog)" one
	atf_check -o file:one "$(prog)" -r one
	atf_check -o file:one -x "$(bufsize_env 4096) $(prog) -r one"
	same_as_pipe -n 1 one
}

atf_test_case page_boundaries
page_boundaries_head()
{
	atf_set descr "Files of a page and of several, each +/- 1 byte, with" \
	    "lines across the boundaries"
	atf_set timeout 900
}
page_boundaries_body()
{
	need_faultinj
	# Lines of 100 bytes: a page (4096) ends inside one.
	lines 300 100 > base
	for size in 1 99 100 101 4095 4096 4097 8191 8192 8193 16384 \
	    16385 30000; do
		head -c $size base > f
		# Whole lines only, for the awk references.
		if [ $((size % 100)) -eq 0 ]; then
			for n in 1 3 41 1000; do
				ref_last $n f > exp
				atf_check -o file:exp "$(prog)" -n $n f
				ref_from $n f > exp
				atf_check -o file:exp "$(prog)" -n +$n f
			done
			ref_rev f > exp
			atf_check -o file:exp "$(prog)" -r f
		fi
		for o in "-n 1" "-n 3" "-n 41" "-n 1000" "-c 1" "-c 4096" \
		    "-c 4097" "-r" "-rn 3" "-rn 41" "-rc 4096" "-rc 4097" \
		    "-n +41" "-c +4097"; do
			# shellcheck disable=SC2086
			same_as_pipe $o f
			$(bufsize_env 4096) "$(prog)" $o f | cmp -s - got ||
			    atf_fail "$o of $size bytes: a page's buffer differs"
		done
	done
}

atf_test_case reverse
reverse_head()
{
	atf_set descr "-r: lines last first, of a file and a pipe; with" \
	    "-n, -c and -b the count of what is shown"
}
reverse_body()
{
	printf 'This is the first line\nThis is the second line\nThis is the third line\n' > f
	printf 'This is the third line\nThis is the second line\nThis is the first line\n' > exp
	atf_check -o file:exp "$(prog)" -r f
	same_as_pipe -r f
	printf 'This is the third line\nThis is the second line\n' > exp
	atf_check -o file:exp "$(prog)" -rn2 f
	atf_check -o file:exp "$(prog)" -r -n 2 f
	# The bytes counted begin inside a line: its part is a line.
	printf 'This is the third line\nline\n' > exp
	atf_check -o file:exp "$(prog)" -rc28 f
	same_as_pipe -rc28 f
	# All of a short input, though the count is longer.
	printf 'a\nb\n' > ab
	atf_check -o inline:'b\na\n' "$(prog)" -rc 100 ab
	same_as_pipe -rc 100 ab
	# A leading newline (FreeBSD PR 222671).
	printf '\n1\n2\n3\n' > lead
	atf_check -o inline:'3\n2\n1\n\n' "$(prog)" -r lead
	same_as_pipe -r lead
	# +N takes one off, as on FreeBSD; 0 shows nothing.
	lines 10 > ten
	printf 'line 10\nline 9\nline 8\n' > exp
	atf_check -o file:exp "$(prog)" -r -n +4 ten
	atf_check -o empty "$(prog)" -r -n 0 ten
	atf_check -o empty "$(prog)" -r -c +1 ten
	random_file r 2000
	same_as_pipe -rb 1 r
	same_as_pipe -rb 3 r
	same_as_pipe -r r
}

atf_test_case reverse_long
reverse_long_head()
{
	atf_set descr "-r of long files, by windows, with FreeBSD's counts"
	atf_set timeout 300
}
reverse_long_body()
{
	awk 'BEGIN { for (i = 0; i < 1030; i++) printf "%0511d\n", i }' > f
	awk 'BEGIN { for (i = 1029; i >= 0; i--) printf "%0511d\n", i }' > exp
	atf_check -o file:exp "$(prog)" -r f
	same_as_pipe -r f
	awk 'BEGIN { for (i = 0; i < 9000; i++) printf "%063d\n", i }' > f
	awk 'BEGIN { for (i = 8999; i >= 6500; i--) printf "%063d\n", i }' > exp
	atf_check -o file:exp "$(prog)" -rn2500 f
	same_as_pipe -rn2500 f
	awk 'BEGIN { for (i = 8999; i >= 6879; i--) printf "%063d\n", i
	    printf "%037d\n", 6878 }' > exp
	atf_check -o file:exp "$(prog)" -rc135782 f
	same_as_pipe -rc135782 f
	# Three lines of 144,000 bytes.
	awk 'BEGIN { for (l = 0; l < 3; l++) { for (i = 0; i < 18000; i++)
	    printf "%s%07d", (i ? " " : ""), l * 18000 + i; print "" } }' > f
	awk 'BEGIN { for (l = 2; l >= 0; l--) { for (i = 0; i < 18000; i++)
	    printf "%s%07d", (i ? " " : ""), l * 18000 + i; print "" } }' > exp
	atf_check -o file:exp "$(prog)" -r f
	same_as_pipe -r f
	same_as_pipe -rc145782 f
}

atf_test_case spill
spill_head()
{
	atf_set descr "A pipe longer than memory may hold goes to a temporary" \
	    "file: -r, -n and -c of 20 MB are whole and right"
	atf_set timeout 600
}
spill_body()
{
	small_machine
	# 20 MB, 18 MB of it to hold: past the 8 MiB held in memory first.
	lines 1000000 20 > big
	ref_rev big > rexp
	mkdir tmp
	export TMPDIR=$PWD/tmp
	t="env $small $(prog)"
	atf_check -o file:rexp -x "cat big | $t -r"
	ref_last 900000 big > exp
	atf_check -o file:exp -x "cat big | $t -n 900000"
	atf_check -o file:exp -x "cat big | $t -c 18000000"
	awk 'NR <= 900000' rexp > exp
	atf_check -o file:exp -x "cat big | $t -r -n 900000"
	ref_last 1000 big > exp
	atf_check -o file:exp -x "cat big | $t -n 1000"
	awk 'NR <= 1000' rexp > exp
	atf_check -o file:exp -x "cat big | $t -r -n 1000"
	# Nothing is left behind.
	[ -z "$(ls tmp | grep '^tail')" ] || atf_fail "left behind: $(ls tmp)"
	# No temporary file: memory after all, up to 32 MiB.
	touch afile
	ref_last 900000 big > exp
	for d in "$PWD/nonexistent" afile /proc; do
		atf_check -o file:rexp -x "cat big | TMPDIR=$d $t -r"
		atf_check -o file:exp -x "cat big | TMPDIR=$d $t -c 18000000"
	done
	atf_check -o file:exp -x "cat big | TMPDIR=afile $t -n 900000"
}

atf_test_case spill_bounds
spill_bounds_head()
{
	atf_set descr "What a stream needs held: memory first, a temporary" \
	    "file beyond, memory when there is none, an error only when" \
	    "neither can hold it; no fixed bound on TMPDIR's length"
	atf_set timeout 600
}
spill_bounds_body()
{
	# The machine's own memory holds 30 MiB, without a temporary file.
	head -c 40000000 /dev/urandom > rand
	atf_check -o inline:'31457280\n' -x \
	    "head -c 40000000 rand | TMPDIR=/nonexistent $(prog) -c 30M | wc -c | tr -d ' '"
	tail -c 30M rand > exp
	atf_check -o file:exp -x "cat rand | TMPDIR=/nonexistent $(prog) -c 30M"
	small_machine
	t="env $small $(prog)"
	# 36 MB to hold: past the 32 MiB that memory may take, so only the
	# temporary file holds it, here in a directory of 1,200 bytes' name.
	long=$PWD
	for i in 1 2 3 4 5 6; do
		long=$long/$(printf '%0200d' 0)
	done
	mkdir -p "$long" || atf_skip "cannot make a directory that deep"
	tail -c 36000000 rand > exp
	atf_check -o file:exp -x "cat rand | TMPDIR=$long $t -c 36000000"
	[ -z "$(ls "$long")" ] || atf_fail "left behind: $(ls "$long")"
	# Neither a temporary file nor memory: said, nothing shown.
	atf_check -s exit:1 -o empty \
	    -e inline:"tail: $PWD/nonexistent: No such file or directory\n" \
	    -x "cat rand | TMPDIR=$PWD/nonexistent $t -c 36000000"
	# No newline ever: the last line grows until memory may take no more.
	atf_check -s exit:1 -o empty \
	    -e inline:"tail: $PWD/nonexistent: No such file or directory\n" \
	    -x "timeout 120 env TMPDIR=$PWD/nonexistent $small $(prog) -n 1 < /dev/zero"
}

atf_test_case spill_no_fill cleanup
spill_no_fill_head()
{
	atf_set descr "tail -n 1 < /dev/zero never fills the file system of" \
	    "its temporary file: half of its free space at most"
	atf_set timeout 300
}
spill_no_fill_body()
{
	small_machine
	mkdir mnt
	lines 1000000 20 > big
	# A 24 MiB file system of the test's own, where one can be mounted;
	# then the same filled.
	cat > run.sh <<EOT
mount -t tmpfs -o size=24m none mnt || exit 77
timeout 120 env TMPDIR=mnt $small $(prog) -n 1 < /dev/zero > out 2> err
echo \$? > status
dd if=/dev/zero of=mnt/fill bs=65536 2> /dev/null
$small TMPDIR=mnt $(prog) -r < big > out.full 2> err.full
echo \$? >> status
umount mnt
EOT
	# Linux lets a user mount in a namespace of its own; elsewhere root
	# mounts, and the cleanup unmounts what a failure left.
	if [ "$(uname -s)" = Linux ]; then
		unshare -r -m sh run.sh
	elif [ "$(id -u)" = 0 ]; then
		sh run.sh
	else
		atf_skip "only root may mount a tmpfs here"
	fi
	[ $? -eq 77 ] || [ ! -f status ] &&
	    atf_skip "cannot mount a tmpfs here"
	# Filled, the write would fail and say so; at half, tail stops
	# before that, and memory too at its bound, and it says the input
	# is too large.
	atf_check -o inline:'1\n0\n' cat status
	atf_check -o inline:'tail: stdin: File too large\n' cat err
	atf_check -o empty cat out
	# A full TMPDIR: memory after all.
	ref_rev big > exp
	atf_check -o file:exp cat out.full
	atf_check -o empty cat err.full
}
spill_no_fill_cleanup()
{
	[ "$(uname -s)" = Linux ] || umount mnt 2>/dev/null
	true
}

atf_test_case spill_past_4g
spill_past_4g_head()
{
	atf_set descr "A 32-bit tail whose temporary file has taken more than" \
	    "4 GiB, and can take no more, says the input is too large" \
	    "rather than show what a 32-bit size keeps of it"
	atf_set timeout 900
}
spill_past_4g_body()
{
	# ELF's class byte: 1 for a 32-bit program; a 64-bit size_t holds
	# any file, and what this case needs is 4 GiB of writes.
	[ "$(od -An -tx1 -j4 -N1 "$(prog)" | tr -d ' ')" = 01 ] ||
	    atf_skip "tail is not a 32-bit program"
	small_machine
	mkdir tmp
	# Half the free space goes to the file, which must pass 4 GiB.
	free=$(df -Pk tmp | awk 'NR == 2 { print $4 }')
	[ "$free" -gt 8400000 ] || atf_skip "less than 8.1 GiB free here"
	# Writes stop 1 MiB past 4 GiB (ulimit -f counts 512-byte blocks):
	# the file is read back into memory, where a 32-bit size would see
	# 1 MiB of it and the 32 MiB of memory would take that.
	limit=$(((4194304 + 1024) * 2))
	atf_check -s exit:1 -o empty \
	    -e inline:"tail: $PWD/tmp: File too large\n" \
	    -x "head -c 4297064448 /dev/zero | sh -c \"trap '' XFSZ;
	    ulimit -f $limit; exec env TMPDIR=$PWD/tmp $small $(prog) -n 1\""
	[ -z "$(ls tmp)" ] || atf_fail "left behind: $(ls tmp)"
}

atf_test_case large_file
large_file_head()
{
	atf_set descr "A sparse file past 4 GiB: its end by position"
	atf_set timeout 300
}
large_file_body()
{
	truncate -s 5G big 2>/dev/null || atf_skip "cannot make a 5 GiB file"
	printf 'x\npast4GiB\n' | dd of=big bs=1 seek=4294967300 conv=notrunc \
	    2>/dev/null
	printf 'one\ntwo\nthree\n' >> big
	atf_check -o inline:'two\nthree\n' "$(prog)" -n 2 big
	atf_check -o inline:'ree\n' "$(prog)" -c 4 big
	atf_check -o inline:'three\ntwo\n' "$(prog)" -rn 2 big
	atf_check -o inline:'three\no\n' "$(prog)" -rc 8 big
	atf_check -o inline:'past4GiB\n' -x \
	    "$(prog) -c +4294967303 big | head -n 1"
	atf_check -o inline:'one\ntwo\nthree\n' -x \
	    "$(prog) -c +5368709121 big"
	atf_check -o inline:'two\nthree\n' -x "$(prog) -b 1 big | $(prog) -n 2"
}

atf_test_case terminal
terminal_head()
{
	atf_set descr "A terminal as input (read to the end of input) and" \
	    "as output"
	atf_set timeout 60
}
terminal_body()
{
	. "$(atf_get_srcdir)/../../common/portable.subr"
	need_pty_driver
	# on_pty OPTIONS...: tail on a terminal, "a" to "e" typed, then the
	# end-of-file character; what it wrote in ./shown.  The terminal does
	# not echo: its echo of a line, made as the system gets to it, could
	# come after what tail wrote of an earlier line.
	on_pty()
	{
		pty_run 'a\nb\nc\nd\ne\n' "$(prog)" "$@" > shown ||
		    atf_fail "tail $* on a terminal: $(cat shown)"
	}
	on_pty -n 2
	atf_check -o inline:'d\ne\n' cat shown
	on_pty -r
	atf_check -o inline:'e\nd\nc\nb\na\n' cat shown
	on_pty -n +3
	atf_check -o inline:'c\nd\ne\n' cat shown
	# -f means nothing for what cannot seek: on Linux a terminal on the
	# standard input.  FreeBSD's terminals seek, and its tail follows them.
	[ "$(uname -s)" = Linux ] || return 0
	on_pty -f -n 1
	atf_check -o inline:'e\n' cat shown
}

atf_test_case engine_paths
engine_paths_head()
{
	atf_set descr "Each engine path, forced, gives the same output, to a" \
	    "file, a pipe and an appended file"
	atf_set timeout 300
}
engine_paths_body()
{
	need_faultinj
	lines 100000 37 > f
	for o in "-n 10" "-n 70000" "-c 12345" "-n +2" "-c +100" "-n +99990" \
	    "-b +3"; do
		"$(prog)" $o f > ref
		for p in auto $PATHS; do
			$(path_env $p) "$(prog)" $o f > out ||
			    atf_fail "$p $o failed"
			cmp -s ref out || atf_fail "$p $o differs"
			$(path_env $p) "$(prog)" $o f | cmp -s - ref ||
			    atf_fail "$p $o differs through a pipe"
			printf 'head' > app
			$(path_env $p) "$(prog)" $o f >> app
			{ printf 'head'; cat ref; } | cmp -s - app ||
			    atf_fail "$p $o differs appended"
		done
	done
	ref_last 10 f > exp
	atf_check -o file:exp "$(prog)" -n 10 f
	ref_from 99990 f > exp
	atf_check -o file:exp "$(prog)" -n +99990 f
}

atf_test_case stdin_offset
stdin_offset_head()
{
	atf_set descr "A standard input read from already begins where it is"
}
stdin_offset_body()
{
	lines 10 > f
	(read -r l; "$(prog)" -n +1) < f > out
	ref_from 2 f > exp
	atf_check cmp exp out
	(read -r l; read -r l; "$(prog)" -n 100) < f > out
	ref_from 3 f > exp
	atf_check cmp exp out
	(read -r l; "$(prog)" -r) < f > out
	ref_from 2 f > x
	ref_rev x > exp
	atf_check cmp exp out
}

atf_test_case dev_full
dev_full_head()
{
	atf_set descr "A full output is fatal: tail: stdout: ..., exit 1"
}
dev_full_body()
{
	need_faultinj
	[ -c /dev/full ] || atf_skip "no /dev/full"
	lines 100000 > f
	for o in "" "-n 50000" "-n +2" "-c 3" "-r" "-v"; do
		for p in auto rw; do
			atf_check -s exit:1 \
			    -e inline:'tail: stdout: No space left on device\n' \
			    -x "$(path_env $p) $(prog) $o f > /dev/full"
		done
		atf_check -s exit:1 \
		    -e inline:'tail: stdout: No space left on device\n' \
		    -x "cat f | $(prog) $o > /dev/full"
	done
}

atf_test_case stdout_closed
stdout_closed_head()
{
	atf_set descr "A closed standard output is reported, exit 1; no" \
	    "input takes its place"
}
stdout_closed_body()
{
	printf 'a\n' > a
	for o in "" "-r" "-c +1" "-v"; do
		atf_check -s exit:1 \
		    -e inline:'tail: stdout: Bad file descriptor\n' \
		    -x "$(prog) $o a >&-"
	done
	atf_check -o inline:'a\n' cat a
	# Nothing to write: nothing to fail.
	atf_check -x "$(prog) -n 0 a >&-"
}

atf_test_case sigpipe
sigpipe_head()
{
	atf_set descr "A reader that goes away kills tail with SIGPIPE, silently"
	atf_set timeout 120
}
sigpipe_body()
{
	need_faultinj
	lines 1000000 > f
	for o in "-n +1" "-n 500000" "-r"; do
		for p in auto rw; do
			($(path_env $p) "$(prog)" $o f 2> err; echo $? > rc) |
			    head -c 1 > /dev/null
			atf_check -o inline:'141\n' cat rc
			atf_check -o empty cat err
		done
	done
}

# bytes_read FILE OPTIONS...: what tail read(2) and pread(2) of FILE, in
# bytes, in ./nread; the number of those calls in ./calls; its output in
# ./out.  No leak check under strace: LeakSanitizer cannot run traced.
# The fault injector is preloaded into tail, not the tracer: it acts in
# the first process it is loaded into only.  After need_call_tracer.
bytes_read()
{
	_f=$1
	shift
	_p=${LD_PRELOAD:-}
	if strace -o /dev/null true 2>/dev/null; then
		(
			unset LD_PRELOAD
			ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
			    strace -y -e trace=read,pread64 -o trace \
			    env ${_p:+LD_PRELOAD="$_p"} "$(prog)" "$@" > out
		) || atf_fail "tail $* failed under strace"
		awk -v f="/$_f>" 'index($0, f) && /^(read|pread64)\(/ {
			n += $NF; c++ } END { print n + 0 > "nread"
			print c + 0 > "calls" }' trace
		return
	fi
	# ktrace: every read of tail's own (not the Casper service's) past
	# the standard descriptors, where FILE is the one operand, but from
	# files opened by an absolute name, as the run-time linker opens its
	# hints; the operands here are relative.
	rm -f trace.ktr
	(
		unset LD_PRELOAD
		ktrace -i -t cn -f trace.ktr env ${_p:+LD_PRELOAD="$_p"} \
		    "$(prog)" "$@" > out
	) || atf_fail "tail $* failed traced"
	kdump -f trace.ktr | awk '
	    NR == 1 { pid = $1 }
	    $1 != pid { next }
	    $3 == "NAMI" { name = $4 }
	    $3 == "RET" && $4 ~ /^open/ && name ~ /^"\// {
		sys[sprintf("0x%x", $5)] = 1
	    }
	    $3 == "CALL" { name = ""; fd = "" }
	    $3 == "CALL" && $4 ~ /^close\(/ {
		f = $4; sub(/^close\(/, "", f); sub(/\).*/, "", f)
		delete sys[f]
	    }
	    $3 == "CALL" && $4 ~ /^p?read\(/ {
		fd = $4; sub(/^p?read\(/, "", fd); sub(/,.*/, "", fd)
		if (fd ~ /^0x[012]$/ || (fd in sys))
			fd = ""
	    }
	    $3 == "RET" && $4 ~ /^p?read$/ && fd != "" && $5 + 0 >= 0 {
		n += $5; c++
	    }
	    END { print n + 0 > "nread"; print c + 0 > "calls" }'
}

atf_test_case shown_bytes_read
shown_bytes_read_head()
{
	atf_set descr "tail -n 10 of a large file reads about what it shows:" \
	    "a page-aligned read, one page when the size is a multiple of it"
	atf_set timeout 120
}
shown_bytes_read_body()
{
	. "$(atf_get_srcdir)/../../common/portable.subr"
	need_call_tracer
	page=$(getconf PAGESIZE)
	# 64 MiB of 64-byte lines: a multiple of the page.
	awk 'BEGIN { for (i = 0; i < 1048576; i++) printf "%063d\n", i }' > big
	# is WHAT EXPECTED: ./nread is EXPECTED
	is()
	{
		[ "$(cat nread)" = "$2" ] || atf_fail "$1: $(cat nread), not $2"
	}
	# The whole of what is shown is in the last page: one read of it.
	# sendfile moves files into files on Linux alone; elsewhere the
	# engine reads and writes.
	kernel="auto cfr sendfile"
	user="rw splice"
	if [ "$(uname -s)" != Linux ]; then
		kernel="auto cfr"
		user="rw splice sendfile"
	fi
	for p in $kernel; do
		path_export $p
		bytes_read big -n 10 big
		is "$p: bytes read" $page
		[ "$(cat calls)" = 1 ] || atf_fail "$p: $(cat calls) reads"
		[ "$(size_of out)" = 640 ] || atf_fail "$p: $(size_of out) shown"
	done
	# Through read/write, which splice comes to between two files, the
	# engine reads the shown part once more.
	for p in $user; do
		path_export $p
		bytes_read big -n 10 big
		is "$p: bytes read" $((page + 640))
	done
	path_export auto
	# A size one byte past: the last window is a page and that byte.
	printf 'x\n' >> big
	bytes_read big -n 10 big
	is "a page + 2: bytes read" $((page + 2))
	[ "$(cat calls)" = 1 ] || atf_fail "a page + 2: $(cat calls) reads"
	# Larger tails: never more than twice what is shown and a page.
	for n in 100 1000 10000 100000; do
		bytes_read big -n $n big
		got=$(cat nread)
		shown=$(size_of out)
		[ "$got" -le $((2 * shown + 2 * page)) ] ||
		    atf_fail "-n $n read $got bytes to show $shown"
		[ "$got" -ge "$shown" ] ||
		    atf_fail "-n $n read $got bytes but showed $shown"
	done
	bytes_read big -c 100 big
	[ "$(cat nread)" -le $((2 * page)) ] ||
	    atf_fail "-c 100 read $(cat nread) bytes"
	bytes_read big -r -n 10 big
	[ "$(cat nread)" -le $((2 * page)) ] ||
	    atf_fail "-r -n 10 read $(cat nread) bytes"
	# -n +N reads about the first N lines, then the engine copies.
	path_export cfr
	bytes_read big -n +3 big
	path_export auto
	[ "$(cat nread)" -le "$page" ] ||
	    atf_fail "-n +3 read $(cat nread) bytes"
}

atf_test_case reverse_read_once
reverse_read_once_head()
{
	atf_set descr "-r reads each byte of a file once, whatever its lines:" \
	    "a line cut by a window's start is kept, not read again"
	atf_set timeout 300
}
reverse_read_once_body()
{
	. "$(atf_get_srcdir)/../../common/portable.subr"
	need_call_tracer
	# Windows of 16 KiB at most, so that many lines are cut.
	path_export auto 16384
	for w in 1 2 63 64 100 1000 4095 4097 9000 16000; do
		awk -v w=$w 'BEGIN { for (n = 0; n < 400000; n += w) {
		    s = n; while (length(s) < w - 1) s = s "."
		    print substr(s, 1, w - 1) } }' > f
		awk '{ l[NR] = $0 } END { while (NR > 0) print l[NR--] }' \
		    f > exp
		size=$(size_of f)
		bytes_read f -r f
		[ "$(cat nread)" = "$size" ] ||
		    atf_fail "-r, lines of $w: read $(cat nread) of $size bytes"
		cmp -s out exp || atf_fail "-r, lines of $w: wrong output"
		bytes_read f -r -c $((size / 3)) f
		[ "$(cat nread)" = $((size / 3)) ] ||
		    atf_fail "-r -c, lines of $w: read $(cat nread) bytes"
	done
}

atf_test_case rescue
rescue_head()
{
	atf_set descr "FreeBSD: the crunched /rescue/tail (libbufsz through" \
	    "CRUNCH_LIBS) shows the end of files and pipes as tail does"
}
rescue_body()
{
	rescue_prog tail
	lines 5000 > f
	atf_check -o inline:"line 4999\nline 5000\n" "$r" -n 2 f
	atf_check -o inline:"line 4999\nline 5000\n" "$r" -n 2 < f
	atf_check -o inline:"line 5000\nline 4999\n" "$r" -r -n 2 f
	atf_check -o inline:"00\n" "$r" -c 3 f
	atf_check -s exit:1 -e inline:"tail: nosuch: No such file or directory\n" \
	    "$r" nosuch
}

atf_test_case tmpdir_named
tmpdir_named_head()
{
	atf_set descr "A temporary file that cannot be made is said by the" \
	    "name of its directory, as TMPDIR gives it, confined or not"
	atf_set timeout 300
}
tmpdir_named_body()
{
	. "$(atf_get_srcdir)/../../common/portable.subr"
	small_machine
	layered=
	! landlock_confines "$(prog)" || layered=in_landlock_layers
	# 36 MB to hold: past the 32 MiB that memory may take.
	head -c 36000000 /dev/urandom > rand
	touch afile
	mkdir dir
	noent=$(errno_message ENOENT)
	notdir=$(errno_message ENOTDIR)
	for layers in "" $layered; do
		for d in nonexistent "$PWD/nonexistent" "$PWD/nonexistent/" \
		    dir/nonexistent/deeper afile "$PWD/afile" afile/; do
			case $d in
			*afile*)	msg=$notdir ;;
			*)		msg=$noent ;;
			esac
			for opts in "-c 36000000" "-r"; do
				st=0
				# shellcheck disable=SC2086
				cat rand | $layers env TMPDIR="$d" $small \
				    "$(prog)" $opts > out 2> err || st=$?
				atf_check_equal 1 "$st"
				atf_check -o empty cat out
				atf_check -o inline:"tail: $d: $msg\n" cat err
			done
		done
	done
}

# capsicum_or_skip: skips where tail's capability mode cannot be seen.
capsicum_or_skip()
{
	[ "$(uname -s)" = FreeBSD ] ||
	    atf_skip "Capsicum and Casper are FreeBSD's; $(uname -s) has none"
	command -v ktrace > /dev/null || atf_skip "no ktrace"
	ktrace -f ktr true 2> /dev/null && [ -s ktr ] ||
	    atf_skip "no ktrace(2): a kernel without KTRACE"
}

# ktraced OPTIONS...: tail under ktrace -i, with capability violations
# (-t +p), its records in ./ktr; Casper's helpers, forked from it, too.
ktraced()
{
	rm -f ktr
	env ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    ktrace -i -t +p -f ktr "$(prog)" "$@"
}

# own_records: the records of tail itself, the pid ktrace started, each
# as "TYPE  what": "CALL  openat(...)", "RET   cap_enter 0", "NAMI  "f"",
# numbers in decimal.
own_records()
{
	kdump -d -f ktr | awk 'NR == 1 { pid = $1 }
	    $1 == pid { sub(/^ *[0-9]+ +[^ ]+ +/, ""); print }'
}

# in_capability_mode [OPERAND...]: fails unless tail's own records show
# cap_enter returning 0, and after it no name looked up, no file opened
# by name, no sysctl and no capability violation; and unless each
# OPERAND was opened by another process (Casper's), never by tail.
in_capability_mode()
{
	own_records > own
	atf_check -o inline:'cap_enter 0\n' -x "awk '
		/^RET +cap_enter / { print \$2 \" \" \$3; on = 1; next }
		on && /^NAMI / { print \"looked up after: \" \$0 }
		on && /^CALL +(open|openat|fstatat|faccessat|access|readlink|readlinkat|statfs|unlink|unlinkat)\\(/ {
			print \"by name after: \" \$0 }
		on && /^CALL +__sysctl/ { print \"sysctl after: \" \$0 }
		on && /^CAP / { print \"violation: \" \$0 }' own"
	grep -q '^CALL *__sysctl' own ||
	    atf_fail "no sysctl: where did the memory come from?"
	for _o; do
		! grep -q "^NAMI  *\"$_o\"\$" own ||
		    atf_fail "tail opened $_o itself, not through Casper"
		kdump -f ktr | grep -q "NAMI  *\"$_o\"\$" ||
		    atf_fail "no process opened $_o: does ktrace -i follow Casper?"
	done
}

# ktraced_bg OPTIONS...: ktraced in the background, pid set to tail's.
ktraced_bg()
{
	rm -f ktr
	(exec env ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    ktrace -i -t +p -f ktr "$(prog)" "$@") > out 2> err &
	pid=$!
}

atf_test_case capsicum
capsicum_head()
{
	atf_set descr "On FreeBSD tail -n, -r, -f and -F run in capability" \
	    "mode before the first read, their operands opened by Casper," \
	    "the memory probed before"
	atf_set timeout 120
}
capsicum_body()
{
	capsicum_or_skip
	lines 100 > f
	lines 5 > f2
	ref_last 3 f > exp
	ktraced -n 3 f > out 2> err ||
	    atf_fail "tail exited $?"
	atf_check -o file:exp cat out
	atf_check -o empty cat err
	in_capability_mode f
	awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' \
	    f > exp
	ktraced -r f > out 2> err ||
	    atf_fail "tail exited $?"
	atf_check -o file:exp cat out
	atf_check -o empty cat err
	in_capability_mode f
	{ echo '==> f <=='; ref_last 2 f; echo; echo '==> f2 <=='
	    ref_last 2 f2; } > exp
	ktraced -n 2 f f2 > out 2> err ||
	    atf_fail "tail exited $?"
	atf_check -o file:exp cat out
	atf_check -o empty cat err
	in_capability_mode f f2
	for o in -f -F; do
		ktraced_bg $o -n 1 f
		sleep 1
		echo "more $o" >> f
		sleep 2
		kill $pid
		wait $pid
		printf 'line 100\nmore %s\n' "$o" > exp
		atf_check -o file:exp cat out
		atf_check -o empty cat err
		in_capability_mode f
		lines 100 > f
	done
}

atf_test_case capsicum_follow
capsicum_follow_head()
{
	atf_set descr "On FreeBSD tail -F, in capability mode, follows a" \
	    "name rotated (renamed away, made anew) and recreated" \
	    "(removed, made anew), reopening it through Casper"
	atf_set timeout 120
}
capsicum_follow_body()
{
	capsicum_or_skip
	echo one > f
	ktraced_bg -F f
	sleep 1
	echo two >> f
	sleep 2
	mv f f.1
	echo three > f
	sleep 3
	rm f
	sleep 2
	echo four > f
	sleep 3
	kill $pid
	wait $pid
	atf_check -o inline:'one\ntwo\nthree\nfour\n' cat out
	atf_check -o empty cat err
	in_capability_mode f
	# Each new file was opened anew, by a helper, not by tail.
	[ "$(kdump -f ktr | grep -Ec 'NAMI +"f"$')" -ge 3 ] ||
	    atf_fail "f was not opened again"
}

atf_test_case capsicum_errors
capsicum_errors_head()
{
	atf_set descr "On FreeBSD, confined, an error still names the file" \
	    "and its errno, as unconfined (/rescue/tail, built without" \
	    "Casper) says it"
	atf_set timeout 60
}
capsicum_errors_body()
{
	capsicum_or_skip
	lines 10 > f
	mkdir d
	st=0
	ktraced -n 1 missing d f > out 2> err || st=$?
	[ "$st" = 1 ] || atf_fail "tail exited $st, not 1"
	in_capability_mode d f
	grep -q 'line 10' out || atf_fail "f was not shown after the errors"
	atf_check -o inline:"tail: missing: $(errno_message ENOENT)\n" \
	    head -n 1 err
	grep -q '^tail: d: ' err || atf_fail "d's error does not name d"
	rescue_prog tail
	atf_check -s exit:1 -o file:out -e file:err "$r" -n 1 missing d f
}

# data_calls: tail's own calls that move its standard input's and
# output's data, with their sizes, addresses left out.
data_calls()
{
	own_records | awk -F '[(),]' '
	    /^CALL +(read|write|pread|pwrite)\([01],/ {
		sub(/^CALL +/, "", $1); print $1, $2, $4, $5 }
	    /^CALL +lseek\([01],/ { sub(/^CALL +/, ""); print }
	    /^CALL +copy_file_range\(/ { sub(/^CALL +/, ""); print }
	    /^CALL +mmap\(/ && $6 == "0" { print "mmap", $3, $6, $7 }'
}

atf_test_case capsicum_same_buffer
capsicum_same_buffer_head()
{
	atf_set descr "On FreeBSD a tail in capability mode picks the same" \
	    "buffer and copy path as /rescue/tail, which runs unconfined:" \
	    "the same calls on its input and output, of the same sizes"
	atf_set timeout 120
}
capsicum_same_buffer_body()
{
	capsicum_or_skip
	rescue_prog tail
	lines 200000 > f
	# The path each takes by itself: the fault injector, which would
	# force one, cannot reach /rescue's static tail.
	for opts in "-n 150000" "-c +5" "-r" "-c 1000000"; do
		ktraced $opts < f > out
		in_capability_mode
		data_calls > confined
		[ -s confined ] || atf_fail "$opts: no I/O traced"
		rm -f ktr
		ktrace -f ktr "$r" $opts < f > out2
		own_records | grep -q 'cap_enter' &&
		    atf_fail "/rescue/tail entered capability mode"
		data_calls > unconfined
		cmp -s out out2 || atf_fail "$opts: not the same output"
		if ! cmp -s confined unconfined; then
			diff confined unconfined >&2
			atf_fail "$opts: not the same calls"
		fi
	done
}

# tac_prog: tail under the name tac: the installed one where the host
# has it, else a link of our own, so that the name is what is tested.
tac_prog()
{
	t=$(atf_config_get rootdir '')/usr/bin/tac
	if [ ! -x "$t" ]; then
		ln -s "$(prog)" tac
		t=$PWD/tac
	fi
}

atf_test_case tac
tac_head()
{
	atf_set descr "Run as tac, tail writes each file last line first," \
	    "one after the other, with no header: tail -qr"
}
tac_body()
{
	tac_prog
	printf '1\n2\n3' > noeol
	printf 'a\nb\n' > ab
	: > empty
	awk 'BEGIN { for (i = 1; i <= 300000; i++) print "line " i }' > big
	awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' \
	    big > big.rev
	atf_check -o inline:'32\n1\nb\na\n' "$t" noeol ab
	atf_check -o inline:'b\na\n' "$t" empty ab empty
	atf_check -o file:big.rev "$t" big
	atf_check -o file:big.rev -x "cat big | '$t'"
	# tail's options still apply; -f makes no sense with -r.
	atf_check -o inline:'line 300000\nline 299999\n' "$t" -n 2 big
	# Refused, each with tac's usage line under that name.
	for bad in "-f ab" "-F ab" "-x ab" "-n" "-n 1 -c 1" "-rf ab"; do
		# shellcheck disable=SC2086
		atf_check -s exit:1 -o empty \
		    -e match:'^usage: tac \[-qv\] \[-b # \| -c # \| -n #\] \[file \.\.\.\]$' \
		    -e not-match:'(^|: )tail' "$t" $bad
		# shellcheck disable=SC2086
		atf_check -s exit:1 -o empty -e match:'^usage: tail \[-F' \
		    "$(prog)" -r $bad
	done
	atf_check -s exit:1 -o inline:'b\na\n' \
	    -e inline:'tac: missing: No such file or directory\n' \
	    "$t" missing ab
}

atf_test_case tac_installed
tac_installed_head()
{
	atf_set descr "tac is installed as another name of tail where the" \
	    "system has one (NetBSD, Linux), not on FreeBSD"
}
tac_installed_body()
{
	t=$(atf_config_get rootdir '')/usr/bin/tac
	case $(uname -s) in
	FreeBSD)
		[ ! -e "$t" ] || atf_fail "FreeBSD has no tac(1), yet $t is"
		;;
	*)
		[ -x "$t" ] || atf_fail "no $t"
		atf_check_equal "$(stat_of 'dev ino' "$(prog)")" \
		    "$(stat_of 'dev ino' "$t")"
		;;
	esac
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case default_ten_lines
	atf_add_test_case n_option
	atf_add_test_case rescue
	atf_add_test_case c_option
	atf_add_test_case b_option
	atf_add_test_case number_forms
	atf_add_test_case bad_numbers
	atf_add_test_case historic_forms
	atf_add_test_case option_errors
	atf_add_test_case help
	atf_add_test_case progress_signal_ignored
	atf_add_test_case long_options
	atf_add_test_case headers
	atf_add_test_case missing_operand
	atf_add_test_case unreadable_operand
	atf_add_test_case directory
	atf_add_test_case dash_operand
	atf_add_test_case no_trailing_newline
	atf_add_test_case empty_file
	atf_add_test_case odd_bytes
	atf_add_test_case long_lines
	atf_add_test_case page_boundaries
	atf_add_test_case reverse
	atf_add_test_case reverse_long
	atf_add_test_case spill
	atf_add_test_case spill_bounds
	atf_add_test_case spill_no_fill
	atf_add_test_case spill_past_4g
	atf_add_test_case large_file
	atf_add_test_case terminal
	atf_add_test_case engine_paths
	atf_add_test_case stdin_offset
	atf_add_test_case dev_full
	atf_add_test_case stdout_closed
	atf_add_test_case sigpipe
	atf_add_test_case shown_bytes_read
	atf_add_test_case reverse_read_once
	atf_add_test_case tmpdir_named
	atf_add_test_case capsicum
	atf_add_test_case capsicum_follow
	atf_add_test_case capsicum_errors
	atf_add_test_case capsicum_same_buffer
	atf_add_test_case tac
	atf_add_test_case tac_installed
}
