# SPDX-License-Identifier: BSD-2-Clause
#
# tail(1) under injected faults: every call of every interposed function,
# for each way tail reads (the end of a file by pread(2) windows and then
# the engine on each of its paths, a count from the start, -r by windows,
# a FIFO held as a stream, a stream spilled to a temporary file), and a
# file cut short or grown under it.  See faults_lib.sh for the sweep and
# its rules.
#

# wait_until: the suites' shared functions, installed in TESTSBASE/common.
. "$(atf_get_srcdir)/../../../common/portable.subr"

tail_prog()
{
	echo "${ROOTDIR:-$(atf_config_get rootdir '')}/usr/bin/tail"
}

# Operands: 24,000 bytes of numbered lines (several pages, so several
# windows with a page-sized buffer), a line, an empty file.
tail_setup()
{
	. "$(atf_get_srcdir)/faults_lib.sh"
	fi_init
	awk 'BEGIN { for (i = 1; i <= 600; i++)
	    printf "line %04d of f1 .........................\n", i }' > f1
	printf 'tail\n' > f2
	: > empty
	TAIL_OPS="f1 f2 empty"
}

fi_prepare()
{
	:
}

# tail_ref ARGS...: the output of tail ARGS on the operands without
# faults (./ref, judged by tail's own tests), and each operand's part of
# it: ./block.NAME, its header (if any) and what it shows.
tail_ref()
{
	"$(tail_prog)" "$@" $TAIL_OPS > ref 2>/dev/null ||
	    atf_fail "tail $* failed without faults"
	: > joined
	_first=1
	for _o in $TAIL_OPS; do
		"$(tail_prog)" "$@" "$_o" > block.$_o 2>/dev/null ||
		    atf_fail "tail $* $_o failed without faults"
		# Several operands: tail -v's header, after an empty line but
		# for the first.
		if [ -n "$TAIL_HEADERS" ]; then
			{
				[ -n "$_first" ] || echo
				"$(tail_prog)" -v "$@" "$_o"
			} > block.$_o
		fi
		cat block.$_o >> joined
		_first=
	done
	cmp -s joined ref || atf_fail "the blocks of tail $* are not its output"
}

# tail_around_ok NAME: the output after a failure on operand NAME: the
# blocks before it whole, a prefix of its own, the blocks after whole.
# An operand that fails before its header is written leaves none, and
# when it is the first the next header loses its empty line.
tail_around_ok()
{
	: > exp.before
	: > exp.after
	_seen=
	for _o in $TAIL_OPS; do
		if [ "$_o" = "$1" ]; then
			_seen=1
		elif [ -z "$_seen" ]; then
			cat block.$_o >> exp.before
		else
			cat block.$_o >> exp.after
		fi
	done
	fi_split_ok block.$1 && return 0
	[ -n "$TAIL_HEADERS" ] && [ ! -s exp.before ] && [ -s exp.after ] ||
	    return 1
	tail -c +2 exp.after > exp.after2
	mv exp.after2 exp.after
	: > block.none
	fi_split_ok block.none
}

# judge_tail FUNC ERRNO CLASS, against ./ref.
judge_tail()
{
	if [ "$fi_status" -eq 0 ]; then
		cmp -s out ref || fi_bad "exit 0 but the output differs"
		return
	fi
	# shellcheck disable=SC2086
	_names=$(fi_filter_names "$1" $TAIL_NAMES)
	# shellcheck disable=SC2086
	if ! fi_stderr_ok tail "$2" $_names; then
		fi_bad "not an err(3) message naming the right file (one of: $_names)"
		return
	fi
	if [ -z "$fi_named" ] || fi_was_named stdout ||
	    [ -z "$TAIL_OPS" ]; then
		fi_is_prefix out ref ||
		    fi_bad "output is not a prefix of what was due"
		return
	fi
	for _n in $TAIL_OPS; do
		if fi_was_named "$_n"; then
			tail_around_ok "$_n" || fi_bad "output lost or mangled" \
			    "around the failing $_n"
			return
		fi
	done
}

# tail_sweep PATH EXPECT ARGS...: every call of tail ARGS on the
# operands, on engine path PATH, faulted; EXPECT the calls the clean run
# must be seen to make.
tail_sweep()
{
	export FAULTINJ_PATH=$1
	FI_EXPECT=$2
	shift 2
	tail_ref "$@"
	TAIL_NAMES=$TAIL_OPS
	# shellcheck disable=SC2086
	fi_sweep judge_tail "$(tail_prog)" "$@" $TAIL_OPS
	cat sweep.summary 2>/dev/null || true
	fi_finish
}

