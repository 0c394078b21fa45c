# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cp -R copying the files of a tree with several threads (where
# the system is one it does so on): whatever the threads, the copy and
# what cp says of it are those of a copy made one file at a time.  The
# fault injector's FAULTINJ_NCPU tells cp how many processors there are,
# which is how many threads it copies with: 1 is the walk alone.
#

. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/cp.subr"

# Sets fi, the start of a command run with the fault injector preloaded:
# $fi FAULTINJ_NCPU=N "$(prog)" ... is cp told that there are N
# processors.  Unquoted: the installed tests' path has no blank.
need_faultinj()
{
	_lib=$(atf_get_srcdir)/../../lib/libbufsz/faults/libfaultinj.so
	[ -f "$_lib" ] || atf_skip "no fault injector here"
	ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
	fi="env LD_PRELOAD=$_lib"
}

# threaded: whether cp copies a tree with threads here; the BSDs' copies
# one file at a time (bin/cp/serial.c), whatever FAULTINJ_NCPU says.
threaded()
{
	[ "$(uname -s)" = Linux ]
}

atf_test_case same_as_one_thread
same_as_one_thread_head()
{
	atf_set "descr" "A tree copied by four threads, then over the copy" \
	    "with -n: the same copy and the same -v lines as by one"
}
same_as_one_thread_body()
{
	need_faultinj
	mktree src
	for n in 1 4; do
		rm -rf dst
		atf_check -o save:out$n \
		    $fi FAULTINJ_NCPU=$n "$(prog)" -Rv src dst
		atf_check diff -r src dst
		# Into the copy and beside it: the new directory's files
		# are copied, the others left alone, and -n says so (and
		# exits 1, as cp(1) says).
		mkdir src/new
		printf 'new\n' > src/new/x
		atf_check -s exit:1 -o save:again$n \
		    $fi FAULTINJ_NCPU=$n "$(prog)" -Rvn src/ dst
		atf_check cmp src/new/x dst/new/x
		rm -r src/new
	done
	atf_check cmp out1 out4
	atf_check cmp again1 again4
	atf_check -o match:"^src/b/c/f70 -> dst/b/c/f70$" cat out4
	atf_check -o match:"^dst/a/f03 not overwritten$" cat again4
}

atf_test_case errors_in_order
errors_in_order_head()
{
	atf_set "descr" "Files that cannot be read among many: each reported" \
	    "in the order of the walk, none said to be copied, exit 1"
	atf_set "require.user" "unprivileged"
}
errors_in_order_body()
{
	need_faultinj
	mktree src
	bad="a/f07 a/f23 a/f39 b/f41 b/c/f70 b/c/f79"
	for f in $bad; do
		chmod 000 "src/$f"
	done
	msg=$(errno_message EACCES)
	# --sort: the walk's order is known, so the messages can be written.
	: > want
	for f in a/f07 a/f23 a/f39 b/c/f70 b/c/f79 b/f41; do
		printf 'cp: src/%s: %s\n' "$f" "$msg" >> want
	done
	for n in 1 4; do
		rm -rf dst
		atf_check -s exit:1 -o save:out$n -e save:err$n \
		    $fi FAULTINJ_NCPU=$n "$(prog)" -Rv --sort src dst
		atf_check cmp want err$n
		for f in $bad; do
			atf_check -s exit:1 grep -q -- "-> dst/$f\$" out$n
			atf_check test ! -e "dst/$f"
		done
	done
	atf_check cmp out1 out4
	# Without --sort, in the order the directories give.
	for n in 1 4; do
		rm -rf dst
		atf_check -s exit:1 -o save:rout$n -e save:rerr$n \
		    $fi FAULTINJ_NCPU=$n "$(prog)" -Rv src dst
	done
	atf_check cmp rout1 rout4
	atf_check cmp rerr1 rerr4
	chmod 644 $(for f in $bad; do echo "src/$f"; done)
	for f in $bad; do
		rm "src/$f"
	done
	atf_check diff -r src dst
}

