# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for tail -f and -F: files that grow, shrink, are renamed, removed
# and made again; several files and their headers; the standard input; a
# FIFO.  No case assumes how soon tail notices: each waits, for a bounded
# time, until the output is what it must become.
#

LC_ALL=C
export LC_ALL

# wait_until: the suites' shared functions; start, expect, expect_text,
# stop, cleanup_tail: tail's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/tail.subr"

# lines_at_least N FILE: whether FILE has N lines or more.
lines_at_least()
{
	[ "$(wc -l < "$2")" -ge "$1" ]
}

atf_test_case grows cleanup
grows_head()
{
	atf_set descr "-f: what is appended is shown, as it comes"
}
grows_body()
{
	seq 1 3 > f
	start -f f
	expect_text '1\n2\n3\n'
	seq 4 5 >> f
	expect_text '1\n2\n3\n4\n5\n'
	# A line in two writes, a long one, bytes without a newline.
	printf 'six' >> f
	expect_text '1\n2\n3\n4\n5\nsix'
	printf '\n' >> f
	awk 'BEGIN { for (i = 0; i < 30000; i++) printf "%07d", i; print "" }' > long
	cat long >> f
	{ printf '1\n2\n3\n4\n5\nsix\n'; cat long; } > exp
	expect exp
	stop
	atf_check -o empty cat err
}
grows_cleanup()
{
	cleanup_tail
}

atf_test_case counts cleanup
counts_head()
{
	atf_set descr "-f after -n, -c and +N: the part shown, then the rest"
}
counts_body()
{
	seq 1 20 > f
	start -f -n 2 f
	expect_text '19\n20\n'
	echo 21 >> f
	expect_text '19\n20\n21\n'
	stop
	# -n 0: none of what was there; lines are added until one shows,
	# since when tail has found the end cannot be seen.
	start -f -n 0 f
	i=0
	until grep -q '^x' out; do
		i=$((i + 1))
		[ $i -lt 300 ] || atf_fail "nothing appended was shown"
		echo "x$i" >> f
		sleep 0.1
	done
	grep -v '^x' out && atf_fail "a line from before was shown"
	stop
	seq 1 22 > f
	start -f -c +50 f
	dd if=f ibs=49 skip=1 of=exp 2>/dev/null
	expect exp
	stop
	start -3f f
	expect_text '20\n21\n22\n'
	stop
}
counts_cleanup()
{
	cleanup_tail
}

atf_test_case through_a_pipe cleanup
through_a_pipe_head()
{
	atf_set descr "-f into a pipe: each line reaches the reader at once"
}
through_a_pipe_body()
{
	printf 'first\n' > f
	mkfifo lines
	"$(prog)" -f f > lines 2> err &
	tailpid=$!
	echo $tailpid > tail.pid
	# The reader keeps each line as it gets it: were tail to hold output
	# back for a pipe, nothing would come while it runs.
	while read -r l; do
		echo "$l" >> got
	done < lines &
	wait_until grep -q first got 2>/dev/null ||
	    atf_fail "the first line did not come through"
	printf 'second\n' >> f
	wait_until grep -q second got ||
	    atf_fail "the second line did not come through"
	atf_check -o inline:'first\nsecond\n' cat got
	stop
}
through_a_pipe_cleanup()
{
	cleanup_tail
}

atf_test_case truncated cleanup
truncated_head()
{
	atf_set descr "-f: a file truncated in place is shown again from" \
	    "its start"
}
truncated_body()
{
	seq 1 100 > f
	start -f -n 1 f
	expect_text '100\n'
	: > f
	echo new > f
	expect_text '100\nnew\n'
	echo more >> f
	expect_text '100\nnew\nmore\n'
	# Shorter, but not empty.
	printf 'x\n' > f
	expect_text '100\nnew\nmore\nx\n'
	stop
	atf_check -o empty cat err
}
truncated_cleanup()
{
	cleanup_tail
}