# The end of each file, by windows, then the engine on each path.
atf_test_case end_auto
end_auto_head()
{
	atf_set descr "tail -n 5 of files (engine's choice): every call faulted"
}
end_auto_body()
{
	tail_setup
	tail_sweep auto "open fstat pread close copy_file_range" -q -n 5
}

atf_test_case end_rw
end_rw_head()
{
	atf_set descr "tail -n 150, windows of a page, read/write path:" \
	    "every call faulted"
}
end_rw_body()
{
	tail_setup
	export FAULTINJ_BUFSIZE=4096
	tail_sweep rw "open fstat pread close read write" -q -n 150
}

atf_test_case end_bytes
end_bytes_head()
{
	atf_set descr "tail -c 5000, read/write path: every call faulted"
}
end_bytes_body()
{
	tail_setup
	tail_sweep rw "open fstat pread close read write" -q -c 5000
}

atf_test_case end_sendfile
end_sendfile_head()
{
	atf_set descr "tail -n 5, sendfile path: every call faulted"
}
end_sendfile_body()
{
	tail_setup
	tail_sweep sendfile "open fstat pread close sendfile" -q -n 5
}

atf_test_case headers
headers_head()
{
	atf_set descr "tail -n 5 of several files, headers and all:" \
	    "every call faulted"
}
headers_body()
{
	tail_setup
	TAIL_HEADERS=1
	tail_sweep rw "open fstat pread close write" -n 5
}

atf_test_case from_start
from_start_head()
{
	atf_set descr "tail -n +590 and -c +23000 (skip, then the engine):" \
	    "every call faulted"
}
from_start_body()
{
	tail_setup
	tail_sweep auto "open fstat read close copy_file_range" -q -n +590
	tail_sweep rw "open fstat close read write" -q -c +23000
}

atf_test_case reverse
reverse_head()
{
	atf_set descr "tail -r by windows of a page, lines across them read" \
	    "again: every call faulted"
}
reverse_body()
{
	tail_setup
	# Lines longer than a window.
	awk 'BEGIN { for (i = 0; i < 3; i++) { for (j = 0; j < 700; j++)
	    printf "%d", i; print "" } }' >> f1
	export FAULTINJ_BUFSIZE=4096
	tail_sweep auto "open fstat pread close write" -q -r
	tail_sweep auto "open fstat pread close write" -q -r -n 150
}

# tail_pipe_run SPEC CMD ARGS...: fi_run's counterpart with stdin a FIFO
# that a background dd fills with $TAIL_IN, and stdout a pipe to dd.
tail_pipe_run()
{
	_spec=$1
	shift
	FI_RUNS=$((FI_RUNS + 1))
	# One FIFO serves every run: nothing stays in it once both ends
	# are closed.  The shell opens it for dd, write-only: FreeBSD's dd
	# opens its output for reading too, and a writer that also reads
	# never sees its reader go.
	[ -p fifo ] || mkfifo fifo || atf_fail "mkfifo failed"
	dd if="$TAIL_IN" bs=65536 2>/dev/null > fifo &
	{
		(fi_exec "$_spec" "$@") <fifo 2>err
		echo $? > status
	} | dd of=out 2>/dev/null
	wait
	read -r fi_status < status
}

# tail_pipe_sweep ARGS...: tail ARGS of a FIFO into a pipe, swept.
tail_pipe_sweep()
{
	"$(tail_prog)" "$@" < "$TAIL_IN" > ref 2>/dev/null ||
	    atf_fail "tail $* failed without faults"
	TAIL_OPS=
	TAIL_NAMES=stdin
	FI_RUNNER=tail_pipe_run
	FI_EXPECT="fstat read write"
	fi_sweep judge_tail "$(tail_prog)" "$@"
	echo "tail $* < FIFO:"
	cat sweep.summary 2>/dev/null || true
	rm -f sweep.summary
}

atf_test_case pipes
pipes_head()
{
	atf_set descr "tail -n 5, -c 5000, -r and -n +590 of a FIFO into a" \
	    "pipe (a stream held in memory): every call faulted"
}
pipes_body()
{
	tail_setup
	TAIL_IN=f1
	export FAULTINJ_BUFSIZE=4096
	for _a in "-n 5" "-c 5000" "-r" "-n +590"; do
		# shellcheck disable=SC2086
		tail_pipe_sweep $_a
	done
	fi_finish
}

