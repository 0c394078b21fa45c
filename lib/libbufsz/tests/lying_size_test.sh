# SPDX-License-Identifier: BSD-2-Clause
#
# The end of a file whose size is not what it holds: a FUSE file system
# of the tests' own (lyingfs, beside this test) serves one file that says
# 4096 bytes and holds 1 MiB, opened with direct_io as a file system that
# streams its data would.  cat and cp, installed, must copy every byte by
# every path, as GNU's and FreeBSD's do, however the reads are cut, and a
# file that says more than it holds is copied as it is.  portable_cat is
# the engine with the rule of a host that cannot tell file systems apart.
# tail must show the end the file really has, and -f must not take the
# size for a truncation and show the file again.
#
# Needs Linux, libfuse3 at build time, /dev/fuse, and the right to mount
# (root, or fusermount3); the cases skip, saying which is missing.

lying_init()
{
	. "$(atf_get_srcdir)/../../common/portable.subr"
	ROOT=$(atf_config_get rootdir '')
	LYINGFS=$(atf_get_srcdir)/lyingfs
	if [ ! -x "$LYINGFS" ]; then
		[ "$(uname -s)" = Linux ] ||
		    atf_skip "lyingfs is built on Linux only"
		atf_skip "lyingfs was not built: libfuse3 (Debian:" \
		    "libfuse3-dev) was missing at build time"
	fi
	[ -c /dev/fuse ] ||
	    atf_skip "no /dev/fuse: FUSE is not available here"
}

# lying_mount [LYINGFS OPTIONS]: mount ./mnt afresh, ./mnt/file the file;
# ./reach says how far reads went.
lying_mount()
{
	lying_unmount
	mkdir -p mnt
	"$LYINGFS" -r "$PWD/reach" "$@" "$PWD/mnt" 2>mount.err ||
	    atf_skip "cannot mount a FUSE file system here" \
	    "(not root, no fusermount3?): $(cat mount.err)"
}

lying_unmount()
{
	[ -d mnt ] || return 0
	fusermount3 -u "$PWD/mnt" 2>/dev/null || umount "$PWD/mnt" 2>/dev/null
	return 0
}

# expect_lines N: ./expect, the first N numbered lines lyingfs serves.
expect_lines()
{
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%015d\n", i }' \
	    > expect
}

# copies_whole: cat into a file, into a pipe, and cp, by every path, and
# portable_cat, each give ./expect, with exit 0 and nothing said.
copies_whole()
{
	for _p in auto rw cfr splice sendfile; do
		path_export $_p
		rm -f out
		"$ROOT/bin/cat" mnt/file > out 2>err ||
		    atf_fail "cat into a file ($_p) failed: $(cat err)"
		[ ! -s err ] && cmp -s out expect ||
		    atf_fail "cat into a file ($_p): $(wc -c < out) bytes" \
		    "of $(wc -c < expect)"
		{ "$ROOT/bin/cat" mnt/file 2>err; echo $? > status; } |
		    cmp -s - expect ||
		    atf_fail "cat into a pipe ($_p) lost bytes"
		[ "$(cat status)" -eq 0 ] && [ ! -s err ] ||
		    atf_fail "cat into a pipe ($_p) failed: $(cat err)"
		rm -f out
		"$ROOT/bin/cp" mnt/file out 2>err ||
		    atf_fail "cp ($_p) failed: $(cat err)"
		[ ! -s err ] && cmp -s out expect ||
		    atf_fail "cp ($_p): $(wc -c < out) bytes of" \
		    "$(wc -c < expect)"
		rm -f out
		"$(atf_get_srcdir)/portable_cat" mnt/file > out 2>err &&
		    [ ! -s err ] && cmp -s out expect ||
		    atf_fail "portable_cat ($_p): $(wc -c < out) bytes of" \
		    "$(wc -c < expect): $(cat err)"
	done
	path_export auto
}

# tail_on CHECK: CHECK N, after mounting each file tail has to read
# right: one that holds more than it says (whole, then cut in short
# reads), one that says nothing, one that holds less; N lines each.
tail_on()
{
	_check=$1
	lying_init
	for _case in 65536 "65536 -c 1000" "65536 -s 0" \
	    "256 -s 1048576 -l 4096"; do
		# shellcheck disable=SC2086
		set -- $_case
		_lines=$1
		shift
		lying_mount "$@"
		expect_lines "$_lines"
		"$_check" "$_lines" "lyingfs${*:+ $*}"
	done
}

# Each CHECK N OPTIONS: tail, installed, shows what it selects of the N
# lines of ./mnt/file.
tail_bytes()
{
	_last=$(printf %015d $(($1 - 1)))
	_prev=$(printf %015d $(($1 - 2)))
	atf_check -o inline:"${_prev#????????????}\n$_last\n" \
	    "$ROOT/usr/bin/tail" -c 20 mnt/file
}

