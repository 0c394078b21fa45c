# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for yes(1).  The expected output is always built by awk or paste,
# never by yes itself.
#

# path_env, need_faultinj, info_signal, expect_bytes: the suites' shared
# functions; prog, landlock_trace, first_write: yes's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/yes.subr"

# lines COUNT LINE: COUNT copies of LINE, each with a newline.
lines()
{
	awk -v n="$1" -v line="$2" \
	    'BEGIN { for (i = 0; i < n; i++) print line }'
}

# words COUNT SIZE: COUNT distinct words of SIZE bytes, one a line.  Each
# word numbers its own pieces, so that a misplaced piece is a difference.
words()
{
	awk -v count="$1" -v size="$2" 'BEGIN {
		for (w = 1; w <= count; w++) {
			s = ""
			for (i = 0; length(s) < size; i++)
				s = s w "." i ","
			print substr(s, 1, size)
		}
	}'
}

# each_path BODY...: run the rest of the command line once per path that
# can be forced (path_export).
each_path()
{
	for path in auto rw splice; do
		path_export $path
		"$@"
	done
	path_export auto
}

# first BYTES [OPERAND ...]: the first BYTES bytes yes prints, in out.
# Counting bytes, not lines, keeps a yes that never ends a line from
# hanging the test.
first()
{
	bytes=$1
	shift
	"$(prog)" "$@" | head -c "$bytes" > out
}

atf_test_case default
default_head()
{
	atf_set descr "Without operands, yes prints y"
}
default_body()
{
	first 6
	atf_check -o inline:"y\ny\ny\n" cat out
}

atf_test_case operands
operands_head()
{
	atf_set descr "Operands are joined by single spaces"
}
operands_body()
{
	first 18 a 'b ' c d
	atf_check -o inline:"a b  c d\na b  c d\n" cat out
	first 10 word
	atf_check -o inline:"word\nword\n" cat out
}

atf_test_case no_options
no_options_head()
{
	atf_set descr "Like the BSD yes, options and -- are plain operands"
}
no_options_body()
{
	first 6 --
	atf_check -o inline:"--\n--\n" cat out
	first 6 -x
	atf_check -o inline:"-x\n-x\n" cat out
	first 16 -- -n y
	atf_check -o inline:"-- -n y\n-- -n y\n" cat out
}

atf_test_case empty_operand
empty_operand_head()
{
	atf_set descr "An empty operand makes empty lines"
}
empty_operand_body()
{
	first 3 ''
	atf_check -o inline:"\n\n\n" cat out
	first 4 '' ''
	atf_check -o inline:" \n \n" cat out
}

ten_mb()
{
	"$(prog)" a b | head -c 10000000 > out || atf_fail "yes | head failed"
	atf_check cmp expected out
}

atf_test_case ten_megabytes
ten_megabytes_head()
{
	atf_set descr "The first 10 MB are exact, on every output path"
	atf_set timeout 300
}
ten_megabytes_body()
{
	expect_bytes 10000000 "a b" > expected
	atf_check -o inline:"10000000\n" -x "wc -c < expected | tr -d ' '"
	each_path ten_mb
}

long_line_once()
{
	"$(prog)" "$@" | head -c "$(($(wc -c < line) * 3))" > out
	atf_check cmp expected out
}

atf_test_case long_line
long_line_head()
{
	atf_set descr "A line of 1 MiB, longer than any buffer, comes out" \
	    "whole"
	atf_set timeout 300
}
long_line_body()
{
	# 16 operands of 64 KiB: Linux limits a single operand to 128 KiB.
	# Where ARG_MAX is smaller, the line shrinks to fit it.
	size=65535
	argmax=$(getconf ARG_MAX)
	if [ "$argmax" -lt $((4 * 16 * (size + 1))) ]; then
		size=$((argmax / 64 - 1))
	fi
	words 16 "$size" > words
	paste -s -d ' ' words > line
	cat line line line > expected
	# The words hold no blanks, so word splitting gives one per line.
	each_path long_line_once $(cat words)
}

# Lines around a forced buffer of one page: a line that divides it, one
# that fills it, one a byte too long, one that leaves a remainder.
boundary_once()
{
	$(bufsize_env 4096) "$(prog)" "$line" | head -c 40000 > out
	atf_check cmp expected out
}

