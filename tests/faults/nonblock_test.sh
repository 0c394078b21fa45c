# SPDX-License-Identifier: BSD-2-Clause
#
# A caller may hand cat and yes a descriptor with O_NONBLOCK set (a
# shared pipe, a terminal some other program made non-blocking).  EAGAIN
# is then no error: it must be waited out with poll(2), neither reported
# nor spun on.  libfaultinj sets the flag before main() runs
# (FAULTINJ_NONBLOCK), which is what the program would have inherited,
# and counts the EAGAINs the kernel returned.  The other end of the pipe
# stays away until the program has met EAGAIN (the log says so) or two
# seconds have passed, and a little longer, while a program that spins
# would pile up EAGAINs; then it reads or writes as fast as it can.
#
# Not spinning, without timing anything: a writer that polls meets
# EAGAIN at most once per successful call (poll returns only when there
# is room), so its EAGAINs are at most half its calls, plus one.  A
# writer that spins while the reader sleeps makes tens of thousands.
#

nb_init()
{
	. "$(atf_get_srcdir)/faults_lib.sh"
	fi_init
	rm -f log
	# 1 MiB: sixteen pipefuls.
	awk 'BEGIN { for (i = 0; i < 65536; i++) printf "%015d\n", i }' > big
}

# nb_env VAR=value...: the environment a run gets.
nb_env()
{
	echo "LD_PRELOAD=$FI_LIB${LD_PRELOAD:+:$LD_PRELOAD}" \
	    "ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    "FAULTINJ_LOG=$PWD/log" "$@"
}

# nb_wait: until the program under test has met EAGAIN, or 2 s; then
# 0.3 s more.
nb_wait()
{
	_i=0
	while [ "$_i" -lt 20 ]; do
		[ "$(awk '$1 ~ /\.eagain$/ { n += $2 } END { print n + 0 }' \
		    log 2>/dev/null)" -gt 0 ] && break
		sleep 0.1
		_i=$((_i + 1))
	done
	sleep 0.3
}

# nb_no_spin FUNC...: EAGAIN was met (unless NB_MAYBLOCK is set), and
# waited out rather than spun on.
nb_no_spin()
{
	_total=0
	for _f in "$@"; do
		_e=$(fi_count "$_f" eagain)
		_c=$(fi_count "$_f" calls)
		_total=$((_total + _e))
		[ $((2 * _e)) -le $((_c + 1)) ] ||
		    atf_fail "$_f: $_e EAGAINs in $_c calls: spinning, not polling"
	done
	# Without this the case would pass without testing anything.
	[ "$_total" -ge 1 ] || [ -n "$NB_MAYBLOCK" ] ||
	    atf_fail "never met EAGAIN: the descriptor was not non-blocking?"
}

nb_stdout()
{
	nb_init
	# shellcheck disable=SC2046
	{
		env $(nb_env FAULTINJ_PATH="$1" FAULTINJ_NONBLOCK=1) \
		    "$(atf_config_get rootdir '')/bin/cat" $2 big 2>err
		echo $? > status
	} | { nb_wait; dd of=out bs=65536 2>/dev/null; }
	read -r st < status
	[ "$st" -eq 0 ] || { cat err >&2; atf_fail "cat exited $st"; }
	[ ! -s err ] || { cat err >&2; atf_fail "cat reported an error"; }
	if [ -n "$2" ]; then
		awk '{ printf "%6d\t%s\n", NR, $0 }' big > expect
		cmp -s out expect || atf_fail "the output differs"
	else
		cmp -s out big || atf_fail "the output differs"
	fi
	nb_no_spin write splice sendfile
}

atf_test_case stdout_rw
stdout_rw_head()
{
	atf_set descr "cat to a non-blocking pipe on the read/write path"
}
stdout_rw_body()
{
	nb_stdout rw
}

atf_test_case stdout_splice
stdout_splice_head()
{
	atf_set descr "cat to a non-blocking pipe on the splice path"
}
stdout_splice_body()
{
	nb_stdout splice
}

