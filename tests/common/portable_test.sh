# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for portable.subr, on this host's stat(1) and touch(1); where
# stat(1) is GNU's, portable_linux_test tries the BSD branch too.
#

# portable, files, check_files: the two suites' shared functions.
. "$(atf_get_srcdir)/portable_files.subr"

atf_test_case stat_host
stat_host_head()
{
	atf_set descr "stat_of and touch_at on this host's stat(1), touch(1)"
}
stat_host_body()
{
	portable
	files
	check_files
	if [ -c /dev/null ]; then
		stat_of rdev /dev/null | grep -Eq '^[0-9]+,[0-9]+$' ||
		    atf_fail "rdev of /dev/null: $(stat_of rdev /dev/null)"
		atf_check_equal char "$(stat_of type /dev/null)"
	fi
}

atf_test_case sparse
sparse_head()
{
	atf_set descr "sparse_file grows and cuts a file without writing it"
}
sparse_body()
{
	portable
	printf 'abcdef' > f
	sparse_file f 4
	atf_check -o inline:"abcd" cat f
	sparse_file f 2K
	atf_check_equal 2048 "$(stat_of size f)"
	atf_check -o inline:"abcd" head -c 4 f
	sparse_file big 1G
	atf_check_equal 1073741824 "$(stat_of size big)"
	# A hole, where the file system keeps holes: far fewer than 1 GiB of
	# blocks.
	[ "$(stat_of blocks big)" -lt 1024 ] ||
	    atf_skip "this file system keeps no holes"
}

# tries_then N: fails until its Nth call, counted in ./tries.
tries_then()
{
	echo x >> tries
	[ "$(wc -l < tries)" -ge "$1" ]
}

atf_test_case wait_until_done
wait_until_done_head()
{
	atf_set descr "wait_until runs a command, arguments whole, until it" \
	    "succeeds, and no more"
}
wait_until_done_body()
{
	portable
	wait_until tries_then 3 || atf_fail "wait_until gave up"
	atf_check_equal 3 "$(wc -l < tries)"
	wait_until test -d "a b" &
	mkdir "a b"
	wait $! || atf_fail "wait_until did not see a b"
}

atf_test_case wait_until_gives_up
wait_until_gives_up_head()
{
	atf_set descr "wait_until returns 1 after its 300 tries"
}
wait_until_gives_up_body()
{
	portable
	# Tries without the pause between them: the count is what matters.
	sleep() { :; }
	wait_until tries_then 1000 && atf_fail "wait_until succeeded"
	atf_check_equal 300 "$(wc -l < tries)"
}

atf_init_test_cases()
{
	atf_add_test_case stat_host
	atf_add_test_case sparse
	atf_add_test_case wait_until_done
	atf_add_test_case wait_until_gives_up
}