atf_test_case buffer_boundaries
buffer_boundaries_head()
{
	atf_set descr "Lines that fit, fill or overflow the buffer are exact"
}
buffer_boundaries_body()
{
	need_faultinj
	for len in 1 511 3000 4095 4096 4097 9000; do
		line=$(words 1 "$len")
		expect_bytes 40000 "$line" > expected
		each_path boundary_once
	done
}

dev_full_once()
{
	atf_check -s exit:1 -o empty \
	    -e inline:"yes: stdout: No space left on device\n" \
	    -x "\"$(prog)\" > /dev/full"
}

atf_test_case dev_full
dev_full_head()
{
	atf_set descr "A failed write is reported and yes exits 1"
	atf_set require.files /dev/full
}
dev_full_body()
{
	each_path dev_full_once
}

sigpipe_once()
{
	( "$(prog)" 2> err; echo $? > status ) | head -c 2 > out
	atf_check -o inline:"141\n" cat status
	atf_check -o inline:"y\n" cat out
	atf_check -o empty cat err
}

atf_test_case sigpipe
sigpipe_head()
{
	atf_set descr "A reader that leaves ends yes by SIGPIPE, silently"
}
sigpipe_body()
{
	each_path sigpipe_once
}

atf_test_case help_operand
help_operand_head()
{
	atf_set descr "--help is an operand, printed over and over, as by" \
	    "FreeBSD's yes"
}
help_operand_body()
{
	first 14 --help
	atf_check -o inline:"--help\n--help\n" cat out
	first 16 --help -x
	atf_check -o inline:"--help -x\n--help" cat out
}

atf_test_case progress_signal_ignored
progress_signal_ignored_head()
{
	atf_set descr "SIGINFO, or SIGUSR1 where there is none, meant for a" \
	    "copier in the pipeline, is ignored: yes goes on"
}
progress_signal_ignored_body()
{
	need_signal_view "$(prog)"
	sig=$(info_signal)
	mkfifo fifo
	"$(prog)" > fifo 2> err &
	pid=$!
	exec 3< fifo
	signal_set $pid $sig
	# The pipe is full: yes waits in a write, or lends pages.
	kill -$sig $pid
	kill -$sig $pid
	head -c 1000000 <&3 > out
	exec 3<&-
	wait $pid
	# Ended by SIGPIPE when the reader left, not by the signal.
	atf_check_equal 141 $?
	expect_bytes 1000000 y > exp
	atf_check cmp exp out
	atf_check -o empty cat err
}

atf_test_case no_environment
no_environment_head()
{
	atf_set descr "No setting in the environment changes how yes writes:" \
	    "the installed program names none"
}
no_environment_body()
{
	atf_check -o inline:'y\ny\ny\n' \
	    -x "env BUFSZ_PATH=bogus BUFSZ_SIZE=-1 $(prog) | head -n 3"
	atf_check -s exit:1 -o inline:'0\n' grep -c BUFSZ_ "$(prog)"
}

atf_test_case small_machine
small_machine_head()
{
	atf_set descr "On a 64 MiB machine yes writes no more than memory" \
	    "allows a buffer"
}
small_machine_body()
{
	need_faultinj
	# 64 MiB as libfaultinj tells it; its log has the largest write.
	$(path_env rw) FAULTINJ_PHYSMEM=67108864 FAULTINJ_LOG=$PWD/log \
	    "$(prog)" | head -c 1000000 > out
	atf_check -o inline:'1000000\n' -x 'wc -c < out | tr -d " "'
	max=$(awk '$1 == "write.max" { print $2 }' log)
	[ -n "$max" ] && [ "$max" -gt 0 ] || atf_fail "no write seen"
	[ "$max" -le 131072 ] ||
	    atf_fail "a write of $max bytes on a 64 MiB machine"
}

