# SPDX-License-Identifier: BSD-2-Clause
#
# The copy engine, through cat and cp, with its source changed under it:
# truncated or grown right after the first call of each path has looked
# at it.  libfaultinj does the change (FAULTINJ_FILE).
#
# Truncated: an error naming the source, or a copy that is the source as
# it was, cut somewhere not before its new end; never a signal, never
# bytes the file did not hold.
# Grown: a whole copy of the file as it was or as it became: growth that
# follows the call that brought the copy to the size the source had when
# it was opened comes after the copy, as if the copy had ended before it
# (the engine spends no call to read a 0 there); any other growth is
# copied (every path reads on).
#
# Then the policy as the whole program applies it, on a machine that
# libfaultinj says has 64 MiB or 1 TiB of memory, or larger pages.
#

# eng_init: the engine fault suites' shared setup.
. "$(atf_get_srcdir)/engine_faults.subr"

# eng_run PROG PATH SPEC: copy a fresh src under SPEC; ./copy is the
# result, $fi_status its status.
eng_run()
{
	rm -f src copy
	dd if=orig of=src bs=65536 2>/dev/null || atf_fail "cannot make the source"
	FI_ENV="FAULTINJ_FILE=$PWD/src FAULTINJ_PATH=$2"
	fi_spec=$3
	case $1 in
	cat)
		fi_cmd="cat src"
		fi_run "$3" "$ROOT/bin/cat" src
		mv out copy ;;
	cp)
		fi_cmd="cp src copy"
		fi_run "$3" "$ROOT/bin/cp" src copy ;;
	esac
}

eng_truncated()
{
	eng_run "$@"
	if [ "$fi_status" -gt 128 ]; then
		fi_bad "died of signal $((fi_status - 128))"
	elif [ "$fi_status" -eq 1 ]; then
		grep -Eqx "$1: src: .+" err && [ "$(wc -l < err)" -eq 1 ] ||
		    fi_bad "not one err(3) message naming src"
	elif [ "$fi_status" -ne 0 ] || [ -s err ]; then
		fi_bad "exit status $fi_status"
	elif ! fi_is_prefix copy orig; then
		fi_bad "exit 0, but the copy holds what the source never did"
	elif [ "$(wc -c < copy)" -lt "$(wc -c < src)" ]; then
		fi_bad "exit 0, but the copy is shorter than the source"
	fi
}

eng_grown()
{
	eng_run "$@"
	if [ "$fi_status" -ne 0 ] || [ -s err ]; then
		fi_bad "a grown source is no error"
	elif ! cmp -s copy src && ! cmp -s copy orig; then
		fi_bad "the copy is neither the source as it was nor as it became"
	fi
}

# eng_grown_mid PROG PATH SPEC: a source of 12 MiB, more than one call of
# any path moves, changed as SPEC says (grown after the first call, that
# call cut short where it can be): the copy must be the whole grown source,
# since no call before the growth had reached the source's size.
eng_grown_mid()
{
	rm -f src copy
	for _k in 1 2 3 4 5 6 7 8 9 10 11 12; do
		cat orig
	done > src
	FI_ENV="FAULTINJ_FILE=$PWD/src FAULTINJ_PATH=$2"
	fi_spec=$3
	case $1 in
	cat)
		fi_cmd="cat src"
		fi_run "$fi_spec" "$ROOT/bin/cat" src
		mv out copy ;;
	cp)
		fi_cmd="cp src copy"
		fi_run "$fi_spec" "$ROOT/bin/cp" src copy ;;
	esac
	if [ "$fi_status" -ne 0 ] || [ -s err ]; then
		fi_bad "a grown source is no error"
	elif ! cmp -s copy src; then
		fi_bad "growth in the middle of the copy was not copied"
	fi
}

# eng_path PATH FUNC: every change, to cat and to cp, after the first
# call of FUNC, and (SHORT=1) with that call cut short, so that the
# change falls in the middle of the copy.
eng_path()
{
	eng_init
	for _p in cat cp; do
		for _sz in 0 100 5000 524288; do
			eng_truncated "$_p" "$1" "$2:1:truncate=$_sz"
			[ -z "$SHORT" ] || eng_truncated "$_p" "$1" \
			    "$2:1:truncate=$_sz,$2:1:short"
		done
		eng_grown "$_p" "$1" "$2:1:grow=5000"
		[ -z "$SHORT" ] || eng_grown "$_p" "$1" "$2:1:grow=5000,$2:1:short"
		eng_grown_mid "$_p" "$1" "$2:1:grow=5000${SHORT:+,$2:1:short}"
	done
	fi_finish
}