atf_test_case one_fails
one_fails_head()
{
	atf_set "descr" "A write fails in one of four threads: that file is" \
	    "reported and not said to be copied, the others are copied, exit 1"
}
one_fails_body()
{
	need_faultinj
	mktree src
	# Too large a file: its own failure, which no other file caused.
	msg=$(errno_message EFBIG)
	for w in 1 17 30 52; do
		rm -rf dst
		atf_check -s exit:1 -o save:out -e save:err \
		    $fi FAULTINJ="write:$w:EFBIG" FAULTINJ_PATH=rw \
		    FAULTINJ_NCPU=4 "$(prog)" -Rv src dst
		atf_check -o inline:"1\n" sh -c 'wc -l < err | tr -d " "'
		failed=$(sed -n "s|^cp: dst/\(.*\): $msg\$|\1|p" err)
		[ -n "$failed" ] || atf_fail "not a write error: $(cat err)"
		atf_check -s exit:1 grep -q -- "-> dst/$failed\$" out
		(cd src && find . -type f) | sed 's|^\./||' > files
		while read -r f; do
			[ "$f" = "$failed" ] && continue
			cmp -s "src/$f" "dst/$f" ||
			    atf_fail "dst/$f is not a copy (write $w)"
			grep -q -- "^src/$f -> dst/$f\$" out ||
			    atf_fail "no -v line for $f (write $w)"
		done < files
	done
}

atf_test_case p_directories_last
p_directories_last_head()
{
	atf_set "descr" "cp -Rp with four threads: each directory's times" \
	    "are set after its files are copied into it"
}
p_directories_last_body()
{
	need_faultinj
	mktree src
	touch -t 200102030405.06 src/a/f05 src/b/c/f70
	for d in src/b/c src/b src/a src; do
		touch -t 200001020304.05 "$d"
	done
	atf_check $fi FAULTINJ_NCPU=4 "$(prog)" -Rp src dst
	atf_check diff -r src dst
	for d in "" /a /b /b/c /a/f05 /b/c/f70; do
		atf_check_equal "$(stat_of mtime "src$d")" \
		    "$(stat_of mtime "dst$d")"
	done
}

atf_test_case a_hard_links
a_hard_links_head()
{
	atf_set "descr" "cp -a with four threads: hard links within the tree" \
	    "become separate files, as with one"
}
a_hard_links_body()
{
	need_faultinj
	mktree src
	ln src/a/f01 src/a/link1
	ln src/a/f02 src/b/link2
	for n in 1 4; do
		atf_check $fi FAULTINJ_NCPU=$n "$(prog)" -a src dst$n
		atf_check diff -r src dst$n
		for f in a/f01 a/link1 a/f02 b/link2; do
			atf_check_equal 1 "$(stat_of nlink "dst$n/$f")"
		done
	done
}

# A tree of many small files (COUNT) in three directories.
mksmall()
{
	mkdir "$1" "$1/x" "$1/y" "$1/y/z"
	awk -v top="$1" -v n="$2" 'BEGIN {
		for (i = 0; i < n; i++) {
			d = i % 3 == 0 ? "x" : i % 3 == 1 ? "y" : "y/z"
			p = sprintf("%s/%s/s%04d", top, d, i)
			printf "" > p
			for (j = 0; j < (i * 37) % 50; j++)
				printf "line %d of file %d\n", j, i > p
			close(p)
		}
	}'
}

# A tree of a few large files, and a few small ones to start the threads.
mklarge()
{
	mkdir "$1"
	for i in 1 2 3 4 5 6 7 8; do
		echo "$i" > "$1/a$i"
	done
	for i in 1 2 3 4 5 6; do
		head -c $((3 * 1024 * 1024 + i)) /dev/urandom > "$1/b$i"
	done
}

# A tree LEVELS deep, with files at each level.
mkdeep()
{
	_d=$1
	mkdir "$_d"
	_i=0
	while [ $_i -lt "$2" ]; do
		echo "top $_i" > "$_d/f"
		echo "$_i" > "$_d/g"
		head -c 100000 /dev/urandom > "$_d/h"
		_d=$_d/d$_i
		mkdir "$_d"
		_i=$((_i + 1))
	done
}

# signalled OUT ERR CMD...: runs CMD, a cp, with its output and errors in
# OUT and ERR (-: both in OUT), and once it catches the progress signal,
# sends it that signal again and again until it exits; its exit status
# is left in rc.
signalled()
{
	_sg_out=$1
	_sg_err=$2
	shift 2
	rm -f rc pid
	if [ "$_sg_err" = - ]; then
		(sh -c 'echo $$ > pid; exec "$@"' sh "$@" > "$_sg_out" 2>&1
		    echo $? > rc) &
	else
		(sh -c 'echo $$ > pid; exec "$@"' sh "$@" > "$_sg_out" \
		    2> "$_sg_err"
		    echo $? > rc) &
	fi
	until [ -s pid ]; do
		:
	done
	_sg_pid=$(cat pid)
	# Until cp has its handler (it may not have run yet), the signal
	# would end it.
	until [ -s rc ] || signal_caught "$_sg_pid" "$sig"; do
		:
	done
	while [ ! -s rc ] && kill -s "$sig" "$_sg_pid" 2>/dev/null; do
		:
	done
	wait
}