tail_lines()
{
	atf_check -o inline:"$(printf '%015d\n%015d' $(($1 - 2)) \
	    $(($1 - 1)))\n" "$ROOT/usr/bin/tail" -n 2 mnt/file
}

tail_plus()
{
	dd if=expect of=want bs=4999 skip=1 2>/dev/null
	"$ROOT/usr/bin/tail" -c +5000 mnt/file > out 2>err && [ ! -s err ] &&
	    cmp -s out want || atf_fail "tail -c +5000 ($2):" \
	    "$(wc -c < out) bytes of $(wc -c < want): $(cat err)"
}

tail_reverse()
{
	awk -v n="$1" 'BEGIN { for (i = n - 1; i >= 0; i--)
	    printf "%015d\n", i }' > want
	"$ROOT/usr/bin/tail" -r mnt/file > out 2>err && [ ! -s err ] &&
	    cmp -s out want || atf_fail "tail -r ($2): $(wc -c < out)" \
	    "bytes of $(wc -c < want): $(cat err)"
}

# -f runs until timeout ends it; its last ten lines must come once.
tail_follow()
{
	awk -v n="$1" 'BEGIN { for (i = n - 10; i < n; i++)
	    printf "%015d\n", i }' > want
	timeout 2 "$ROOT/usr/bin/tail" -f mnt/file > out 2>err
	_s=$?
	[ $_s -eq 124 ] && [ ! -s err ] ||
	    atf_fail "tail -f ($2) exited $_s before the timeout: $(cat err)"
	_n=$(grep -c "^$(printf %015d $(($1 - 1)))\$" out)
	cmp -s out want || atf_fail "tail -f ($2): $(wc -c < out) bytes," \
	    "the last line $_n times"
}

atf_test_case holds_more cleanup
holds_more_head()
{
	atf_set descr "A file that says 4096 bytes and holds 1 MiB is" \
	    "copied whole by cat into a file or pipe and by cp, every path"
}
holds_more_body()
{
	lying_init
	lying_mount
	expect_lines 65536
	copies_whole
}
holds_more_cleanup()
{
	lying_unmount
}

atf_test_case short_reads cleanup
short_reads_head()
{
	atf_set descr "The same when each read comes back short, one cut" \
	    "falling exactly on the size the file says"
}
short_reads_body()
{
	lying_init
	expect_lines 65536
	for _c in 4096 1000; do
		lying_mount -c $_c
		copies_whole
	done
}
short_reads_cleanup()
{
	lying_unmount
}

atf_test_case no_blocks cleanup
no_blocks_head()
{
	atf_set descr "A file that says it has no blocks (all hole) and" \
	    "holds more than its size: cp, which keeps holes, copies it whole"
}
no_blocks_body()
{
	lying_init
	lying_mount -H
	expect_lines 65536
	copies_whole
	rm -f out
	"$(atf_get_srcdir)/portable_cat" -s mnt/file > out &&
	    cmp -s out expect ||
	    atf_fail "portable_cat -s: $(wc -c < out) bytes of 1 MiB"
}
no_blocks_cleanup()
{
	lying_unmount
}

atf_test_case beyond_chunk cleanup
beyond_chunk_head()
{
	atf_set descr "A file that says 12 MiB and holds 16 MiB, more than" \
	    "one kernel call moves, is copied whole"
}
beyond_chunk_body()
{
	lying_init
	lying_mount -s 12582912 -l 16777216
	expect_lines 1048576
	copies_whole
}
beyond_chunk_cleanup()
{
	lying_unmount
}

atf_test_case holds_less cleanup
holds_less_head()
{
	atf_set descr "A file that says 1 MiB and holds 4096 bytes is copied" \
	    "as it is, with no error, every path"
}
holds_less_body()
{
	lying_init
	lying_mount -s 1048576 -l 4096
	expect_lines 256
	copies_whole
}
holds_less_cleanup()
{
	lying_unmount
}

atf_test_case says_nothing cleanup
says_nothing_head()
{
	atf_set descr "A file that says 0 bytes and holds 1 MiB is copied whole"
}
says_nothing_body()
{
	lying_init
	lying_mount -s 0
	expect_lines 65536
	copies_whole
}
says_nothing_cleanup()
{
	lying_unmount
}