atf_test_case renamed_f cleanup
renamed_f_head()
{
	atf_set descr "-f follows the file, not the name: renamed, it is" \
	    "still shown"
}
renamed_f_body()
{
	seq 1 3 > f
	start -f f
	expect_text '1\n2\n3\n'
	mv f g
	echo 4 >> g
	expect_text '1\n2\n3\n4\n'
	echo other > f
	echo 5 >> g
	expect_text '1\n2\n3\n4\n5\n'
	stop
}
renamed_f_cleanup()
{
	cleanup_tail
}

atf_test_case renamed_F cleanup
renamed_F_head()
{
	atf_set descr "-F follows the name: a file made under it anew is" \
	    "shown from its start"
}
renamed_F_body()
{
	seq 1 3 > f
	start -F f
	expect_text '1\n2\n3\n'
	seq 4 5 > new
	mv f old
	mv new f
	expect_text '1\n2\n3\n4\n5\n'
	echo 6 >> f
	expect_text '1\n2\n3\n4\n5\n6\n'
	# The old file is let go.
	echo old >> old
	echo 7 >> f
	expect_text '1\n2\n3\n4\n5\n6\n7\n'
	stop
	atf_check -o empty cat err
}
renamed_F_cleanup()
{
	cleanup_tail
}

atf_test_case removed_F cleanup
removed_F_head()
{
	atf_set descr "-F: a file removed is waited for, and shown whole" \
	    "when it is back; one missing at the start too"
}
removed_F_body()
{
	start -F f
	sleep 0.3
	printf 'one\n' > f
	expect_text 'one\n'
	rm f
	sleep 0.3
	printf 'two\nthree\n' > f
	expect_text 'one\ntwo\nthree\n'
	stop
	atf_check -o empty cat err
	# -f, by contrast, reports a missing file and has nothing to follow.
	rm f
	atf_check -s exit:1 -e inline:'tail: f: No such file or directory\n' \
	    "$(prog)" -f f
}
removed_F_cleanup()
{
	cleanup_tail
}

atf_test_case several cleanup
several_head()
{
	atf_set descr "-f of several files: FreeBSD's headers, one before" \
	    "each change of file, after an empty line"
}
several_body()
{
	echo a1 > a
	echo b1 > b
	start -f a missing b
	expect_text '\n==> a <==\na1\n\n==> b <==\nb1\n'
	echo a2 >> a
	expect_text '\n==> a <==\na1\n\n==> b <==\nb1\n\n==> a <==\na2\n'
	echo a3 >> a
	expect_text '\n==> a <==\na1\n\n==> b <==\nb1\n\n==> a <==\na2\na3\n'
	echo b2 >> b
	expect_text '\n==> a <==\na1\n\n==> b <==\nb1\n\n==> a <==\na2\na3\n\n==> b <==\nb2\n'
	stop
	atf_check -o inline:'tail: missing: No such file or directory\n' cat err
	# -q: no headers; -v: a header for one file.
	start -q -f a b
	expect_text 'a1\na2\na3\nb1\nb2\n'
	echo a4 >> a
	expect_text 'a1\na2\na3\nb1\nb2\na4\n'
	stop
	start -v -f -n 1 a
	expect_text '\n==> a <==\na4\n'
	stop
}
several_cleanup()
{
	cleanup_tail
}

atf_test_case standard_input cleanup
standard_input_head()
{
	atf_set descr "-f of a file on the standard input follows it; of a" \
	    "pipe means nothing"
}
standard_input_body()
{
	seq 1 3 > f
	"$(prog)" -f < f > out 2> err &
	tailpid=$!
	echo $tailpid > tail.pid
	expect_text '1\n2\n3\n'
	seq 4 5 >> f
	expect_text '1\n2\n3\n4\n5\n'
	stop
	# A pipe: shown, and tail ends.
	atf_check -o inline:'2\n3\n' -x "seq 1 3 | $(prog) -f -n 2"
	atf_check -o inline:'2\n3\n' -x "seq 1 3 | $(prog) -F -n 2"
}
standard_input_cleanup()
{
	cleanup_tail
}