atf_test_case spill
spill_head()
{
	atf_set descr "tail -r of a 17 MiB FIFO on a machine of 64 MiB," \
	    "spilled to a temporary file: faults on the way in, on the file" \
	    "(memory takes it after all), on the way out"
	atf_set timeout 300
}
spill_body()
{
	tail_setup
	awk 'BEGIN { for (i = 0; i < 440000; i++) printf "%039d\n", i }' > big
	TAIL_IN=big
	mkdir tmp
	# 8 MiB held in memory first, 32 MiB at most.
	FI_ENV="TMPDIR=$PWD/tmp FAULTINJ_PHYSMEM=67108864"
	"$(tail_prog)" -r < big > ref || atf_fail "tail -r failed"
	FI_RUNNER=tail_pipe_run
	# Where Landlock confines tail, its sandbox takes the first malloc,
	# and tail goes without it.
	_sandbox=
	! landlock_confines "$(tail_prog)" || _sandbox=malloc:1:ENOMEM
	# The first openat(2) makes the temporary file: refused, a name is
	# made instead where the host has O_TMPFILE; failed, memory takes
	# it all after all.
	for _f in "write:1:ENOSPC stdout tmp" "write:2:EIO stdout tmp" \
	    "write:5:ENOSPC stdout tmp" "write:30:EIO stdout tmp" \
	    "read:3:EIO stdin" "read:200:EIO stdin" \
	    "pread:1:EIO stdin" "pread:7:EIO stdin" \
	    "write:3:short" "read:3:short" \
	    "pread:2:short" "pread:3:EINTR" "write:2:EINTR" \
	    "realloc:1:ENOMEM" "realloc:4:ENOMEM" $_sandbox \
	    "openat:1:EOPNOTSUPP" "openat:1:ENOSPC" "openat:1:EACCES" \
	    "openat:1:EOPNOTSUPP,openat:2:EACCES"; do
		set -- $_f
		fi_spec=$1
		shift
		fi_cmd="tail -r < big"
		tail_pipe_run "$fi_spec" "$(tail_prog)" -r
		_fn=${fi_spec%%:*}
		_act=${fi_spec##*:}
		if [ $# -eq 0 ]; then
			# Recoverable: the output whole.
			[ "$fi_status" -eq 0 ] && [ ! -s err ] &&
			    cmp -s out ref || fi_bad "did not recover"
		elif [ "$(fi_count "$_fn" faults)" -lt 1 ]; then
			fi_bad "the fault was never met"
		elif [ "$fi_status" -eq 0 ]; then
			cmp -s out ref || fi_bad "exit 0 but the output differs"
		elif [ "$fi_status" -ne 1 ] ||
		    ! grep -Eqx "tail: ($(echo "$*" | sed "s,tmp,$PWD/tmp,;s, ,|,g")): $(fi_strerror "$_act")" err ||
		    [ "$(wc -l < err)" -ne 1 ]; then
			fi_bad "not one err(3) message naming one of: $*"
		elif ! fi_is_prefix out ref; then
			fi_bad "output is not a prefix of what was due"
		fi
	done
	[ -z "$(ls tmp)" ] || fi_bad "left behind in TMPDIR: $(ls tmp)"
	fi_finish
}

# tail_changed SPEC: tail $TAIL_ARGS of a copy of f1 changed under it
# by SPEC.  Either one message naming it and exit 1, or exit 0 with the
# tail of the file as it is now, or of the file as it was (the grown
# bytes after it, when a copy to the end came after the growth), or a
# prefix of the latter, cut where the file was cut; never a signal,
# never bytes the file did not hold.
tail_changed()
{
	cp f1 src
	FI_ENV="FAULTINJ_FILE=$PWD/src"
	fi_spec=$1
	fi_cmd="tail $TAIL_ARGS src"
	# shellcheck disable=SC2086
	fi_run "$1" "$(tail_prog)" $TAIL_ARGS src
	if [ "$fi_status" -gt 1 ]; then
		fi_bad "exit status $fi_status"
	elif [ "$fi_status" -eq 1 ]; then
		grep -Eqx 'tail: src: .+' err && [ "$(wc -l < err)" -eq 1 ] ||
		    fi_bad "not one err(3) message naming src"
	elif [ -s err ]; then
		fi_bad "exit 0 with a message"
	else
		# shellcheck disable=SC2086
		"$(tail_prog)" $TAIL_ARGS src > now
		# shellcheck disable=SC2086
		"$(tail_prog)" $TAIL_ARGS f1 > then
		{ cat then; tail -c +$(($(wc -c < f1) + 1)) src; } > grown
		cmp -s out now || cmp -s out grown || fi_is_prefix out then ||
		    fi_bad "neither the tail of the file as it is nor as it was"
	fi
}

atf_test_case changed
changed_head()
{
	atf_set descr "A file cut short or grown between tail's fstat and its" \
	    "reads: the tail of the file as it is then, or an error"
}
changed_body()
{
	tail_setup
	for TAIL_ARGS in "-n 5" "-n 150" "-c 5000" "-r" "-r -n 150"; do
		for FAULTINJ_BUFSIZE in 4096 131072; do
			export FAULTINJ_BUFSIZE
			for _s in fstat:2:truncate=0 fstat:2:truncate=100 \
			    fstat:2:truncate=4096 fstat:2:truncate=10000 \
			    pread:1:truncate=100 pread:1:truncate=20000 \
			    pread:2:truncate=5000 fstat:2:grow=100 \
			    fstat:2:grow=10000 pread:1:grow=5000; do
				tail_changed $_s
			done
		done
	done
	fi_finish
}

# follow_run SPEC ARGS...: tail ARGS in the background under SPEC, its
# output in ./out and ./err, its process id in $tailpid.
follow_run()
{
	_spec=$1
	shift
	env LD_PRELOAD="$FI_LIB${LD_PRELOAD:+:$LD_PRELOAD}" \
	    ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    FAULTINJ="$_spec" FAULTINJ_PATH=rw "$(tail_prog)" "$@" > out 2> err &
	tailpid=$!
	echo $tailpid > tail.pid
}

atf_test_case follow_eio cleanup
follow_eio_head()
{
	atf_set descr "tail -F of a file whose reads fail: tried again at" \
	    "the loop's pace, said once; after a passing failure, read on" \
	    "from where it failed, nothing shown twice"
}
follow_eio_body()
{
	tail_setup
	printf 'abc\n' > e
	# Every read fails: one message, not one a retry (timeout bounds it).
	timeout 1 env LD_PRELOAD="$FI_LIB${LD_PRELOAD:+:$LD_PRELOAD}" \
	    ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    FAULTINJ=read:1+:EIO,pread:1+:EIO FAULTINJ_PATH=rw \
	    "$(tail_prog)" -F e > out 2>&1
	atf_check -o inline:"tail: e: $(fi_strerror EIO)\n" cat out
	# A few reads fail, whichever they are (inotify's reads count too);
	# lines are added one at a time until one failed and more came.
	follow_run read:4:EIO,read:5:EIO,read:6:EIO,read:7:EIO -F e
	wait_until grep -q abc out || atf_fail "abc was not shown"
	: > exp
	echo abc >> exp
	i=0
	while [ $i -lt 20 ]; do
		i=$((i + 1))
		echo "line $i" >> e
		echo "line $i" >> exp
		wait_until cmp -s out exp || break
	done
	kill "$tailpid"
	wait "$tailpid" 2>/dev/null
	rm -f tail.pid
	atf_check -o file:exp cat out
	grep -q . err || atf_fail "no read failed"
	atf_check -s exit:1 grep -v -x "tail: e: $(fi_strerror EIO)" err
}
follow_eio_cleanup()
{
	[ -f tail.pid ] && kill "$(cat tail.pid)" 2>/dev/null
	true
}

atf_test_case follow_unlinking cleanup
follow_unlinking_head()
{
	atf_set descr "tail -F while stat of the name says the file has no" \
	    "link left, as Linux says while a removal is half done: the" \
	    "file is still the one open, shown once, not again at every look"
}
follow_unlinking_body()
{
	tail_setup
	printf 'abc\n' > e
	follow_run stat:1+:unlinked -F e
	wait_until grep -q abc out || atf_fail "abc was not shown"
	echo def >> e
	wait_until grep -q def out || atf_fail "def was not shown"
	kill "$tailpid"
	wait "$tailpid" 2>/dev/null
	rm -f tail.pid
	atf_check -o inline:'abc\ndef\n' cat out
	atf_check -o empty cat err
}
follow_unlinking_cleanup()
{
	[ -f tail.pid ] && kill "$(cat tail.pid)" 2>/dev/null
	true
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case end_auto
	atf_add_test_case end_rw
	atf_add_test_case end_bytes
	# The engine's sendfile path is Linux's alone.
	[ "$(uname -s)" != Linux ] || atf_add_test_case end_sendfile
	atf_add_test_case headers
	atf_add_test_case from_start
	atf_add_test_case reverse
	atf_add_test_case pipes
	atf_add_test_case spill
	atf_add_test_case changed
	atf_add_test_case follow_eio
	atf_add_test_case follow_unlinking
}
