# SPDX-License-Identifier: BSD-2-Clause
#
# cat(1) under injected faults: every call of every interposed function,
# on every engine path (see faults_lib.sh for the sweep and its rules).
#

# cat_prog, cat_file, cat_setup: cat's fault suites' shared functions.
. "$(atf_get_srcdir)/cat_faults.subr"

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
	# are closed.  The shell opens it for dd, write-only: FreeBSD's dd
	# opens its output for reading too, and a writer that also reads
	# never sees its reader go.
	[ -p fifo ] || mkfifo fifo || atf_fail "mkfifo failed"
	dd if=in2 2>/dev/null > fifo &
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

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case rw
	atf_add_test_case cfr
	atf_add_test_case cfr_refused
	atf_add_test_case splice_refused
	atf_add_test_case sendfile_refused
	atf_add_test_case auto
	atf_add_test_case cooked
	atf_add_test_case pipes_rw
	# The engine's sendfile and splice paths are Linux's alone.
	if [ "$(uname -s)" = Linux ]; then
		atf_add_test_case sendfile
		atf_add_test_case pipes_splice
	fi
}
