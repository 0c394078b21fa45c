# SPDX-License-Identifier: BSD-2-Clause
#
# yes(1) under injected faults.  yes never ends by itself: each run is
# read by head(1) for YES_BYTES bytes, after which yes dies of SIGPIPE,
# which is the one signal death expected (and counted as exit 0).  The
# number of writes depends on how fast head reads, so the sweep covers
# only the first FI_MAXN calls of each function, which every run makes.
#

yes_prog()
{
	echo "${ROOTDIR:-$(atf_config_get rootdir '')}/usr/bin/yes"
}

# expect_bytes: the suites' shared functions.
. "$(atf_get_srcdir)/../../../common/portable.subr"

YES_BYTES=300000

# yes_run SPEC CMD ARGS...: fi_run's counterpart, through the pipe.
yes_run()
{
	_spec=$1
	shift
	FI_RUNS=$((FI_RUNS + 1))
	{
		env LD_PRELOAD="$FI_LIB${LD_PRELOAD:+:$LD_PRELOAD}" \
		    ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		    FAULTINJ="$_spec" FAULTINJ_LOG="$PWD/log" ${FI_ENV} \
		    "$@" </dev/null 2>err
		echo $? > status
	} | head -c "$YES_BYTES" > out
	read -r fi_status < status
	if [ "$(kill -l "$fi_status" 2>/dev/null)" = PIPE ]; then
		fi_status=0
	fi
}

fi_prepare()
{
	:
}

judge_yes()
{
	if [ "$fi_status" -eq 0 ]; then
		cmp -s out expect || fi_bad "the output is not the lines due"
		return
	fi
	if ! fi_stderr_ok yes "$2" stdout; then
		fi_bad "not an err(3) message naming stdout"
		return
	fi
	fi_is_prefix out expect || fi_bad "output other than the lines due"
}

# yes_sweep_one PATH [OPERAND...]: one sweep, judged with the others.
yes_sweep_one()
{
	export FAULTINJ_PATH=$1
	shift
	FI_RUNNER=yes_run
	FI_MAXN=3
	FI_EXPECT="fstat write"
	# Only Linux lends yes's pages to a pipe.
	case $(uname -s):$FAULTINJ_PATH in
	Linux:splice|Linux:auto)
		FI_EXPECT="fstat vmsplice" ;;
	esac
	[ -z "$FI_BASE" ] || FI_EXPECT="fstat write"
	if [ $# -eq 0 ]; then
		expect_bytes "$YES_BYTES" y > expect
	else
		expect_bytes "$YES_BYTES" "$*" > expect
	fi
	fi_sweep judge_yes "$(yes_prog)" "$@"
}

yes_init()
{
	. "$(atf_get_srcdir)/faults_lib.sh"
	fi_init
}

yes_done()
{
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

yes_sweep()
{
	yes_init
	yes_sweep_one "$@"
	yes_done
}

atf_test_case rw
rw_head()
{
	atf_set descr "yes on the write path, every early call faulted"
}
rw_body()
{
	yes_sweep rw
}

atf_test_case splice
splice_head()
{
	atf_set descr "yes on the vmsplice path, every early call faulted"
}
splice_body()
{
	yes_sweep splice
}

atf_test_case auto
auto_head()
{
	atf_set descr "yes to a pipe as the engine chooses, every early call faulted"
}
auto_body()
{
	yes_sweep auto
}

atf_test_case splice_refused
splice_refused_head()
{
	atf_set descr "yes with vmsplice refused (EINVAL): every early call" \
	    "of its write(2) fallback, faulted"
}
splice_refused_body()
{
	yes_init
	FI_BASE=vmsplice:1+:EINVAL
	yes_sweep_one splice
	yes_done
}

atf_test_case others
others_head()
{
	atf_set descr "yes under the paths that do not apply to it (cfr," \
	    "sendfile), every early call faulted"
}
others_body()
{
	yes_init
	yes_sweep_one cfr
	yes_sweep_one sendfile
	yes_done
}

atf_test_case operands
operands_head()
{
	atf_set descr "yes with operands (its own allocation), every early" \
	    "call faulted"
}
operands_body()
{
	yes_sweep rw "an operand" and another
}

atf_test_case operands_splice
operands_splice_head()
{
	atf_set descr "yes with operands on the vmsplice path, every early" \
	    "call faulted"
}
operands_splice_body()
{
	yes_sweep splice "an operand" and another
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case rw
	atf_add_test_case auto
	atf_add_test_case others
	atf_add_test_case operands
	# The vmsplice path is Linux's alone.
	if [ "$(uname -s)" = Linux ]; then
		atf_add_test_case splice
		atf_add_test_case splice_refused
		atf_add_test_case operands_splice
	fi
}
