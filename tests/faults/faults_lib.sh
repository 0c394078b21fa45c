# SPDX-License-Identifier: BSD-2-Clause
#
# Shared by the fault suites: running a program with libfaultinj
# preloaded, sweeping a fault over every call of a function, and judging
# what came out.  Sourced by each test body (fi_init) from the directory
# the suites are installed in.
#
# A sweep runs the program once clean with FAULTINJ_LOG to learn how
# many calls of each function it makes, then once for each call N and
# each fault of the function's class, and judges each run:
#
#   recoverable (EINTR, EAGAIN, a short count; a refusal of a kernel
#   path, which read/write takes over): exit 0, nothing on stderr, the
#   output byte-exact.
#
#   fatal (EIO, ENOSPC, ENOMEM, and anything from open/fstat/close): either
#   that, when the call's failure does not matter, or exit 1 with every
#   line of stderr in err(3) form, "prog: NAME: message of that errno",
#   NAME being a file on the side the function works on, and the output
#   what that failure allows and no more (see the judge_* of each suite).
#
#   never: death by a signal, another exit status, a hang (the test
#   program's timeout).
#
# Every failing run is kept (fi_bad) and reported together at the end,
# with the command that reproduces it, so that one bug does not hide
# the next.
#

fi_init()
{
	FI_LIB=$(atf_get_srcdir)/libfaultinj.so
	[ -f "$FI_LIB" ] || atf_fail "libfaultinj.so is not installed beside the tests"
	FI_ROOT=$(atf_config_get rootdir '')
	FI_BAD=$PWD/fi.bad
	FI_RUNS=0
	FI_EXPECT=
	: > "$FI_BAD"
	rm -f sweep.summary
}

# fi_small_files N: files small0 to small<N-1>, one short line each.
fi_small_files()
{
	_fs_i=0
	while [ $_fs_i -lt "$1" ]; do
		printf 'file %d\n' $_fs_i > small$_fs_i
		_fs_i=$((_fs_i + 1))
	done
}

# fi_run SPEC CMD ARGS...: run CMD under SPEC, stdin from /dev/null unless
# FI_STDIN names a file, stdout to ./out unless FI_STDOUT names another,
# stderr to ./err, the counts to ./log; the status is left in $fi_status.  More environment may be given
# in FI_ENV (words of NAME=value).
fi_run()
{
	_spec=$1
	shift
	FI_RUNS=$((FI_RUNS + 1))
	(fi_exec "$_spec" "$@") <"${FI_STDIN:-/dev/null}" \
	    >"${FI_STDOUT:-out}" 2>err
	fi_status=$?
}

# fi_exec SPEC CMD ARGS...: become CMD under SPEC, with FI_ENV; called in
# a subshell, which spares a sweep's thousands of runs an exec of env(1).
fi_exec()
{
	LD_PRELOAD="$FI_LIB${LD_PRELOAD:+:$LD_PRELOAD}"
	ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	FAULTINJ=$1
	FAULTINJ_LOG=$PWD/log
	export LD_PRELOAD ASAN_OPTIONS FAULTINJ FAULTINJ_LOG
	shift
	# shellcheck disable=SC2086
	[ -z "$FI_ENV" ] || export ${FI_ENV}
	exec "$@"
}

# fi_count FUNC [FIELD]: what the last run's log says (calls by default).
fi_count()
{
	fi_get "$1" "${2:-calls}"
	echo "$fi_n"
}

# fi_get FUNC FIELD [LOG]: sets fi_n to what LOG (./log by default) says,
# 0 if nothing; read by the shell itself, as it is asked after every run.
fi_get()
{
	fi_n=0
	while read -r _g_k _g_v; do
		if [ "$_g_k" = "$1.$2" ]; then
			fi_n=$_g_v
			break
		fi
	done < "${3:-log}"
}

# fi_bad WHY: keep the last run as a failure.
fi_bad()
{
	{
		echo "FAILED: $1"
		echo "  run: FAULTINJ_PATH=${FAULTINJ_PATH:-auto} FAULTINJ=$fi_spec" \
		    "${FI_ENV:+$FI_ENV }$fi_cmd"
		echo "  exit status: $fi_status"
		sed 's/^/  stderr: /' err | head -5
	} >> "$FI_BAD"
}

# fi_finish: fail the case if any run was judged bad, else say how many
# runs were judged.
fi_finish()
{
	if [ -s "$FI_BAD" ]; then
		_n=$(grep -c '^FAILED' "$FI_BAD")
		cat "$FI_BAD" >&2
		atf_fail "$_n of $FI_RUNS runs misbehaved (see stderr)"
	fi
	echo "$FI_RUNS runs, all as expected"
}