atf_test_case stdout_sendfile
stdout_sendfile_head()
{
	atf_set descr "cat to a non-blocking pipe on the sendfile path"
}
stdout_sendfile_body()
{
	nb_stdout sendfile
}

atf_test_case stdout_auto
stdout_auto_head()
{
	atf_set descr "cat to a non-blocking pipe on the path the engine chooses"
}
stdout_auto_body()
{
	nb_stdout auto
}

atf_test_case stdout_cooked
stdout_cooked_head()
{
	atf_set descr "cat -n (its own output loop) to a non-blocking pipe"
}
stdout_cooked_body()
{
	nb_stdout rw -n
}

nb_stdin()
{
	nb_init
	# shellcheck disable=SC2046
	{ nb_wait; dd if=big bs=65536 2>/dev/null; } | {
		env $(nb_env FAULTINJ_PATH="$1" FAULTINJ_NONBLOCK=0) \
		    "$(atf_config_get rootdir '')/bin/cat" $2 > out 2>err
		echo $? > status
	}
	read -r st < status
	[ "$st" -eq 0 ] || { cat err >&2; atf_fail "cat exited $st"; }
	[ ! -s err ] || { cat err >&2; atf_fail "cat reported an error"; }
	if [ -n "$2" ]; then
		awk '{ printf "%6d\t%s\n", NR, $0 }' big > expect
		cmp -s out expect || atf_fail "the output differs"
	else
		cmp -s out big || atf_fail "the output differs"
	fi
	nb_no_spin read splice
}

atf_test_case stdin_rw
stdin_rw_head()
{
	atf_set descr "cat from a non-blocking pipe on the read/write path"
}
stdin_rw_body()
{
	nb_stdin rw
}

atf_test_case stdin_splice
stdin_splice_head()
{
	atf_set descr "cat from a non-blocking pipe on the splice path"
}
stdin_splice_body()
{
	nb_stdin splice
}

atf_test_case stdin_cooked
stdin_cooked_head()
{
	atf_set descr "cat -n from a non-blocking pipe"
}
stdin_cooked_body()
{
	nb_stdin rw -n
}

nb_yes()
{
	nb_init
	awk 'BEGIN { for (i = 0; i < 524288; i++) print "y" }' > expect
	# shellcheck disable=SC2046
	{
		env $(nb_env FAULTINJ_PATH="$1" FAULTINJ_NONBLOCK=1) \
		    "$(atf_config_get rootdir '')/usr/bin/yes" 2>err
		echo $? > status
	} | { nb_wait; head -c 1048576 > out; }
	read -r st < status
	[ "$(kill -l "$st" 2>/dev/null)" = PIPE ] ||
	    { cat err >&2; atf_fail "yes ended with status $st, not SIGPIPE"; }
	[ ! -s err ] || { cat err >&2; atf_fail "yes reported an error"; }
	cmp -s out expect || atf_fail "the output differs"
	nb_no_spin write vmsplice
}

atf_test_case yes_rw
yes_rw_head()
{
	atf_set descr "yes to a non-blocking pipe with write(2)"
}
yes_rw_body()
{
	nb_yes rw
}

atf_test_case yes_splice
yes_splice_head()
{
	atf_set descr "yes to a non-blocking pipe with vmsplice(2) forced"
}
yes_splice_body()
{
	# Linux's vmsplice(2) waits for room in a full pipe whatever its
	# O_NONBLOCK says (seen on 6.x), so EAGAIN may never come; what is
	# checked is that none was reported or spun on.
	NB_MAYBLOCK=1
	nb_yes splice
}

atf_init_test_cases()
{
	atf_add_test_case stdout_rw
	atf_add_test_case stdout_splice
	atf_add_test_case stdout_sendfile
	atf_add_test_case stdout_auto
	atf_add_test_case stdout_cooked
	atf_add_test_case stdin_rw
	atf_add_test_case stdin_splice
	atf_add_test_case stdin_cooked
	atf_add_test_case yes_rw
	atf_add_test_case yes_splice
}
