# SPDX-License-Identifier: BSD-2-Clause
#
# cat(1) under injected faults: every call of every interposed function,
# on every engine path (see faults_lib.sh for the sweep and its rules).
#

cat_prog()
{
	echo "${ROOTDIR:-$(atf_config_get rootdir '')}/bin/cat"
}

# Operands of several kinds: more than a line, a line, stdin (a regular
# file here, named "stdin" in messages), and an empty file, which always
# takes read/write.
cat_setup()
{
	. "$(atf_get_srcdir)/faults_lib.sh"
	fi_init
	awk 'BEGIN { for (i = 1; i <= 150; i++) printf "line %04d of f1\n", i }' \
	    > f1
	printf 'tail\n' > f2
	awk 'BEGIN { for (i = 1; i <= 20; i++) print "stdin " i }' > in2
	: > empty
	FI_STDIN=in2
	CAT_OPS="f1 - f2 empty"
	for _o in $CAT_OPS; do
		head -c 1000000 "$(cat_file "$_o")"
	done > expect
}

cat_file()
{
	if [ "$1" = - ]; then
		echo in2
	else
		echo "$1"
	fi
}

cat_name()
{
	if [ "$1" = - ]; then
		echo stdin
	else
		echo "$1"
	fi
}

fi_prepare()
{
	:
}

# The output after a failure on operand $1: the operands before it
# whole, a prefix of it, the operands after it whole.
cat_around_ok()
{
	_seen=
	: > exp.before
	: > exp.after
	for _o in $CAT_OPS; do
		if [ "$(cat_name "$_o")" = "$1" ]; then
			_bad=$(cat_file "$_o")
			_seen=1
		elif [ -z "$_seen" ]; then
			head -c 1000000 "$(cat_file "$_o")" >> exp.before
		else
			head -c 1000000 "$(cat_file "$_o")" >> exp.after
		fi
	done
	fi_split_ok "$_bad"
}

# judge_cat FUNC ERRNO CLASS, with CAT_REF the output expected.
judge_cat()
{
	if [ "$fi_status" -eq 0 ]; then
		cmp -s out "$CAT_REF" || fi_bad "exit 0 but the output differs"
		return
	fi
	_ins=
	for _o in $CAT_OPS; do
		_ins="$_ins $(cat_name "$_o")"
	done
	# shellcheck disable=SC2086
	_names=$(fi_filter_names "$1" $_ins)
	# shellcheck disable=SC2086
	if ! fi_stderr_ok cat "$2" $_names; then
		fi_bad "not an err(3) message naming the right file (one of: $_names)"
		return
	fi
	if [ -z "$fi_named" ] || fi_was_named stdout; then
		fi_is_prefix out "$CAT_REF" ||
		    fi_bad "output is not a prefix of what was due"
		return
	fi
	# A cooked copy is not a concatenation; its messages were checked.
	[ -n "$CAT_COOKED" ] && return
	for _n in $_ins; do
		if fi_was_named "$_n"; then
			cat_around_ok "$_n" || fi_bad "output lost or mangled" \
			    "something around the failing $_n"
			return
		fi
	done
}

cat_sweep_path()
{
	cat_setup
	export FAULTINJ_PATH=$1
	FI_BASE=$2
	case ${2:+refused}$1 in
	rw|refused*)
		FI_EXPECT="open fstat close read write" ;;
	auto|cfr)
		FI_EXPECT="open fstat close copy_file_range" ;;
	*)
		FI_EXPECT="open fstat close $1" ;;
	esac
	CAT_REF=expect
	# shellcheck disable=SC2086
	fi_sweep judge_cat "$(cat_prog)" $CAT_OPS
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

atf_test_case rw
rw_head()
{
	atf_set descr "Every call of cat on the read/write path, faulted"
}
rw_body()
{
	cat_sweep_path rw
}

atf_test_case cfr
cfr_head()
{
	atf_set descr "Every call of cat on the copy_file_range path, faulted"
}
cfr_body()
{
	cat_sweep_path cfr
}

atf_test_case sendfile
sendfile_head()
{
	atf_set descr "Every call of cat on the sendfile path, faulted"
}
sendfile_body()
{
	cat_sweep_path sendfile
}

atf_test_case auto
auto_head()
{
	atf_set descr "Every call of cat on the path the engine chooses, faulted"
}
auto_body()
{
	cat_sweep_path auto
}