# The errno message of each name the suites inject, as err(3) prints it:
# the words of the C library the programs under test were built with
# (glibc's "Input/output error" is musl's "I/O error").
fi_strerror()
{
	fi_strerror_get "$1"
	echo "$fi_msg"
}

# fi_strerror_get ERRNO: sets fi_msg to ERRNO's message, asked of errmsg
# once a case for each name.
fi_strerror_get()
{
	case $1 in
	*[!A-Z0-9]*|"")
		fi_msg=$("$FI_ROOT/usr/tests/common/errmsg" "$1") || fi_msg="?"
		return ;;
	esac
	eval "fi_msg=\${fi_msg_$1-}"
	if [ -z "$fi_msg" ]; then
		fi_msg=$("$FI_ROOT/usr/tests/common/errmsg" "$1") || fi_msg="?"
		eval "fi_msg_$1=\$fi_msg"
	fi
}

# fi_faults FUNC: the faults tried on FUNC, each "ACTION:CLASS", where
# CLASS is r (recoverable: must succeed) or f (may fail cleanly).
fi_faults()
{
	case $1 in
	read|pread)
		echo "EINTR:r EAGAIN:r short:r EIO:f" ;;
	write|pwrite)
		echo "EINTR:r EAGAIN:r short:r EIO:f ENOSPC:f" ;;
	copy_file_range|splice|sendfile|vmsplice)
		echo "EXDEV:r ENOSYS:r EINVAL:r EOPNOTSUPP:r EINTR:r" \
		    "EAGAIN:r short:r EIO:f" ;;
	open|openat|close)
		echo "EIO:f EINTR:f" ;;
	fstat|fstatat|fsync|lseek)
		echo "EIO:f" ;;
	fstatfs)
		# Only asks whether the file system keeps sizes: when it
		# cannot tell, the end is read.
		echo "EIO:r" ;;
	malloc|calloc|realloc|posix_memalign)
		echo "ENOMEM:f" ;;
	esac
}

# fi_path_func PATH: the call a forced path moves data with.
fi_path_func()
{
	case $1 in
	rw|auto) echo read ;;
	cfr) echo copy_file_range ;;
	splice) echo splice ;;
	sendfile) echo sendfile ;;
	esac
}

FI_FUNCS="read write pread pwrite copy_file_range splice sendfile vmsplice
	open openat fstat fstatat fstatfs fsync close malloc calloc realloc
	posix_memalign"

# fi_is_prefix A B: whether file A is a prefix of file B (or B itself).
fi_is_prefix()
{
	_plen=$(wc -c < "$1")
	head -c "$_plen" "$2" | cmp -s - "$1"
}

# fi_split_ok BLOCK: whether ./out is ./exp.before, then a prefix of
# file BLOCK, then ./exp.after: what a filter that fails inside one
# operand (BLOCK, what that operand gives) may leave.
fi_split_ok()
{
	_lb=$(wc -c < exp.before)
	_la=$(wc -c < exp.after)
	_lo=$(wc -c < out)
	_mid=$((_lo - _lb - _la))
	[ "$_mid" -ge 0 ] || return 1
	head -c "$_lb" out | cmp -s - exp.before || return 1
	tail -c +$((_lb + 1)) out | head -c "$_mid" > got.mid
	fi_is_prefix got.mid "$1" || return 1
	[ "$_la" -eq 0 ] || tail -c "$_la" out | cmp -s - exp.after
}

# fi_filter_names FUNC INPUTS...: the names a filter's message about a
# failing FUNC may give: its output for a write, one of INPUTS for a
# read or an open, any of them for the rest.
fi_filter_names()
{
	_func=$1
	shift
	case $_func in
	write|pwrite|vmsplice)
		echo stdout ;;
	read|pread|open|openat)
		echo "$*" ;;
	*)
		echo "stdout $*" ;;
	esac
}

