# SPDX-License-Identifier: BSD-2-Clause
#
# cp(1) under injected faults: every call of every interposed function,
# on every engine path (see faults_lib.sh for the sweep and its rules).
# Besides what every sweep asks, a failure on one operand must not keep
# the others from being copied whole.
#

cp_prog()
{
	echo "${ROOTDIR:-$(atf_config_get rootdir '')}/bin/cp"
}

cp_setup()
{
	. "$(atf_get_srcdir)/faults_lib.sh"
	fi_init
	awk 'BEGIN { for (i = 1; i <= 150; i++) printf "line %04d of f1\n", i }' \
	    > f1
	printf 'second\n' > f2
	: > empty
	mkdir src src/sub
	awk 'BEGIN { for (i = 1; i <= 40; i++) printf "a line %d\n", i }' \
	    > src/a
	printf 'bee\n' > src/b
	printf 'sea\n' > src/sub/c
}

# Several operands into a directory.
cp_files_prepare()
{
	rm -rf dir
	mkdir dir
}

# The copy dst of src may be missing or cut short only when the failure
# was on it (either name named) or on something that holds it.
cp_file_ok()
{
	_s=$1
	_d=$2
	shift 2
	for _n in "$_s" "$_d" "$@"; do
		if fi_was_named "$_n"; then
			[ ! -e "$_d" ] || fi_is_prefix "$_d" "$_s"
			return
		fi
	done
	cmp -s "$_s" "$_d"
}

# judge_cp FUNC ERRNO CLASS, for "cp f1 f2 empty dir".
judge_cp_files()
{
	_srcs="f1 f2 empty"
	_dsts="dir/f1 dir/f2 dir/empty"
	if [ "$fi_status" -eq 0 ]; then
		for _f in $_srcs; do
			cmp -s "$_f" "dir/$_f" ||
			    fi_bad "exit 0 but dir/$_f is not a copy of $_f"
		done
		return
	fi
	case $1 in
	write|pwrite)
		_names=$_dsts ;;
	read|pread)
		_names=$_srcs ;;
	*)
		_names="$_srcs $_dsts dir" ;;
	esac
	# shellcheck disable=SC2086
	if ! fi_stderr_ok cp "$2" $_names; then
		fi_bad "not an err(3) message naming the right file (one of: $_names)"
		return
	fi
	# Out of memory or the target gone: cp may stop there.
	if [ -z "$fi_named" ] || fi_was_named dir; then
		for _f in $_srcs; do
			[ ! -e "dir/$_f" ] || fi_is_prefix "dir/$_f" "$_f" ||
			    fi_bad "dir/$_f holds what $_f does not"
		done
		return
	fi
	for _f in $_srcs; do
		cp_file_ok "$_f" "dir/$_f" ||
		    fi_bad "dir/$_f was not copied though $_f did not fail"
	done
}

# A tree: cp -R src dst, dst not there yet.
cp_tree_prepare()
{
	rm -rf dst
}

judge_cp_tree()
{
	if [ "$fi_status" -eq 0 ]; then
		for _f in a b sub/c; do
			cmp -s "src/$_f" "dst/$_f" ||
			    fi_bad "exit 0 but dst/$_f is not a copy"
		done
		return
	fi
	_all="src src/a src/b src/sub src/sub/c dst dst/a dst/b dst/sub dst/sub/c"
	# shellcheck disable=SC2086
	if ! fi_stderr_ok cp "$2" $_all; then
		fi_bad "not an err(3) message naming a file of the copy"
		return
	fi
	if [ -z "$fi_named" ]; then
		return
	fi
	cp_file_ok src/a dst/a src dst || fi_bad "dst/a lost"
	cp_file_ok src/b dst/b src dst || fi_bad "dst/b lost"
	cp_file_ok src/sub/c dst/sub/c src dst src/sub dst/sub ||
	    fi_bad "dst/sub/c lost"
}

# A tree of a dozen files, enough for cp to copy them with threads.
cp_threads_setup()
{
	mkdir big big/sub
	for i in 1 2 3 4 5 6 7 8 9; do
		awk -v i=$i 'BEGIN { for (j = 0; j < 30 * i; j++)
			printf "line %d of %d\n", j, i }' > big/f$i
	done
	printf 'one\n' > big/sub/g1
	printf 'two\n' > big/sub/g2
	: > big/sub/g3
	big_files="f1 f2 f3 f4 f5 f6 f7 f8 f9 sub/g1 sub/g2 sub/g3"
	big_names="stdout big dst big/sub dst/sub"
	for _f in $big_files; do
		big_names="$big_names big/$_f dst/$_f"
	done
}