atf_test_case fifo cleanup
fifo_head()
{
	atf_set descr "-f of a FIFO: the last lines of the first writer, then" \
	    "what later writers write"
}
fifo_body()
{
	mkfifo p
	start -f -n 2 p
	seq 1 5 > p
	expect_text '4\n5\n'
	echo six > p
	expect_text '4\n5\nsix\n'
	echo seven > p
	expect_text '4\n5\nsix\nseven\n'
	stop
	atf_check -o empty cat err
}
fifo_cleanup()
{
	cleanup_tail
}

# start_traced LAYERS OPTIONS...: start, with tail traced (every call in
# ./trace: strace(1), or ktrace(1) where there is none) and in LAYERS
# (in_landlock_layers: unconfined) or not; the tracer's process id in
# $stracepid, what it and the layers say in ./strace.out.
start_traced()
{
	_layers=$1
	shift
	rm -f tail.pid
	if [ -n "$tracer" ]; then
		$_layers env ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		    strace -o trace sh -c 'echo $$ > tail.pid; exec "$@" > out 2> err' \
		    sh "$(prog)" "$@" > strace.out 2>&1 &
	else
		# ktrace(1) becomes the command: its process is tail's.
		rm -f ktr
		env ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		    ktrace -t c -f ktr sh -c 'echo $$ > tail.pid; exec "$@" > out 2> err' \
		    sh "$(prog)" "$@" > strace.out 2>&1 &
	fi
	stracepid=$!
	wait_until test -s tail.pid || atf_fail "tail did not start"
	tailpid=$(cat tail.pid)
}

# stop_traced: stop, and the tracer's end awaited; a ktrace(1) record
# written as strace(1) writes its calls, "read(3, ...) = 8", tail's
# alone.
stop_traced()
{
	kill -0 "$tailpid" 2>/dev/null || atf_fail "tail ended early: $(cat err)"
	kill "$tailpid"
	wait "$stracepid" 2>/dev/null
	if [ -z "$tracer" ]; then
		kdump -d -f ktr | awk -v pid="$tailpid" '
		    $1 != pid { next }
		    $3 == "CALL" {
			c = $0
			sub(/^ *[0-9]+ +[^ ]+ +CALL +/, "", c)
			sub(/,/, ", ", c)
			call = c
			next
		    }
		    $3 == "RET" && call != "" {
			r = $5
			sub(/\/0x[0-9a-f]+$/, "", r)
			print call " = " r
			call = ""
		    }' > trace
	fi
	tailpid=
	rm -f tail.pid
}

