# SPDX-License-Identifier: BSD-2-Clause
#
# cat(1) under injected faults into /dev/null, where only Linux's engine
# copies an operand it has not looked at (see faults_lib.sh for the
# sweep and its rules).  Installed on Linux alone (MK_LINUX_TESTS).
#

# cat_prog, cat_file, cat_setup: cat's fault suites' shared functions.
. "$(atf_get_srcdir)/cat_faults.subr"

# Into /dev/null, cat copies an operand it opens without a stat when the
# engine can prove the end (BUFSZ_UNSEEN: Linux's sendfile, then
# a read that returns 0).  Nothing there shows the bytes; what shows is
# whether cat read on, which the calls in the log and the failures
# injected into the reading that follows make visible.
#
# Up to 1024 operands, cat on Linux stats each by name for its sandbox's
# rules (confine.c); more go unconfined, the way under test.  So every
# run has 1100 operands: those given, then a file of one byte as often as
# it takes (the pads, each one sendfile and one read).
cat_devnull_init()
{
	if [ -z "${FI_LIB:-}" ]; then
		. "$(atf_get_srcdir)/faults_lib.sh"
		fi_init
	fi
	FI_ENV="FAULTINJ_FILE=$PWD/src"
	FI_STDOUT=/dev/null
	printf x > pad
}

# cat_devnull_run SPEC CMD ARGS...: fi_run with the pads after ARGS.
cat_devnull_run()
{
	_spec=$1
	shift
	# shellcheck disable=SC2046
	fi_run "$_spec" "$@" $(awk -v n=$((1101 - $#)) \
	    'BEGIN { for (i = 0; i < n; i++) print "pad" }')
}

# Every call of cat into /dev/null, faulted: the operands of the other
# sweeps and one of 9 MiB, more than one call moves.
judge_devnull()
{
	[ "$fi_status" -eq 0 ] && return
	# shellcheck disable=SC2046
	fi_stderr_ok cat "$2" $(fi_filter_names "$1" f1 stdin f2 empty big pad) ||
	    fi_bad "not an err(3) message naming the right file"
}

atf_test_case devnull_calls
devnull_calls_head()
{
	atf_set descr "cat of many small files into /dev/null: open," \
	    "sendfile, read and close a file, and no stat"
}
devnull_calls_body()
{
	cat_devnull_init
	fi_small_files 30
	cat_devnull_run "" "$(cat_prog)" small*
	[ "$fi_status" -eq 0 ] && [ ! -s err ] || atf_fail "cat failed"
	for f in open sendfile read close; do
		[ "$(fi_count $f)" -ge 1100 ] && [ "$(fi_count $f)" -le 1101 ] ||
		    atf_fail "$f called $(fi_count $f) times for 1100 files"
	done
	# Those of the start only (the standard output's).
	[ "$(fi_count fstat)" -lt 5 ] ||
	    atf_fail "fstat called $(fi_count fstat) times for 1100 files"
	for f in lseek fstatfs; do
		[ "$(fi_count $f)" -eq 0 ] ||
		    atf_fail "$f called $(fi_count $f) times for 1100 files"
	done
}

atf_test_case devnull_short
devnull_short_head()
{
	atf_set descr "cat into /dev/null reads on after a short count that" \
	    "is not the end, and reports the error it was short of"
}
devnull_short_body()
{
	cat_devnull_init
	dd if=/dev/zero of=src bs=1048576 count=6 2>/dev/null
	cat_devnull_run sendfile:1:short "$(cat_prog)" src
	[ "$fi_status" -eq 0 ] && [ ! -s err ] ||
	    atf_fail "exit status $fi_status: $(cat err)"
	# A read error after some bytes shortens the count and comes back
	# at the next call: it must be reported, not taken for the end.
	cat_devnull_run sendfile:1:short,sendfile:2:EIO,read:1:EIO \
	    "$(cat_prog)" src
	[ "$fi_status" -eq 1 ] ||
	    atf_fail "the error after the short count was lost (exit $fi_status)"
	atf_check -o inline:"cat: src: $(fi_strerror EIO)\n" cat err
}

atf_test_case devnull_grown
devnull_grown_head()
{
	atf_set descr "cat into /dev/null reads what a file gained after" \
	    "its first call, and reports a failed read of its end"
}
devnull_grown_body()
{
	cat_devnull_init
	printf 'small\n' > src
	cat_devnull_run sendfile:1:grow=5000 "$(cat_prog)" src
	[ "$fi_status" -eq 0 ] && [ ! -s err ] ||
	    atf_fail "exit status $fi_status: $(cat err)"
	# The read of the end brings a byte of the growth; had cat stopped
	# there, nothing would fail.
	printf 'small\n' > src
	cat_devnull_run sendfile:1:grow=5000,sendfile:2:EIO,read:2:EIO \
	    "$(cat_prog)" src
	[ "$fi_status" -eq 1 ] ||
	    atf_fail "the growth was not read (exit $fi_status)"
	atf_check -o inline:"cat: src: $(fi_strerror EIO)\n" cat err
	# The read that was to find the end failing is an error, not the end.
	printf 'small\n' > src
	cat_devnull_run read:1:EIO "$(cat_prog)" src
	[ "$fi_status" -eq 1 ] ||
	    atf_fail "a failed read was taken for the end (exit $fi_status)"
	atf_check -o inline:"cat: src: $(fi_strerror EIO)\n" cat err
	# The byte it brought is written like any other.
	printf 'small\n' > src
	cat_devnull_run sendfile:1:grow=5000,write:1:EIO "$(cat_prog)" src
	[ "$fi_status" -eq 1 ] || atf_fail "exit status $fi_status"
	atf_check -o inline:"cat: stdout: $(fi_strerror EIO)\n" cat err
}

atf_test_case devnull
devnull_head()
{
	atf_set descr "Every call of cat into /dev/null faulted"
}
devnull_body()
{
	cat_devnull_init
	cat_setup
	dd if=/dev/zero of=big bs=1048576 count=9 2>/dev/null
	FI_RUNNER=cat_devnull_run
	FI_EXPECT="open sendfile close fstat read"
	# The operands' calls come first; a few pads' after them.
	FI_MAXN=12
	fi_sweep judge_devnull "$(cat_prog)" f1 - f2 empty big
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

atf_init_test_cases()
{
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case devnull_calls
	atf_add_test_case devnull_short
	atf_add_test_case devnull_grown
	atf_add_test_case devnull
}
