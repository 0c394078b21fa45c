# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for yes(1) of what only Linux has: a memory cgroup, vmsplice(2),
# Landlock.  Installed on Linux alone (MK_LINUX_TESTS).
#

# path_env, need_faultinj, need_landlock, expect_bytes: the suites' shared
# functions; prog, landlock_trace, first_write: yes's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/yes.subr"

# small_cgroup NAME: make a cgroup limited to 64 MiB, print the file that
# takes a process into it; fail (status 1) where this host does not let us.
small_cgroup()
{
	[ "$(id -u)" = 0 ] || return 1
	if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		_cg=/sys/fs/cgroup/$1
		_lim=memory.max
	elif [ -d /sys/fs/cgroup/memory ]; then
		_cg=/sys/fs/cgroup/memory/$1
		_lim=memory.limit_in_bytes
	else
		return 1
	fi
	mkdir "$_cg" 2>/dev/null || return 1
	if ! echo 67108864 > "$_cg/$_lim"; then
		rmdir "$_cg"
		return 1
	fi
	echo "$_cg/cgroup.procs"
}

# traced PATH: the names of the calls yes makes on stdout, a pipe, with
# PATH forced (path_env), each once, in calls.
traced()
{
	strace -o trace -e trace=vmsplice,write $(path_env $1) \
	    "$(prog)" | head -c 1000000 > /dev/null
	sed -n -e 's/^vmsplice(1,.*/vmsplice/p' -e 's/^write(1,.*/write/p' \
	    trace | sort -u > calls
}

atf_test_case huge_size_in_cgroup cleanup
huge_size_in_cgroup_head()
{
	atf_set descr "yes in a 64 MiB cgroup lives"
	atf_set require.user root
}
huge_size_in_cgroup_body()
{
	procs=$(small_cgroup "yes_test.$$") ||
	    atf_skip "cannot make a memory cgroup here"
	echo "${procs%/*}" > cgdir
	atf_check -o inline:'10000000\n' -x "sh -c 'echo \$\$ > $procs &&
	    exec $(prog)' |
	    head -c 10000000 | wc -c | tr -d ' '"
}
huge_size_in_cgroup_cleanup()
{
	[ -f cgdir ] && rmdir "$(cat cgdir)" 2>/dev/null
	true
}

# Which system calls each path makes, so that a test of "both paths"
# cannot quietly test one twice.
atf_test_case paths_taken
paths_taken_head()
{
	atf_set descr "On a pipe, auto and splice use vmsplice(2) alone," \
	    "rw write(2) alone; elsewhere write(2) takes over"
	atf_set require.progs strace
}
paths_taken_body()
{
	need_faultinj
	traced auto
	atf_check -o inline:"vmsplice\n" cat calls
	traced splice
	atf_check -o inline:"vmsplice\n" cat calls
	traced rw
	atf_check -o inline:"write\n" cat calls

	# Not a pipe: vmsplice is refused and write(2) takes over.
	strace -o trace -e trace=write $(path_env splice) \
	    "$(prog)" > /dev/full 2> /dev/null
	atf_check -o match:"^write\\(1, .*ENOSPC" cat trace
}

atf_test_case sandbox_refused
sandbox_refused_head()
{
	atf_set descr "Where the kernel refuses Landlock, yes runs as it" \
	    "would confined: the same bytes, written from a buffer of" \
	    "the same size"
	atf_set timeout 60
}
sandbox_refused_body()
{
	need_faultinj
	need_landlock "$(prog)"
	command -v strace > /dev/null || atf_skip "no strace"
	landlock_trace
	grep -q '^landlock_restrict_self(.*= 0$' trace ||
	    atf_fail "yes is not confined where the kernel allows it"
	confined=$(first_write)
	landlock_trace in_landlock_layers
	grep -q '^landlock_restrict_self(.*= -1 E2BIG' trace ||
	    atf_fail "the kernel did not refuse a 17th Landlock layer"
	atf_check_equal "$confined" "$(first_write)"
	[ "$confined" -ge 4096 ] || atf_fail "a write of $confined bytes"
}

atf_init_test_cases()
{
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case huge_size_in_cgroup
	atf_add_test_case paths_taken
	atf_add_test_case sandbox_refused
}