# most_between FIFO...: in ./trace, the most calls that read or wait
# that tail made between two reads of data from the FIFOs, and after the
# last one.  Where the trace names no file opened (ktrace(1) without its
# name records, and Casper opens tail's files), any read of data stands
# for one of a FIFO's: the other operands are read once, at the start.
most_between()
{
	awk -v names=" $* " -v any="${tracer:+0}" '
	    /^open(at)?\(/ && / = [0-9]+$/ && match($0, /"[^"]*"/) &&
		index(names, " " substr($0, RSTART + 1, RLENGTH - 2) " ") {
		fifo[$NF] = 1
		next
	    }
	    /^(read|poll|ppoll|epoll_wait|epoll_pwait|select|pselect6|pselect|kevent|nanosleep|clock_nanosleep)\(/ {
		n++
		fd = $1
		sub(/^read\(/, "", fd)
		sub(/,$/, "", fd)
		if (/^read\(/ && / = [1-9][0-9]*$/ && (any != "0" || (fd in fifo))) {
			if (on && n > most)
				most = n
			on = 1
			n = 0
		}
	    }
	    END { if (on && n > most) most = n; print most + 0 }' trace
}

# fifo_pauses LAYERS OPERANDS...: tail -qf of the operands (the FIFOs
# among them p and q), in LAYERS or not.  Each FIFO's first writer gives
# the part shown; then, after a pause with no writer, another writer a
# line; then one writer stays through a pause between two lines; then
# after a pause a last writer.  The output comes whole, and between two
# lines tail makes no more calls that read or wait than a few wake-ups
# take, however long the pauses: 24 for each FIFO, where a wake-up
# every quarter of a second would take more than 40 in a pause.
fifo_pauses()
{
	_layers=$1
	shift
	start_traced "$_layers" -q -f "$@"
	_fifos=0
	: > exp
	for _o; do
		if [ -p "$_o" ]; then
			echo "$_o first" > "$_o"
			echo "$_o first" >> exp
			_fifos=$((_fifos + 1))
		else
			cat "$_o" >> exp
		fi
	done
	expect exp
	for _o; do
		[ -p "$_o" ] || continue
		sleep 3
		echo "$_o again" > "$_o"
		echo "$_o again" >> exp
		expect exp
		exec 8> "$_o"
		echo "$_o held" >&8
		echo "$_o held" >> exp
		expect exp
		sleep 3
		echo "$_o still held" >&8
		echo "$_o still held" >> exp
		expect exp
		exec 8>&-
		sleep 3
		echo "$_o last" > "$_o"
		echo "$_o last" >> exp
		expect exp
	done
	stop_traced
	atf_check -o empty cat err
	if [ -z "$_layers" ]; then
		! landlock_confines "$(prog)" ||
		    grep -q '^landlock_restrict_self(.*= 0$' trace ||
		    atf_fail "$*: tail was not confined"
	else
		grep -q '^landlock_restrict_self(.*= -1 E2BIG' trace ||
		    atf_fail "$*: the kernel did not refuse a 17th layer"
	fi
	most=$(most_between p q)
	[ "$most" -le $((24 * _fifos)) ] ||
	    atf_fail "${_layers:-as started} $*: $most calls between two lines"
}

atf_test_case fifo_wakes_on_data cleanup
fifo_wakes_on_data_head()
{
	atf_set descr "-f of FIFOs, confined or not: tail wakes for data, not" \
	    "for time, when no writer holds a FIFO, so that the calls it" \
	    "makes between two lines are few however long the pause"
	atf_set timeout 300
}
fifo_wakes_on_data_body()
{
	tracer=
	if command -v strace > /dev/null; then
		strace -o /dev/null true 2>/dev/null ||
		    atf_skip "strace cannot trace here (no ptrace)"
		tracer=strace
	else
		command -v ktrace > /dev/null && command -v kdump > /dev/null ||
		    atf_skip "neither strace(1) nor ktrace(1) and kdump(1)"
		ktrace -f ktr true 2> /dev/null && [ -s ktr ] ||
		    atf_skip "no ktrace(2): a kernel without KTRACE"
	fi
	layered=
	! landlock_confines "$(prog)" || layered=in_landlock_layers
	echo file > f
	mkfifo p q
	for layers in "" $layered; do
		for operands in "p" "f p" "p q"; do
			# shellcheck disable=SC2086
			fifo_pauses "$layers" $operands
		done
	done
}
fifo_wakes_on_data_cleanup()
{
	cleanup_tail
}

atf_test_case failures cleanup
failures_head()
{
	atf_set descr "-f with nothing to follow ends, exit 1; -r -f is" \
	    "refused; a file that cannot be read is said once"
}
failures_body()
{
	atf_check -s exit:1 \
	    -e inline:'tail: x: No such file or directory\ntail: y: No such file or directory\n' \
	    "$(prog)" -f x y
	echo a > a
	atf_check -s exit:1 -e match:'^usage:' "$(prog)" -r -f a
	# A file that cannot be read is said once and let go.
	mkdir d
	atf_check -s exit:1 -e inline:'tail: d: Is a directory\n' "$(prog)" -f d
	start -f d a
	expect_text '\n==> d <==\n\n==> a <==\na\n'
	echo b >> a
	expect_text '\n==> d <==\n\n==> a <==\na\nb\n'
	stop
	atf_check -o inline:'tail: d: Is a directory\n' cat err
}

failures_cleanup()
{
	cleanup_tail
}

atf_test_case unreadable_F cleanup
unreadable_F_head()
{
	atf_set descr "-F of a name that opens but cannot be read: tried" \
	    "again at the loop's pace, its error said once until it changes"
}
unreadable_F_body()
{
	mkdir d
	# Bounded by timeout: every retry that spun would be a line more.
	timeout 1 "$(prog)" -F d > out 2>&1
	atf_check -o inline:'tail: d: Is a directory\n' cat out
	start -F d
	wait_until test -s err || atf_fail "the directory was not said"
	rmdir d
	echo file > d
	expect_text 'file\n'
	# Read from since: a directory again is said again, once.
	rm d
	mkdir d
	wait_until lines_at_least 2 err ||
	    atf_fail "the directory back was not said again"
	# Time for retries to show, were they said (nothing is timed).
	sleep 2.5
	rmdir d
	echo again > d
	expect_text 'file\nagain\n'
	stop
	atf_check -o inline:'tail: d: Is a directory\ntail: d: Is a directory\n' \
	    cat err
}
unreadable_F_cleanup()
{
	cleanup_tail
}

atf_test_case fifo_in_place_F cleanup
fifo_in_place_F_head()
{
	atf_set descr "-F: a FIFO put in a file's place holds up no other" \
	    "file while it has no writer"
}
fifo_in_place_F_body()
{
	echo a > a
	echo b > b
	start -F a b
	expect_text '\n==> a <==\na\n\n==> b <==\nb\n'
	rm b
	mkfifo b
	# Time for tail to find the FIFO (nothing is timed: a tail that
	# waited for its writer would never show a2).
	sleep 1.5
	echo a2 >> a
	expect_text '\n==> a <==\na\n\n==> b <==\nb\n\n==> a <==\na2\n'
	echo b2 > b
	expect_text '\n==> a <==\na\n\n==> b <==\nb\n\n==> a <==\na2\n\n==> b <==\nb2\n'
	stop
	atf_check -o empty cat err
}
fifo_in_place_F_cleanup()
{
	cleanup_tail
}

atf_test_case fifo_renamed_over_F cleanup
fifo_renamed_over_F_head()
{
	atf_set descr "-F of a FIFO whose name goes to a file before its" \
	    "writer leaves: the file is shown once"
}
fifo_renamed_over_F_body()
{
	mkfifo p
	echo zzz > f
	start -F p
	# When the writer leaves, p names the file: tail, opening the FIFO
	# again by its name to stay asleep at its end, finds the file.
	{ echo a; mv f p; } > p
	echo end >> p
	wait_until grep -q end out || atf_fail "the file was not shown"
	stop
	atf_check -o inline:'a\nzzz\nend\n' cat out
	atf_check -o empty cat err
}
fifo_renamed_over_F_cleanup()
{
	cleanup_tail
}

# follow_into_loop: tail -F shows d, then d becomes a symbolic link
# loop, and tail says so.
follow_into_loop()
{
	echo hello > d
	d_ino=$(stat_of ino d)
	start -F d
	expect_text 'hello\n'
	ln -s e e
	ln -s e l
	mv l d
	wait_until test -s err || atf_fail "the loop was not said"
}

atf_test_case failed_then_new_F cleanup
failed_then_new_F_head()
{
	atf_set descr "-F: a file that failed (its name a symbolic link" \
	    "loop), then a new file under the name: the new one from its" \
	    "start, even where it was given the old one's inode number"
}
failed_then_new_F_body()
{
	# The old file, closed, left its inode number to the new one on
	# ext4 three times in four: a few rounds make a miss unlikely.
	for i in 1 2 3; do
		mkdir r$i
		cd r$i
		follow_into_loop
		echo 'world wide' > t
		mv t d
		expect_text 'hello\nworld wide\n'
		stop
		atf_check -o inline:"tail: d: $(errno_message ELOOP)\n" \
		    cat err
		cd ..
	done
}
failed_then_new_F_cleanup()
{
	for i in 1 2 3; do
		[ -d r$i ] && (cd r$i && cleanup_tail)
	done
	true
}

atf_test_case failed_removed_F cleanup
failed_removed_F_head()
{
	atf_set descr "-F: a file kept open after it failed is let go once" \
	    "it has no name left"
}
failed_removed_F_body()
{
	[ -d /proc/self/fd ] || command -v fstat > /dev/null ||
	    atf_skip "no /proc/PID/fd nor fstat(1) to list tail's files"
	follow_into_loop
	# Only d: a confined tail keeps its temporary file, unlinked, open.
	wait_until eval "! open_by_ino $tailpid $d_ino" ||
	    atf_fail "the removed file is still open"
	stop
}
failed_removed_F_cleanup()
{
	cleanup_tail
}

#
# Cases for FreeBSD's own paths.  Each skips, saying why, where the host
# is not FreeBSD or lacks what it needs.
#

# fb_only WHAT: skip unless on FreeBSD, naming what needs it.
fb_only()
{
	[ "$(uname -s)" = FreeBSD ] ||
	    atf_skip "FreeBSD's $1: not on $(uname -s)"
}

# fb_follow_in DIR: -F through growth, a truncation, a rename and a
# removal in DIR, and -f through a rename.  The file made after the
# removal is longer than what was shown of the old one, so that a new
# file under a reused inode number is shown from its start all the same.
fb_follow_in()
{
	rm -f out err expected
	seq 1 3 > "$1/f"
	start -F "$1/f"
	expect_text '1\n2\n3\n'
	echo 4 >> "$1/f"
	expect_text '1\n2\n3\n4\n'
	: > "$1/f"
	echo 5 > "$1/f"
	expect_text '1\n2\n3\n4\n5\n'
	seq 6 7 > "$1/new"
	mv "$1/f" "$1/old"
	mv "$1/new" "$1/f"
	expect_text '1\n2\n3\n4\n5\n6\n7\n'
	echo old >> "$1/old"
	rm "$1/f"
	seq 8 20 > "$1/f"
	seq 1 20 > expected
	expect expected
	stop
	atf_check -o empty cat err

	rm -f out err
	echo a > "$1/g"
	start -f "$1/g"
	expect_text 'a\n'
	mv "$1/g" "$1/h"
	echo b >> "$1/h"
	expect_text 'a\nb\n'
	stop
	atf_check -o empty cat err
}

atf_test_case fb_kqueue_tmpfs_ufs cleanup
fb_kqueue_tmpfs_ufs_head()
{
	atf_set descr "FreeBSD: -f and -F, waiting in kqueue, on a tmpfs" \
	    "and on a UFS of a memory disk"
	atf_set require.user root
}
fb_kqueue_tmpfs_ufs_body()
{
	fb_only "kqueue follow"
	mkdir tmp ufs
	mount -t tmpfs tmpfs tmp || atf_skip "cannot mount a tmpfs here"
	fb_follow_in tmp
	command -v mdconfig >/dev/null && command -v newfs >/dev/null ||
	    atf_skip "no mdconfig(8) or newfs(8) for a UFS (tmpfs passed)"
	md=$(mdconfig -a -t swap -s 32m) ||
	    atf_skip "mdconfig: cannot attach a memory disk (tmpfs passed)"
	echo "$md" > md.unit
	atf_check -o ignore -e ignore newfs /dev/$md
	atf_check mount /dev/$md ufs
	fb_follow_in ufs
}
fb_kqueue_tmpfs_ufs_cleanup()
{
	cleanup_tail
	umount tmp 2>/dev/null
	umount ufs 2>/dev/null
	[ -f md.unit ] && mdconfig -d -u "$(cat md.unit)" 2>/dev/null
	true
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case grows
	atf_add_test_case counts
	atf_add_test_case through_a_pipe
	atf_add_test_case truncated
	atf_add_test_case renamed_f
	atf_add_test_case renamed_F
	atf_add_test_case removed_F
	atf_add_test_case several
	atf_add_test_case standard_input
	atf_add_test_case fifo
	atf_add_test_case fifo_wakes_on_data
	atf_add_test_case failures
	atf_add_test_case unreadable_F
	atf_add_test_case fifo_in_place_F
	atf_add_test_case fifo_renamed_over_F
	atf_add_test_case failed_then_new_F
	atf_add_test_case failed_removed_F
	atf_add_test_case fb_kqueue_tmpfs_ufs
}