atf_test_case rw_changed
rw_changed_head()
{
	atf_set descr "The source truncated or grown between two reads"
}
rw_changed_body()
{
	SHORT=1 eng_path rw read
}

atf_test_case cfr_changed
cfr_changed_head()
{
	atf_set descr "The source truncated or grown between two" \
	    "copy_file_range calls"
}
cfr_changed_body()
{
	SHORT=1 eng_path cfr copy_file_range
}

atf_test_case splice_changed
splice_changed_head()
{
	atf_set descr "The source truncated or grown between two splices"
}
splice_changed_body()
{
	SHORT=1 eng_path splice splice
}

atf_test_case sendfile_changed
sendfile_changed_head()
{
	atf_set descr "The source truncated or grown between two sendfiles"
}
sendfile_changed_body()
{
	SHORT=1 eng_path sendfile sendfile
}

# The policy, through the program.  The sizes are those of libbufsz's
# policy (BUFSZ_SMALL, BUFSZ_LARGE and BUFSZ_LARGE_MINMEM in policy.c):
# change them together.
SMALL=131072
LARGE=1048576
LARGE_MINMEM=536870912

# The least cgroup v2 memory.max above this process, or nothing: the
# probe believes it before sysconf, so a limited CI container is a small
# machine whatever libfaultinj says.
cgroup_limit()
{
	_rel=$(sed -n 's/^0:://p' /proc/self/cgroup 2>/dev/null)
	[ -n "$_rel" ] || return 0
	_least=
	while :; do
		_m=
		{ read -r _m < "/sys/fs/cgroup$_rel/memory.max"; } 2>/dev/null
		case $_m in
		''|max) ;;
		*) [ -z "$_least" ] || [ "$_m" -lt "$_least" ] && _least=$_m ;;
		esac
		[ "$_rel" = / ] || [ -z "$_rel" ] && break
		_rel=${_rel%/*}
		[ -n "$_rel" ] || _rel=/
	done
	echo "$_least"
}

# pol_run PROG PHYSMEM: copy a 9 MiB file (larger than the large buffer
# has ever been) with read/write on a machine of PHYSMEM bytes; prints
# the largest read.
pol_run()
{
	awk 'BEGIN { for (i = 0; i < 589824; i++) printf "%015d\n", i }' \
	    > nine
	rm -f copy
	FI_ENV="FAULTINJ_PHYSMEM=$2 FAULTINJ_PATH=rw"
	case $1 in
	cat)	fi_run "" "$ROOT/bin/cat" nine; mv out copy ;;
	cp)	fi_run "" "$ROOT/bin/cp" nine copy ;;
	esac
	[ "$fi_status" -eq 0 ] && [ ! -s err ] && cmp -s copy nine ||
	    atf_fail "$1 did not copy on a machine of $2 bytes"
	[ "$(fi_count read max)" -eq "$(fi_count write max)" ] ||
	    atf_fail "$1 wrote in other pieces than it read"
	fi_count read max
}

# pol_large PHYSMEM...: on machines of each PHYSMEM bytes, cat and cp
# copy with the large buffer (the small one under a small cgroup limit).
pol_large()
{
	eng_init
	_want=$LARGE
	_lim=$(cgroup_limit)
	if [ -n "$_lim" ] && [ "$_lim" -lt "$LARGE_MINMEM" ]; then
		echo "cgroup memory.max is $_lim: a small machine after all"
		_want=$SMALL
	fi
	for _mem in "$@"; do
		for _p in cat cp; do
			_got=$(pol_run "$_p" "$_mem")
			[ "$_got" -eq "$_want" ] ||
			    atf_fail "$_p read $_got bytes at a time on a" \
			    "machine of $_mem bytes, not $_want"
		done
	done
}

atf_test_case policy_small_machine
policy_small_machine_head()
{
	atf_set descr "On a 64 MiB machine a large file is copied with the" \
	    "small buffer"
}
policy_small_machine_body()
{
	eng_init
	for _p in cat cp; do
		_got=$(pol_run "$_p" 67108864)
		[ "$_got" -eq "$SMALL" ] ||
		    atf_fail "$_p read $_got bytes at a time on 64 MiB, not $SMALL"
	done
}

atf_test_case policy_large_machine
policy_large_machine_head()
{
	atf_set descr "On a 1 TiB machine a large file is copied with the" \
	    "large buffer"
}
policy_large_machine_body()
{
	pol_large 1099511627776
}

atf_test_case policy_huge_machine
policy_huge_machine_head()
{
	atf_set descr "On machines of 8 TiB and 16 TiB, more pages than a" \
	    "32-bit long counts, a large file is copied with the large buffer"
}
policy_huge_machine_body()
{
	pol_large 8796093022208 17592186044416
}

atf_test_case policy_pagesize
policy_pagesize_head()
{
	atf_set descr "With 16 KiB and 64 KiB pages, buffers are whole pages" \
	    "of that size"
}
policy_pagesize_body()
{
	eng_init
	printf 'five bytes short of five thousand%04967d\n' 0 > small
	for _pg in 16384 65536; do
		FI_ENV="FAULTINJ_PAGESIZE=$_pg FAULTINJ_PATH=rw"
		fi_run "" "$ROOT/bin/cat" small orig
		{ dd if=small; dd if=orig; } > expect 2>/dev/null
		[ "$fi_status" -eq 0 ] && [ ! -s err ] && cmp -s out expect ||
		    atf_fail "cat failed with $_pg-byte pages"
		_m=$(fi_count posix_memalign max)
		[ $((_m % _pg)) -eq 0 ] ||
		    atf_fail "a buffer of $_m bytes with $_pg-byte pages"
	done
}

atf_init_test_cases()
{
	atf_add_test_case rw_changed
	atf_add_test_case cfr_changed
	atf_add_test_case splice_changed
	atf_add_test_case sendfile_changed
	atf_add_test_case policy_small_machine
	atf_add_test_case policy_large_machine
	atf_add_test_case policy_huge_machine
	atf_add_test_case policy_pagesize
	atf_add_test_case sparse_grown
}

# A sparse source grown by 5000 bytes right after the Nth lseek of cp's
# copy, for every N (the engine finds data and holes with lseek): the
# copy must hold the source as it was or as it became, a prefix of what
# it holds in the end and no shorter than it was, never its old data
# padded with zeros to its new size.
atf_test_case sparse_grown
sparse_grown_head()
{
	atf_set descr "A sparse source that grows under cp is copied as it" \
	    "was or as it became, never padded with zeros"
}
sparse_grown_body()
{
	eng_init
	_mk='dd if=orig of=src bs=65536 2>/dev/null &&
	    dd if=orig of=src bs=65536 seek=48 2>/dev/null'
	rm -f src
	eval "$_mk" || atf_fail "cannot make the source"
	[ $(($(du -k src | cut -f 1) * 1024)) -lt $(($(wc -c < src))) ] ||
	    atf_skip "this file system does not make holes"
	FI_ENV="FAULTINJ_FILE=$PWD/src"
	fi_run "" "$ROOT/bin/cp" src copy
	_n=$(fi_count lseek)
	[ "$fi_status" -eq 0 ] && cmp -s src copy && [ "$_n" -gt 0 ] ||
	    atf_fail "cp of a sparse file failed, or made no lseek"
	_size=$(wc -c < src)
	_i=1
	while [ "$_i" -le "$_n" ]; do
		rm -f src copy
		eval "$_mk"
		fi_spec="lseek:$_i:grow=5000"
		fi_cmd="cp src copy"
		fi_run "$fi_spec" "$ROOT/bin/cp" src copy
		_len=$(wc -c < copy)
		if [ "$fi_status" -ne 0 ] || [ -s err ]; then
			fi_bad "a grown source is no error"
		elif [ "$_len" -lt "$_size" ]; then
			fi_bad "the copy lost bytes the source had"
		elif ! head -c "$_len" src | cmp -s - copy; then
			fi_bad "the copy holds what the source never did"
		fi
		_i=$((_i + 1))
	done
	fi_finish
}