# ktrace_calls: the system calls of a ktrace(1) of yes, in ktr, one a
# line, each with its result where kdump shows it: "cap_enter 0".
ktrace_calls()
{
	kdump -f ktr | awk '
		$3 == "CALL" { sub(/\(.*/, "", $4); print $4 }
		$3 == "RET" && $4 == "cap_enter" { print "cap_enter " $5 }'
}

atf_test_case confined
confined_head()
{
	atf_set descr "Once its output is built, yes is confined: in a" \
	    "Landlock domain that allows no file on Linux, in capability" \
	    "mode on FreeBSD; the machine is probed before, nothing" \
	    "opened by name after"
	atf_set timeout 60
}
confined_body()
{
	need_faultinj
	case $(uname -s) in
	Linux)
		need_landlock "$(prog)"
		command -v strace > /dev/null || atf_skip "no strace"
		landlock_trace
		# Confined before the first write, probed before that, and
		# nothing looked up by name after.
		atf_check -o inline:'landlock_restrict_self = 0\n' -x "awk '
			/^landlock_restrict_self\\(/ {
				print \"landlock_restrict_self = \" \$NF; on = 1 }
			!on && /^write\\(1,/ { print \"written before\" }
			on && /^(open|openat|openat2|creat|stat|statx|access|faccessat|readlink|sysinfo)\\(/ {
				print \"after: \" \$0 }' trace"
		grep -q '^sysinfo(' trace ||
		    atf_fail "no sysinfo(2): where did the memory come from?"
		# The process itself says so while it runs.
		mkfifo fifo
		"$(prog)" > fifo &
		pid=$!
		exec 3< fifo
		head -n 1 <&3 > /dev/null
		grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$pid/status ||
		    atf_fail "yes runs without no_new_privs: not confined"
		exec 3<&-
		wait $pid
		atf_check_equal 141 $?
		;;
	FreeBSD)
		command -v ktrace > /dev/null || atf_skip "no ktrace"
		ktrace -f ktr "$(prog)" | head -c 1000000 > out
		[ -s ktr ] || atf_skip "no ktrace(2): a kernel without KTRACE"
		expect_bytes 1000000 y > exp
		atf_check cmp exp out
		# In capability mode before the first write; every sysctl
		# (hw.physmem, the page size) before it, no open after it.
		ktrace_calls > calls
		atf_check -o inline:'cap_enter 0\n' -x "awk '
			/^cap_enter / { print; on = 1; next }
			!on && /^write\$/ { print \"written before\" }
			on && /sysctl|^open|^openat\$|^fstatat\$/ {
				print \"after: \" \$0 }' calls"
		grep -q sysctl calls ||
		    atf_fail "no sysctl: where did the memory come from?"
		;;
	*)
		atf_skip "yes has no sandbox on $(uname -s)"
		;;
	esac
}

atf_test_case fb_pipe_writes
fb_pipe_writes_head()
{
	atf_set descr "On FreeBSD, yes writes whole lines into a pipe, the" \
	    "policy's 64 KiB at a time, past kern.ipc.pipe_mindirect"
	atf_set timeout 60
}
fb_pipe_writes_body()
{
	[ "$(uname -s)" = FreeBSD ] ||
	    atf_skip "FreeBSD's pipe write size, not $(uname -s)'s"
	command -v ktrace > /dev/null || atf_skip "no ktrace"
	# 8-byte lines: 8192 of them fill 64 KiB.
	ktrace -f ktr "$(prog)" abcdefg | head -c 1000000 > out
	[ -s ktr ] || atf_skip "no ktrace(2): a kernel without KTRACE"
	expect_bytes 1000000 abcdefg > exp
	atf_check cmp exp out
	# The last write may be cut short as head(1) leaves.
	kdump -f ktr | awk '$3 == "RET" && $4 == "write" {
		sub(/\/.*/, "", $5); if ($5 > 0) w[n++] = $5 }
	    END { for (i = 0; i < n - 1; i++) print w[i] }' | sort -u > sizes
	atf_check -o inline:"65536\n" cat sizes
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case default
	atf_add_test_case operands
	atf_add_test_case no_options
	atf_add_test_case empty_operand
	atf_add_test_case ten_megabytes
	atf_add_test_case long_line
	atf_add_test_case buffer_boundaries
	atf_add_test_case dev_full
	atf_add_test_case sigpipe
	atf_add_test_case help_operand
	atf_add_test_case progress_signal_ignored
	atf_add_test_case no_environment
	atf_add_test_case small_machine
	atf_add_test_case confined
	atf_add_test_case fb_pipe_writes
}