# progress_lines_ok ERR SRC DST: every line of ERR is a whole progress
# line, "SRC/NAME -> DST/NAME N%", for a file of the tree, with N at most
# 100 (no file changes while it is copied).
progress_lines_ok()
{
	awk -v s="$2/" -v d="$3/" '
	{
		n = index($0, " -> ")
		from = substr($0, 1, n - 1)
		rest = substr($0, n + 4)
		if (n == 0 || substr(from, 1, length(s)) != s ||
		    !match(rest, / +[0-9]+%$/)) {
			print "not a progress line: " $0
			bad = 1
			next
		}
		to = substr(rest, 1, RSTART - 1)
		share = substr(rest, RSTART, RLENGTH - 1) + 0
		if (to != d substr(from, length(s) + 1)) {
			print "two files in one line: " $0
			bad = 1
		}
		if (share > 100) {
			print "a share past the whole file: " $0
			bad = 1
		}
	}
	END { exit bad }' "$1"
}

atf_test_case signal_all_along
signal_all_along_head()
{
	atf_set "descr" "The progress signal over and over through a copy" \
	    "by threads, of many small files, a few large ones, a deep tree:" \
	    "the same copy, -v lines and exit status as without it"
	atf_set "timeout" "600"
}
signal_all_along_body()
{
	need_faultinj
	need_signal_view "$(prog)"
	sig=$(info_signal)
	trap : $sig
	mksmall small 600
	mklarge large
	mkdeep deep 40
	mktree mixed
	for t in small large deep mixed; do
		for n in 2 4; do
			rm -rf dst
			atf_check -o save:out.clean \
			    $fi FAULTINJ_NCPU=$n "$(prog)" -Rv $t dst
			rm -rf dst
			signalled out err \
			    $fi FAULTINJ_NCPU=$n "$(prog)" -Rv $t dst
			atf_check_equal 0 "$(cat rc)"
			atf_check diff -r $t dst
			atf_check cmp out.clean out
			progress_lines_ok err $t dst ||
			    atf_fail "$t, $n threads: bad progress reports"
		done
	done
	# The -v lines and the reports in one file: the lines whole, in order.
	rm -rf dst
	atf_check -o save:out.clean $fi FAULTINJ_NCPU=4 "$(prog)" -Rv small dst
	rm -rf dst
	signalled both - $fi FAULTINJ_NCPU=4 "$(prog)" -Rv small dst
	atf_check_equal 0 "$(cat rc)"
	atf_check diff -r small dst
	grep -v '%$' both > both.v
	atf_check cmp out.clean both.v
	grep '%$' both > both.p
	progress_lines_ok both.p small dst ||
	    atf_fail "2>&1: bad progress reports"
}

atf_test_case signal_names_awaited
signal_names_awaited_head()
{
	atf_set "descr" "The progress signal while the walk waits for a file" \
	    "no thread has taken yet: a report naming it, and the copy goes on"
}
signal_names_awaited_body()
{
	need_faultinj
	need_signal_view "$(prog)"
	sig=$(info_signal)
	trap : $sig
	# Two threads, each held in its first copy until go exists: the
	# walk, done handing over, waits for the last file, which neither
	# has taken (--sort: b4 is the last).  One at a time, the report
	# names the first file, whose copy is held.
	awaited=b4
	threaded || awaited=a1
	mkdir src
	for i in 1 2 3 4 5; do
		echo "$i" > "src/a$i"
	done
	for i in 1 2 3 4; do
		head -c 100000 /dev/urandom > "src/b$i"
	done
	$fi FAULTINJ=copy_file_range:1+:wait FAULTINJ_FILE=go \
	    FAULTINJ_NCPU=2 "$(prog)" -Rv --sort src dst > out 2> err &
	pid=$!
	signal_set $pid $sig || atf_fail "cp never caught $sig"
	tries=0
	until [ -s err ]; do
		tries=$((tries + 1))
		[ $tries -le 100 ] || atf_fail "no progress report"
		kill -s $sig $pid
		sleep 0.1
	done
	touch go
	wait $pid
	atf_check_equal 0 $?
	atf_check diff -r src dst
	atf_check -s exit:1 -o empty \
	    grep -vx "src/$awaited -> dst/$awaited   0%" err
}