# cp -Rv big dst by threads: whatever call failed, a file with a -v line
# is a whole copy, and one that no message names, nor its directories,
# is copied.
judge_cp_threads()
{
	for _f in $big_files; do
		if grep -Fqx "big/$_f -> dst/$_f" out; then
			cmp -s "big/$_f" "dst/$_f" ||
			    fi_bad "dst/$_f said to be copied, and it is not"
		elif [ "$fi_status" -eq 0 ]; then
			fi_bad "exit 0 but no -v line for dst/$_f"
		fi
	done
	[ "$fi_status" -eq 0 ] && return
	# shellcheck disable=SC2086
	if ! fi_stderr_ok cp "$2" $big_names; then
		fi_bad "not an err(3) message naming a file of the copy"
		return
	fi
	[ -n "$fi_named" ] || return
	for _f in $big_files; do
		case $_f in
		sub/*)	_holders="big dst big/sub dst/sub" ;;
		*)	_holders="big dst" ;;
		esac
		# shellcheck disable=SC2086
		cp_file_ok "big/$_f" "dst/$_f" $_holders ||
		    fi_bad "dst/$_f lost"
	done
}

cp_sweep_path()
{
	cp_setup
	export FAULTINJ_PATH=$1
	FI_BASE=$2
	FI_EXPECT="openat fstatat close $(fi_path_func "$1")"
	[ -z "$2" ] || FI_EXPECT="openat fstatat close read write"
	fi_prepare()
	{
		cp_files_prepare
	}
	fi_sweep judge_cp_files "$(cp_prog)" f1 f2 empty dir
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

atf_test_case rw
rw_head()
{
	atf_set descr "Every call of cp on the read/write path, faulted"
}
rw_body()
{
	cp_sweep_path rw
}

atf_test_case cfr
cfr_head()
{
	atf_set descr "Every call of cp on the copy_file_range path, faulted"
}
cfr_body()
{
	cp_sweep_path cfr
}

atf_test_case sendfile
sendfile_head()
{
	atf_set descr "Every call of cp on the sendfile path, faulted"
}
sendfile_body()
{
	cp_sweep_path sendfile
}

atf_test_case tree
tree_head()
{
	atf_set descr "Every call of cp -R on a small tree, faulted"
}
tree_body()
{
	cp_setup
	FI_EXPECT="openat fstat close"
	fi_prepare()
	{
		cp_tree_prepare
	}
	fi_sweep judge_cp_tree "$(cp_prog)" -R src dst
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

atf_test_case tree_threads
tree_threads_head()
{
	atf_set descr "Every call of cp -Rv on a tree copied by threads," \
	    "faulted"
	atf_set timeout 900
}
tree_threads_body()
{
	cp_setup
	cp_threads_setup
	FI_EXPECT="openat fstat close"
	FI_ENV="FAULTINJ_NCPU=2"
	# Each thread's engine asks fstatfs once for each file system it
	# meets: how often depends on which thread copied which file.
	FI_FUNCS=$(echo $FI_FUNCS | sed 's/fstatfs//')
	fi_prepare()
	{
		cp_tree_prepare
	}
	fi_sweep judge_cp_threads "$(cp_prog)" -Rv big dst
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

atf_test_case cfr_refused
cfr_refused_head()
{
	atf_set descr "copy_file_range refused (EXDEV):" \
	    "every call of cp's fallback, faulted"
}
cfr_refused_body()
{
	cp_sweep_path cfr copy_file_range:1+:EXDEV
}

atf_test_case sendfile_refused
sendfile_refused_head()
{
	atf_set descr "sendfile refused (ENOSYS): every call of cp's fallback, faulted"
}
sendfile_refused_body()
{
	cp_sweep_path sendfile sendfile:1+:ENOSYS
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case rw
	atf_add_test_case cfr
	atf_add_test_case cfr_refused
	atf_add_test_case sendfile_refused
	atf_add_test_case tree
	# The engine's sendfile path, and cp's threads, are Linux's alone.
	if [ "$(uname -s)" = Linux ]; then
		atf_add_test_case sendfile
		atf_add_test_case tree_threads
	fi
}