atf_test_case error_past_size cleanup
error_past_size_head()
{
	atf_set descr "A read past the size that fails is an error, not the" \
	    "end: cat and cp copy what came before, say so and exit 1"
}
error_past_size_body()
{
	lying_init
	lying_mount -E
	expect_lines 256
	printf x > pad
	for _p in auto rw cfr splice sendfile; do
		path_export $_p
		for _prog in cat cp; do
			rm -f out
			if [ $_prog = cat ]; then
				"$ROOT/bin/cat" mnt/file > out 2>err
			else
				"$ROOT/bin/cp" mnt/file out 2>err
			fi
			_s=$?
			[ $_s -eq 1 ] ||
			    atf_fail "$_prog ($_p) exited $_s past the error"
			atf_check -o inline:"$_prog: mnt/file: $(errno_message EIO)\n" \
			    cat err
			cmp -s out expect || atf_fail "$_prog ($_p) did not" \
			    "write the $(wc -c < expect) bytes before the error"
		done
	done
	path_export auto
	# shellcheck disable=SC2046
	"$ROOT/bin/cat" mnt/file $(awk \
	    'BEGIN { for (i = 0; i < 1099; i++) print "pad" }') \
	    > /dev/null 2>err
	_s=$?
	[ $_s -eq 1 ] || atf_fail "cat into /dev/null exited $_s past the error"
	atf_check -o inline:"cat: mnt/file: $(errno_message EIO)\n" cat err
}
error_past_size_cleanup()
{
	lying_unmount
}

atf_test_case tail_bytes cleanup
tail_bytes_head()
{
	atf_set descr "tail -c 20 shows the last 20 bytes of a file" \
	    "that holds more, less or other than its size says"
}
tail_bytes_body()
{
	tail_on tail_bytes
}
tail_bytes_cleanup()
{
	lying_unmount
}

atf_test_case tail_lines cleanup
tail_lines_head()
{
	atf_set descr "tail -n 2 shows the last 2 lines of a file" \
	    "that holds more, less or other than its size says"
}
tail_lines_body()
{
	tail_on tail_lines
}
tail_lines_cleanup()
{
	lying_unmount
}

atf_test_case tail_plus cleanup
tail_plus_head()
{
	atf_set descr "tail -c +5000 shows all from byte 5000 of a file" \
	    "that holds more, less or other than its size says"
}
tail_plus_body()
{
	tail_on tail_plus
}
tail_plus_cleanup()
{
	lying_unmount
}

atf_test_case tail_reverse cleanup
tail_reverse_head()
{
	atf_set descr "tail -r shows every line, last first, of a file" \
	    "that holds more, less or other than its size says"
}
tail_reverse_body()
{
	tail_on tail_reverse
}
tail_reverse_cleanup()
{
	lying_unmount
}

atf_test_case tail_follow cleanup
tail_follow_head()
{
	atf_set descr "tail -f shows the last 10 lines of a file that holds" \
	    "more, less or other than its size says once, not at every look"
}
tail_follow_body()
{
	tail_on tail_follow
}
tail_follow_cleanup()
{
	lying_unmount
}

# Into /dev/null nothing shows the bytes; lyingfs says how far reads went.
# Up to 1024 operands cat stats each one first; more, and it copies one
# it has just opened before looking at it (bufsz_copy() with BUFSZ_UNSEEN).
atf_test_case devnull cleanup
devnull_head()
{
	atf_set descr "cat into /dev/null reads a file that holds more than" \
	    "it says to its end, with few operands and with many"
}
devnull_body()
{
	lying_init
	printf x > pad
	# Each: how far reads must go, then how lyingfs is mounted.
	for _case in 1048576 "1048576 -c 4096" \
	    "16777216 -s 12582912 -l 16777216"; do
		# shellcheck disable=SC2086
		set -- $_case
		_len=$1
		shift
		for _n in 1 1100; do
			lying_mount "$@"
			# shellcheck disable=SC2046
			"$ROOT/bin/cat" mnt/file $(awk -v n=$((_n - 1)) \
			    'BEGIN { for (i = 0; i < n; i++) print "pad" }') \
			    > /dev/null 2>err || atf_fail "cat failed: $(cat err)"
			[ "$(tr -d ' ' < reach)" = "$_len" ] ||
			    atf_fail "cat of $_n operands ($*) read to" \
			    "$(tr -d ' ' < reach) of $_len"
		done
	done
}
devnull_cleanup()
{
	lying_unmount
}

atf_init_test_cases()
{
	atf_add_test_case holds_more
	atf_add_test_case short_reads
	atf_add_test_case no_blocks
	atf_add_test_case beyond_chunk
	atf_add_test_case holds_less
	atf_add_test_case error_past_size
	atf_add_test_case says_nothing
	atf_add_test_case devnull
	atf_add_test_case tail_bytes
	atf_add_test_case tail_lines
	atf_add_test_case tail_plus
	atf_add_test_case tail_reverse
	atf_add_test_case tail_follow
}