atf_test_case out_of_memory
out_of_memory_head()
{
	atf_set "descr" "Memory that runs out while threads copy: cp exits" \
	    "from the walk's thread alone, saying so last, after whole -v" \
	    "lines, each once, of whole copies"
	atf_set "timeout" "600"
}
out_of_memory_body()
{
	need_faultinj
	mktree src
	msg=$(errno_message ENOMEM)
	# Which thread calls exit_group(2) first, where strace(1) can tell;
	# no leak check traced: LeakSanitizer cannot run so.
	tracer=
	if strace -o /dev/null true 2>/dev/null; then
		tracer="env ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
		tracer="$tracer strace -f -qq -o trace -e trace=execve,exit_group"
	fi
	atf_check -o save:clean $fi FAULTINJ_LOG=log FAULTINJ_NCPU=4 \
	    "$(prog)" -Rv src dst
	calls=$(awk '$1 == "realloc.calls" { print $2 }' log)
	[ "$calls" -gt 0 ] || atf_fail "cp made no realloc call"
	k=1
	while [ $k -le "$calls" ]; do
		rm -rf dst
		$tracer $fi FAULTINJ="realloc:$k+:ENOMEM" FAULTINJ_NCPU=4 \
		    "$(prog)" -Rv src dst > log 2>&1
		r=$?
		case $r in
		0)	atf_check diff -r src dst
			sort clean > want
			atf_check -o file:want sort log ;;
		1)	atf_check -o inline:"cp: $msg\n" tail -n 1 log
			sed '$d' log > lines
			atf_check -o empty sh -c 'sort lines | uniq -d'
			while read -r from arrow to; do
				[ "$arrow" = "->" ] &&
				    [ "dst${from#src}" = "$to" ] ||
				    atf_fail "realloc $k: not a -v line:" \
				    "$from $arrow $to"
				[ -d "$from" ] || cmp -s "$from" "$to" ||
				    atf_fail "realloc $k: $to said copied"
			done < lines ;;
		*)	atf_fail "exit status $r (realloc $k)" ;;
		esac
		# The threads still there end with it, after the walk's call.
		[ -z "$tracer" ] || awk '
		    NR == 1 { main = $1 }
		    /exit_group/ { bad = $1 != main; exit }
		    END { exit bad }' trace ||
		    atf_fail "a thread other than the walk's exits (realloc $k)"
		k=$((k + 1))
	done
}

# mount_tmpfs SIZE: prints a new directory with a tmpfs of SIZE bytes
# mounted on it, which the cleanup unmounts; fails where none can be.
mount_tmpfs()
{
	_mt=$(mktemp -d "$PWD/mnt.XXXXXX") || return 1
	if ! mount -t tmpfs -o "size=$1" tmpfs "$_mt" 2>/dev/null; then
		rmdir "$_mt"
		return 1
	fi
	echo "$_mt" >> mounts
	echo "$_mt"
}

unmount_all()
{
	[ -f mounts ] || return 0
	while read -r _m; do
		umount "$_m" 2>/dev/null
	done < mounts
	rm -f mounts
}

# full_as_one TREE SIZE: TREE copied onto a tmpfs of SIZE bytes by four
# threads and by one, each onto a fresh one: the same files, bytes,
# messages, -v lines and exit status, and the disk was full.
full_as_one()
{
	m1=$(mount_tmpfs "$2") && m4=$(mount_tmpfs "$2") ||
	    atf_skip "cannot mount a tmpfs here"
	for n in 1 4; do
		eval m=\$m$n
		(cd "$m" && $fi FAULTINJ_NCPU=$n "$(prog)" -Rv "$OLDPWD/$1" \
		    dst > "$OLDPWD/out$n" 2> "$OLDPWD/err$n"
		    echo $? > "$OLDPWD/rc$n")
		(cd "$m" && find dst | sort) > "list$n"
	done
	atf_check -o inline:"1\n" cat rc1
	atf_check -o not-empty grep -F "$(errno_message ENOSPC)" err1
	atf_check cmp rc1 rc4
	atf_check cmp err1 err4
	atf_check cmp out1 out4
	atf_check cmp list1 list4
	while read -r f; do
		[ -d "$m1/$f" ] || cmp -s "$m1/$f" "$m4/$f" ||
		    atf_fail "$f differs in $1 onto $2 bytes"
	done < list1
	unmount_all
}