# fi_stderr_ok PROG ERRNO NAMES...: every line of ./err is
# "PROG: NAME: message" for one of NAMES and ERRNO's message; an
# allocation failure may also name what it wanted ("yes: malloc: ...")
# or nothing.  The names matched are left in $fi_named, one a line.
fi_stderr_ok()
{
	_p=$1
	_errno=$2
	fi_strerror_get "$2"
	_msg=$fi_msg
	shift 2
	fi_named=
	[ -s err ] || return 1
	while IFS= read -r _line; do
		_ok=
		for _n in "$@"; do
			if [ "$_line" = "$_p: $_n: $_msg" ]; then
				_ok=1
				fi_named="$fi_named$_n
"
				break
			fi
		done
		if [ -z "$_ok" ] && [ "$_errno" = ENOMEM ]; then
			case $_line in
			"$_p: $_msg"|"$_p: "*": $_msg")
				_ok=1 ;;
			esac
		fi
		[ -n "$_ok" ] || return 1
	done < err
	return 0
}

# fi_was_named NAME: whether the last fi_stderr_ok matched NAME.
fi_was_named()
{
	printf '%s' "$fi_named" | grep -Fqx -- "$1"
}

# fi_sweep JUDGE CMD ARGS...: the sweep described at the top, for every
# function in FI_FUNCS.  JUDGE FUNC ERRNO CLASS is called after each
# faulty run with ./out, ./err, ./log and $fi_status as the run left them
# and must call fi_bad for a bad run.  fi_prepare (defined by the suite)
# is called before every run, to set up a fresh target.  The number of
# calls swept per function is at most FI_MAXN (default 64).  FI_BASE, if
# set, is a fault every run has besides (a kernel path refused for good,
# say, so that the sweep goes over the fallback's calls); its function
# is not swept.  FI_RUNNER names the function that runs (fi_run).  Each
# function in FI_EXPECT must be seen called by the clean run.
fi_sweep()
{
	_sw_judge=$1
	shift
	fi_cmd="$*"
	fi_spec=$FI_BASE
	fi_prepare
	${FI_RUNNER:-fi_run} "$fi_spec" "$@"
	if [ "$fi_status" -ne 0 ] || [ -s err ]; then
		fi_bad "the clean run failed"
		return
	fi
	$_sw_judge none none r
	mv log log.clean
	# A library that stopped seeing a call (a new libc symbol) would make
	# the sweep pass without testing anything.
	for _sw_f in $FI_EXPECT; do
		fi_get "$_sw_f" calls log.clean
		[ "$fi_n" -gt 0 ] ||
		    fi_bad "the clean run made no call of $_sw_f that was seen"
	done
	for _sw_f in $FI_FUNCS; do
		[ "$_sw_f" = "${FI_BASE%%:*}" ] && continue
		fi_get "$_sw_f" calls log.clean
		_sw_calls=$fi_n
		[ "$_sw_calls" -gt "${FI_MAXN:-64}" ] && _sw_calls=${FI_MAXN:-64}
		_sw_i=1
		while [ "$_sw_i" -le "${_sw_calls:-0}" ]; do
			for _sw_fc in $(fi_faults "$_sw_f"); do
				fi_spec="${FI_BASE:+$FI_BASE,}$_sw_f:$_sw_i:${_sw_fc%:*}"
				fi_prepare
				${FI_RUNNER:-fi_run} "$fi_spec" "$@"
				fi_judge_common "$_sw_f" "${_sw_fc%:*}" \
				    "${_sw_fc#*:}" && \
				    $_sw_judge "$_sw_f" "${_sw_fc%:*}" "${_sw_fc#*:}"
			done
			_sw_i=$((_sw_i + 1))
		done
		echo "${FI_BASE:+$FI_BASE + }$_sw_f: ${_sw_calls:-0} calls swept" \
		    >> sweep.summary
	done
}

# What every run must show whatever the program: the fault was met (the
# log counts it), no death by signal, exit 0 or 1, and a recoverable
# fault recovered from.  Returns 1 when the run was already judged bad.
fi_judge_common()
{
	fi_get "$1" faults
	if [ "$fi_n" -lt 1 ]; then
		fi_bad "the fault was never met (the call sequence changed?)"
		return 1
	fi
	if [ "$fi_status" -gt 1 ]; then
		if [ "$fi_status" -gt 128 ]; then
			fi_bad "died of signal $((fi_status - 128))"
		else
			fi_bad "exit status $fi_status"
		fi
		return 1
	fi
	if [ "$3" = r ] && { [ "$fi_status" -ne 0 ] || [ -s err ]; }; then
		fi_bad "did not recover from $2 on $1"
		return 1
	fi
	if [ "$fi_status" -eq 0 ] && [ -s err ]; then
		fi_bad "exit 0 with a message"
		return 1
	fi
	if [ "$fi_status" -eq 1 ] && [ ! -s err ]; then
		fi_bad "exit 1 without a message"
		return 1
	fi
	return 0
}
