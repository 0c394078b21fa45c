# SPDX-License-Identifier: BSD-2-Clause
#
# The copy engine under libfaultinj where Linux's rule of which file
# systems keep sizes differs from the portable one, and where libfaultinj
# sees the fstatfs(2) that asks it: Linux alone (MK_LINUX_TESTS).
#

# eng_init: the engine fault suites' shared setup.
. "$(atf_get_srcdir)/engine_faults.subr"

# A short count that brings a copy to the size its source had ends it only
# on a file system the host knows to keep sizes; the rule of a host that
# knows none (portable_cat: the engine with a rule that knows no file system) reads on,
# and so copies what the source gained right after that count, which a
# FUSE or NFS file may hold all along.  The host's own rule (cat) stops
# there where the work directory is on a file system it knows.
atf_test_case end_read
end_read_head()
{
	atf_set descr "Without a file system known to keep sizes, the end" \
	    "of a copy is a read of 0, on every path that could stop short"
}
end_read_body()
{
	eng_init
	case $(stat -f -c %T .) in
	ext2/ext3|xfs|btrfs|tmpfs|ramfs|f2fs|zfs)
		_kept=1 ;;
	*)
		_kept= ;;
	esac
	for _p in auto:copy_file_range rw:read sendfile:sendfile; do
		for _prog in "$(atf_get_srcdir)/../portable_cat" \
		    "$ROOT/bin/cat"; do
			rm -f src
			printf '%04095d\n' 0 > src
			cp src before
			FI_ENV="FAULTINJ_FILE=$PWD/src FAULTINJ_PATH=${_p%%:*}"
			fi_spec=${_p#*:}:1:grow=5000
			fi_cmd="$_prog src"
			fi_run "$fi_spec" "$_prog" src
			if [ "$fi_status" -ne 0 ] || [ -s err ]; then
				fi_bad "a grown source is no error"
			elif [ "$_prog" = "$ROOT/bin/cat" ]; then
				[ -z "$_kept" ] || cmp -s out before ||
				    fi_bad "the host's rule read on"
			elif ! cmp -s out src; then
				fi_bad "the end was not read: $(wc -c < out)" \
				    "bytes of $(wc -c < src)"
			fi
		done
	done
	fi_finish
}

atf_test_case fstatfs_once
fstatfs_once_head()
{
	atf_set descr "Whether a file system keeps sizes is asked once for" \
	    "all the files on it, and a failure to ask only costs a read"
}
fstatfs_once_body()
{
	eng_init
	fi_small_files 30
	# Over 1024 operands, so that cat's sandbox, which asks fstatfs of
	# the operands' directories, is not entered: the count is the
	# engine's alone.
	set --
	_i=0
	while [ $_i -lt 37 ]; do
		set -- "$@" small*
		_i=$((_i + 1))
	done
	cat "$@" > expect
	for _path in auto rw sendfile splice; do
		FI_ENV="FAULTINJ_PATH=$_path"
		fi_run "" "$ROOT/bin/cat" "$@"
		[ "$fi_status" -eq 0 ] && cmp -s out expect ||
		    atf_fail "cat of 30 files failed ($_path)"
		[ "$(fi_count fstatfs)" -eq 1 ] ||
		    atf_fail "fstatfs called $(fi_count fstatfs) times for" \
		    "1110 operands on one file system ($_path)"
		fi_run "fstatfs:1:EIO" "$ROOT/bin/cat" "$@"
		[ "$fi_status" -eq 0 ] && [ ! -s err ] && cmp -s out expect ||
		    atf_fail "a failed fstatfs made cat fail ($_path)"
	done
}

atf_init_test_cases()
{
	atf_add_test_case end_read
	atf_add_test_case fstatfs_once
}