atf_test_case full_disk cleanup
full_disk_head()
{
	atf_set "descr" "A tree copied by threads onto a file system that" \
	    "fills up: the files, bytes, messages, -v lines and exit status" \
	    "of a copy made one file at a time"
	atf_set "require.user" "root"
	atf_set "timeout" "600"
}
full_disk_body()
{
	need_faultinj
	# Two large files that do not both fit, after a few small ones.
	mkdir two
	for i in 0 1 2 3 4 5 6 7; do
		echo $i > two/a$i
	done
	head -c 3000000 /dev/urandom > two/b1
	head -c 3000000 /dev/urandom > two/b2
	# Files of many sizes, in one directory and in several.
	mkdir mixed nested nested/p nested/q nested/p/r
	awk 'BEGIN {
		srand(47)
		for (i = 0; i < 100; i++) {
			p = sprintf("mixed/m%03d", i)
			q = sprintf("nested/%s/n%03d",
			    i % 3 == 0 ? "p" : i % 3 == 1 ? "q" : "p/r", i)
			n = int(rand() * rand() * 60000)
			for (j = 0; j < n; j += 40) {
				printf "%039d\n", i * 100000 + j > p
				printf "%039d\n", j * 7 + i > q
			}
			printf "" > p
			printf "" > q
			close(p)
			close(q)
		}
	}'
	for round in 1 2 3; do
		full_as_one two 4m
		full_as_one mixed 1m
		full_as_one mixed 512k
		full_as_one nested 1m
	done
}
full_disk_cleanup()
{
	unmount_all
}

# Writes fail from the Nth on, whichever file it is: with threads, the
# first file that fails is the one whose first write a copy made one
# file at a time would have failed at, for the same result.  With a
# buffer of 64 KiB, a file costs a write a 64 KiB, and nothing else
# writes (no -v).
atf_test_case writes_fail_on
writes_fail_on_head()
{
	atf_set "descr" "Writes that fail from one on (EIO, ENOSPC," \
	    "EDQUOT) under threads: the files, bytes, messages and exit" \
	    "status of a copy made one file at a time that met them"
	atf_set "timeout" "600"
}
writes_fail_on_body()
{
	need_faultinj
	mkdir src src/sub
	for i in 00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15; do
		n=$((1$i - 100))
		head -c $((n * 29000 % 200001)) /dev/urandom > src/f$i
		head -c $((n * 7919 % 90001)) /dev/urandom > src/sub/g$i
	done
	: > src/e1
	: > src/sub/e2
	# The order of the walk, and the writes each file costs.
	atf_check -o save:order "$(prog)" -Rv --sort src order.copy
	sed -n 's/^src\/\(.*\) -> .*/\1/p' order | while read -r f; do
		[ -f "src/$f" ] || continue
		echo "$f $(( ($(stat_of size "src/$f") + 65535) / 65536 ))"
	done > writes
	total=$(awk '{ t += $2 } END { print t }' writes)
	export FAULTINJ_PATH=rw FAULTINJ_BUFSIZE=65536
	for e in EIO ENOSPC EDQUOT; do
		for w in 1 2 3 5 8 13 21 34 55; do
			[ $w -le "$total" ] || continue
			rm -rf w1 w4
			mkdir w1 w4
			(cd w4 && $fi FAULTINJ="write:$w+:$e" FAULTINJ_NCPU=4 \
			    "$(prog)" -R --sort ../src dst 2> ../err4
			    echo $? > ../rc4)
			atf_check -o inline:"1\n" cat rc4
			first=$(sed -n '1s/^cp: dst\/\(.*\): .*/\1/p' err4)
			[ -n "$first" ] || atf_fail "no failure: $(cat err4)"
			# One at a time, the writes fail from that file's first
			# (with threads: the file is copied again, alone).
			m=$w
			! threaded || m=$(awk -v f="$first" '
			    $1 == f { exit } { t += $2 } END { print t + 1 }' \
			    writes)
			(cd w1 && $fi FAULTINJ="write:$m+:$e" FAULTINJ_NCPU=1 \
			    "$(prog)" -R --sort ../src dst 2> ../err1
			    echo $? > ../rc1)
			atf_check cmp rc1 rc4
			atf_check cmp err1 err4
			(cd w1 && find dst | sort) > list1
			(cd w4 && find dst | sort) > list4
			atf_check cmp list1 list4
			while read -r f; do
				[ -d "w1/$f" ] || cmp -s "w1/$f" "w4/$f" ||
				    atf_fail "$f differs ($e from write $w)"
			done < list1
		done
	done
}

atf_init_test_cases()
{
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case same_as_one_thread
	atf_add_test_case errors_in_order
	atf_add_test_case one_fails
	atf_add_test_case p_directories_last
	atf_add_test_case a_hard_links
	atf_add_test_case signal_all_along
	atf_add_test_case signal_names_awaited
	atf_add_test_case out_of_memory
	atf_add_test_case full_disk
	atf_add_test_case writes_fail_on
}