atf_test_case cooked
cooked_head()
{
	atf_set descr "Every call of cat -n (formatting, its own loop), faulted"
}
cooked_body()
{
	cat_setup
	export FAULTINJ_PATH=rw
	# The clean output is judged by cat's own tests; here it is the
	# reference that a recovered run must match.
	env "$(cat_prog)" -n $CAT_OPS < in2 > cooked.ref 2>/dev/null ||
	    atf_fail "cat -n failed without faults"
	CAT_REF=cooked.ref
	CAT_COOKED=1
	FI_EXPECT="open fstat close read write"
	# shellcheck disable=SC2086
	fi_sweep judge_cat "$(cat_prog)" -n $CAT_OPS
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

atf_test_case cfr_refused
cfr_refused_head()
{
	atf_set descr "copy_file_range refused (EXDEV):" \
	    "every call of cat's fallback, faulted"
}
cfr_refused_body()
{
	cat_sweep_path cfr copy_file_range:1+:EXDEV
}

atf_test_case splice_refused
splice_refused_head()
{
	atf_set descr "splice refused (EINVAL): every call of cat's fallback, faulted"
}
splice_refused_body()
{
	cat_sweep_pipes splice splice:1+:EINVAL
}

atf_test_case sendfile_refused
sendfile_refused_head()
{
	atf_set descr "sendfile refused (ENOSYS):" \
	    "every call of cat's fallback, faulted"
}
sendfile_refused_body()
{
	cat_sweep_path sendfile sendfile:1+:ENOSYS
}

# cat_pipe_run SPEC CMD ARGS...: fi_run's counterpart with stdin a FIFO
# that a background dd fills with in2, and stdout a pipe to dd.
cat_pipe_run()
{
	_spec=$1
	shift
	FI_RUNS=$((FI_RUNS + 1))
	# One FIFO serves every run: nothing stays in it once both ends
	# are closed.
	[ -p fifo ] || mkfifo fifo || atf_fail "mkfifo failed"
	dd if=in2 of=fifo 2>/dev/null &
	{
		(fi_exec "$_spec" "$@") <fifo 2>err
		echo $? > status
	} | dd of=out 2>/dev/null
	wait
	read -r fi_status < status
}

cat_sweep_pipes()
{
	cat_setup
	export FAULTINJ_PATH=$1
	FI_BASE=${2:-}
	CAT_OPS="f1 - f2"
	for _o in $CAT_OPS; do
		head -c 1000000 "$(cat_file "$_o")"
	done > expect
	CAT_REF=expect
	FI_RUNNER=cat_pipe_run
	case ${2:+refused}$1 in
	rw|refused*)	FI_EXPECT="open fstat close read write" ;;
	*)	FI_EXPECT="open fstat close $1" ;;
	esac
	# shellcheck disable=SC2086
	fi_sweep judge_cat "$(cat_prog)" $CAT_OPS
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

atf_test_case pipes_rw
pipes_rw_head()
{
	atf_set descr "cat from a FIFO and files to a pipe, read/write path:" \
	    "every call faulted"
}
pipes_rw_body()
{
	cat_sweep_pipes rw
}

atf_test_case pipes_splice
pipes_splice_head()
{
	atf_set descr "cat from a FIFO and files to a pipe, splice path:" \
	    "every call faulted"
}
pipes_splice_body()
{
	cat_sweep_pipes splice
}

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
	[ "$(uname -s)" = Linux ] ||
	    atf_skip "only Linux's engine copies an unseen input"
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

atf_test_case devnull_calls
devnull_calls_head()
{
	atf_set descr "cat of many small files into /dev/null: open," \
	    "sendfile, read and close a file, and no stat"
}
devnull_calls_body()
{
	cat_devnull_init
	i=0
	while [ $i -lt 30 ]; do
		printf 'file %d\n' $i > small$i
		i=$((i + 1))
	done
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

# Every call of cat into /dev/null, faulted: the operands of the other
# sweeps and one of 9 MiB, more than one call moves.
judge_devnull()
{
	[ "$fi_status" -eq 0 ] && return
	# shellcheck disable=SC2046
	fi_stderr_ok cat "$2" $(fi_filter_names "$1" f1 stdin f2 empty big pad) ||
	    fi_bad "not an err(3) message naming the right file"
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
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case rw
	atf_add_test_case cfr
	atf_add_test_case sendfile
	atf_add_test_case cfr_refused
	atf_add_test_case splice_refused
	atf_add_test_case sendfile_refused
	atf_add_test_case auto
	atf_add_test_case cooked
	atf_add_test_case pipes_rw
	atf_add_test_case pipes_splice
	atf_add_test_case devnull
	atf_add_test_case devnull_calls
	atf_add_test_case devnull_short
	atf_add_test_case devnull_grown
}
