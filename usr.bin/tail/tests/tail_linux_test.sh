# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for tail(1) of what only Linux has: files of /proc and /sys, whose
# sizes lie; tail confined with Landlock, with and without -f and -F, its
# temporary file and its buffer the same as unconfined.  Installed on
# Linux alone (MK_LINUX_TESTS).
#

LC_ALL=C
export LC_ALL

# wait_until, path_export, need_landlock, in_landlock_layers: the suites'
# shared functions; lines, ref_last, size_of, small_machine, start, expect,
# expect_text, stop, cleanup_tail: tail's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/tail.subr"

# landlock_or_skip: skips where tail cannot be confined or traced.
landlock_or_skip()
{
	need_landlock "$(prog)"
	command -v strace > /dev/null || atf_skip "strace is not installed"
	strace -o /dev/null true 2>/dev/null ||
	    atf_skip "strace cannot trace here (no ptrace)"
}

# traced OPTIONS...: tail under strace, its calls in ./trace, without
# the leak check (LeakSanitizer cannot run traced); inside $layers, a
# command that runs the rest (in_landlock_layers), when it is set.
traced()
{
	${layers:-} env ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    strace -o trace -e trace=%file,%desc,sysinfo,prctl "$(prog)" "$@"
}

# spill_order: in ./trace, the sandbox entered, the temporary file made
# (tmpfile: O_TMPFILE; named: its name then removed) and written, each
# said as it comes.
spill_order()
{
	awk '/^landlock_restrict_self\(.*= 0$/ { print "confined"; on = 1 }
	    /^open(at)?\(.*(O_TMPFILE|O_CREAT).*= [0-9]+$/ && !on {
		print "made before the sandbox" }
	    on && /^openat\([0-9]+, "\.", .*O_TMPFILE.*= [0-9]+$/ {
		print "tmpfile"; fd = $NF }
	    on && /^openat\([0-9]+, "tail\.[0-9a-f]+", .*O_CREAT.*= [0-9]+$/ {
		name = $2; fd = $NF }
	    name != "" && /^unlinkat\(/ && $2 == name && / = 0$/ {
		print "named"; name = "" }
	    fd != "" && !done && index($0, "write(" fd ",") == 1 {
		print (name != "" ? "written before removed" : "spilled")
		done = 1 }' trace
}

# made_files: the temporary files tail made, in ./trace: how many, each
# with no name or with a name removed before it was written; a line for
# each one that was not.
made_files()
{
	awk 'function quoted() {
		return (match($0, /"[^"]*"/) ? substr($0, RSTART, RLENGTH) : "")
	    }
	    /^open(at)?\(.*O_TMPFILE.*= [0-9]+$/ { n++ }
	    /^open(at)?\(.*O_CREAT.*= [0-9]+$/ {
		n++; name[$NF] = quoted(); fd[quoted()] = $NF }
	    /^unlink(at)?\(/ && (quoted() in fd) && / = 0$/ {
		delete name[fd[quoted()]]; delete fd[quoted()] }
	    /^write\(/ { w = $1; sub(/^write\(/, "", w); sub(/,$/, "", w)
		if (w in name) { print "written before removed: " name[w]
		    delete fd[name[w]]; delete name[w] } }
	    END { for (f in fd) print "never removed: " f; print n + 0 }' trace
}

# temp_run LAYERS IN OPTIONS...: tail OPTIONS under strace (./trace) on
# the file ./in given as IN (file: an operand; pipe: the standard input
# through a pipe; fifo: a FIFO operand; fifos: two FIFO operands, each
# written it whole), in LAYERS (in_landlock_layers: unconfined) or not;
# its output in ./out.  TMPDIR is ./tmp.
temp_run()
{
	_layers=$1
	_in=$2
	shift 2
	_t="$_layers env ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} strace -o trace -e trace=%file,%desc env TMPDIR=$PWD/tmp $small $(prog)"
	rm -f p1 p2
	case $_in in
	file)	$_t "$@" in > out ;;
	pipe)	cat in | $_t "$@" > out ;;
	fifo)	mkfifo p1
		cat in > p1 &
		$_t "$@" p1 > out
		wait ;;
	fifos)	mkfifo p1 p2
		cat in > p1 &
		cat in > p2 &
		$_t "$@" p1 p2 > out
		wait ;;
	esac
	if [ -z "$_layers" ]; then
		grep -q '^landlock_restrict_self(.*= 0$' trace ||
		    atf_fail "$_in $*: tail was not confined"
	else
		grep -q '^landlock_restrict_self(.*= -1 E2BIG' trace ||
		    atf_fail "$_in $*: the kernel did not refuse a 17th layer"
	fi
}

# io_after: the calls that read and write data after the sandbox was
# entered or refused, in ./trace, their data left out.
io_after()
{
	awk '/^landlock_restrict_self\(/ { on = 1; next }
	    on && /^(read|write|pread64|pwrite64|sendfile|splice|copy_file_range)\(/' \
	    trace | sed -E 's/"([^"\\]|\\.)*"(\.\.\.)?/DATA/g'
}

# both WHERE IN OPTIONS...: tail confined, then with the kernel refusing
# a sandbox, each under strace and reading IN (pipe: ./f through a
# pipe), the calls of each after io_after in ./confined and ./refused.
both()
{
	_where=$1
	_in=$2
	shift 2
	if [ "$_in" = pipe ]; then
		cat f | traced "$@" > out
	else
		traced "$@" < "$_in" > out
	fi
	grep -q '^landlock_restrict_self(.*= 0$' trace ||
	    atf_fail "$_where $*: tail was not confined"
	io_after > confined
	[ -s confined ] || atf_fail "$_where $*: no I/O traced"
	layers=in_landlock_layers
	if [ "$_in" = pipe ]; then
		cat f | traced "$@" > out2
	else
		traced "$@" < "$_in" > out2
	fi
	layers=
	grep -q '^landlock_restrict_self(.*= -1 E2BIG' trace ||
	    atf_fail "the kernel did not refuse a 17th Landlock layer"
	io_after > refused
	cmp -s out out2 || atf_fail "$_where $*: not the same output"
}

# confined_or_skip: skips where tail cannot be confined (no Landlock);
# else the running tail ($tailpid) must be, as /proc shows it.
confined_or_skip()
{
	need_landlock "$(prog)"
	wait_until grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$tailpid/status ||
	    atf_fail "tail -F runs without no_new_privs: not confined"
}

atf_test_case proc_and_sys
proc_and_sys_head()
{
	atf_set descr "/proc and /sys files, whose sizes lie, read as streams"
}
proc_and_sys_body()
{
	[ -r /proc/version ] || atf_skip "no /proc"
	dd if=/proc/version of=v bs=65536 2>/dev/null
	[ -s v ] || atf_fail "could not read /proc/version"
	for o in "" "-n 1" "-c 5" "-c +3" "-n +1" "-r" "-rc 4"; do
		"$(prog)" $o v > exp
		atf_check -o file:exp "$(prog)" $o /proc/version
	done
	# A /sys file says 4096 bytes and has a line.
	for s in /sys/devices/system/cpu/online /sys/kernel/mm/transparent_hugepage/enabled \
	    /sys/power/state /sys/kernel/profiling; do
		[ -r "$s" ] && break
	done
	[ -r "$s" ] || atf_skip "no /sys file to read"
	dd if="$s" of=s bs=65536 2>/dev/null
	[ "$(size_of s)" -lt 4096 ] || atf_skip "$s is not shorter than its size"
	for o in "" "-n 1" "-c 2" "-c +2" "-r" "-rc 3" "-b 1"; do
		"$(prog)" $o s > exp
		atf_check -o file:exp "$(prog)" $o "$s"
	done
}

atf_test_case confined
confined_head()
{
	atf_set descr "On Linux tail confines itself with Landlock before it" \
	    "opens an operand, the memory probed before; an error still" \
	    "names the file and its errno"
	atf_set timeout 60
}
confined_body()
{
	landlock_or_skip
	lines 100 > f
	ref_last 3 f > exp
	traced -n 3 f > out 2> err
	atf_check -o file:exp cat out
	atf_check -o empty cat err
	atf_check -o inline:'landlock_restrict_self = 0\n' -x "awk '
		/^landlock_restrict_self\\(/ {
			print \"landlock_restrict_self = \" \$NF; on = 1 }
		!on && /^(open\\(|openat\\(AT_FDCWD, )\"f\"/ {
			print \"opened before\" }
		on && /^sysinfo\\(|cgroup|meminfo/ { print \"after: \" \$0 }' trace"
	grep -q '^sysinfo(' trace ||
	    atf_fail "no sysinfo(2): where did the memory come from?"
	# musl opens with open(2), glibc with openat(2).
	grep -Eq '^(open\(|openat\(AT_FDCWD, )"f", O_RDONLY' trace ||
	    atf_fail "f was not opened by name"
	# Errors of the files are the host's, as unconfined.
	traced -n 3 missing f > out 2> err
	atf_check_equal 1 $?
	grep -q '^landlock_restrict_self(.*= 0$' trace ||
	    atf_fail "tail was not confined"
	printf '==> f <==\n' | cat - exp > exp2
	atf_check -o file:exp2 cat out
	atf_check -o inline:"tail: missing: $(errno_message ENOENT)\n" cat err
}

atf_test_case spill_confined
spill_confined_head()
{
	atf_set descr "Confined, a stream too long for memory goes to a" \
	    "temporary file in TMPDIR made only then, in the sandbox: with" \
	    "no name, or where the file system refuses that, with a name" \
	    "removed before the file is written; nothing is left behind"
	atf_set timeout 600
}
spill_confined_body()
{
	landlock_or_skip
	small_machine
	lines 1000000 20 > big
	mkdir tmp
	ref_last 900000 big > exp
	# The environment after strace: libfaultinj is for tail alone; no
	# leak check, which cannot run traced.  Its first openat(2) is the
	# O_TMPFILE one, refused as a file system without it refuses it.
	for how in tmpfile named; do
		fault=
		[ $how = tmpfile ] || fault=FAULTINJ=openat:1:EOPNOTSUPP
		atf_check -o file:exp -x "cat big | strace -o trace \
		    -e trace=%file,%desc env TMPDIR=$PWD/tmp $small $fault \
		    ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 \
		    $(prog) -n 900000"
		spill_order > order
		atf_check -o inline:"confined\n$how\nspilled\n" cat order
	done
	[ -z "$(ls tmp)" ] || atf_fail "left behind: $(ls tmp)"
}

atf_test_case temp_file_needed
temp_file_needed_head()
{
	atf_set descr "Confined or not, tail makes a temporary file only for" \
	    "a stream that needs one, one for each such stream, and leaves" \
	    "none behind: files, pipes and FIFOs, every kind of selection"
	atf_set timeout 900
}
temp_file_needed_body()
{
	landlock_or_skip
	small_machine
	lines 1000000 20 > big
	lines 1000 > small
	mkdir tmp
	for layers in "" in_landlock_layers; do
		# Held in memory: no file.
		cp small in
		for opts in "-n 5" "-c 100" "-b 2" "-r" "-r -n 5" "-n +3" \
		    "-c +5" "-n 0"; do
			"$(prog)" $opts small > exp
			for in in file pipe fifo; do
				temp_run "$layers" $in $opts
				cmp -s out exp ||
				    atf_fail "${layers:-confined} $in $opts: wrong"
				made_files > made
				atf_check -o inline:'0\n' cat made
			done
		done
		# Past the 8 MiB held in memory: one file.
		cp big in
		for opts in "-n 900000" "-c 18000000" "-r" "-r -n 900000"; do
			"$(prog)" $opts big > exp
			for in in pipe fifo; do
				temp_run "$layers" $in $opts
				cmp -s out exp ||
				    atf_fail "${layers:-confined} $in $opts: wrong"
				made_files > made
				atf_check -o inline:'1\n' cat made
			done
		done
		# Two streams, one after the other: one file each.
		temp_run "$layers" fifos -q -r
		{ "$(prog)" -r big; "$(prog)" -r big; } > exp
		cmp -s out exp || atf_fail "${layers:-confined} -qr: wrong"
		made_files > made
		atf_check -o inline:'2\n' cat made
		[ -z "$(ls tmp)" ] || atf_fail "left behind: $(ls tmp)"
	done
}

atf_test_case same_buffer
same_buffer_head()
{
	atf_set descr "Confined or not, tail picks the same buffer and the" \
	    "same copy path: the same calls, of the same sizes, as with" \
	    "the kernel refusing the sandbox"
	atf_set timeout 120
}
same_buffer_body()
{
	landlock_or_skip
	lines 200000 > f
	for p in auto rw; do
		path_export $p
		# Files, as operands and on the standard input: every call.
		for opts in "-n 150000 f" "-c +5 f" "-r f" "-n 150000" "-r"; do
			both "$p" f $opts
			if ! cmp -s confined refused; then
				diff confined refused >&2
				atf_fail "$p $opts: not the same calls"
			fi
		done
		# A pipe reads as much as is there: the first read, asked
		# for the policy's buffer, and the kinds of calls.
		for opts in "-n 150000" "-r" "-c 1000000"; do
			both "$p" pipe $opts
			for t in confined refused; do
				grep '^read(0,' $t | sed 's/ = .*//' | head -n 1
				sed 's/(.*//' $t | sort -u
			done > calls
			[ $(sort -u calls | grep -c '^read(0,') = 1 ] ||
			    atf_fail "$p $opts: not the same first read"
			sort calls | uniq -u > lone
			atf_check -o empty cat lone
		done
	done
}

atf_test_case proc_file cleanup
proc_file_head()
{
	atf_set descr "-f of a /proc file (size 0, content all the same):" \
	    "shown once, not again at every look"
}
proc_file_body()
{
	[ -r /proc/self/stat ] || atf_skip "no /proc here"
	sleep 100 &
	echo $! > sleep.pid
	# Until the child has run sleep, its stat names the shell.
	wait_until grep -q '(sleep)' /proc/$!/stat ||
	    atf_fail "sleep did not start"
	timeout 2 "$(prog)" -f /proc/$!/stat > out 2> err
	kill "$(cat sleep.pid)"
	atf_check -o inline:'1\n' grep -c '(sleep)' out
	atf_check -o empty cat err
	# -F too, and a file that says 0 and has content.
	start -F /proc/self/mountinfo
	wait_until test -s out || atf_fail "nothing shown"
	sleep 1.5
	stop
	tail -n 1 /proc/self/mountinfo > last
	atf_check -o inline:'1\n' grep -c -F -x -f last out
}
proc_file_cleanup()
{
	[ -f sleep.pid ] && kill "$(cat sleep.pid)" 2>/dev/null
	cleanup_tail
}

atf_test_case sys_header cleanup
sys_header_head()
{
	atf_set descr "-f of a /sys file (its size says more than it holds)" \
	    "and a file: a header only before data"
}
sys_header_body()
{
	sys=/sys/kernel/mm/transparent_hugepage/enabled
	[ -r $sys ] || atf_skip "no $sys here"
	cat $sys > now
	echo a > n
	start -f $sys n
	{ printf '\n==> %s <==\n' $sys; cat now; printf '\n==> n <==\na\n'; } \
	    > exp
	expect exp
	for l in b c d; do
		echo $l >> n
		echo $l >> exp
		expect exp
	done
	stop
}
sys_header_cleanup()
{
	cleanup_tail
}

atf_test_case confined_rotation cleanup
confined_rotation_head()
{
	atf_set descr "-F, confined with Landlock: a file rotated away, a" \
	    "new one under its name, the name removed and made again"
}
confined_rotation_body()
{
	mkdir logs
	echo a > logs/log
	start -F logs/log
	confined_or_skip
	expect_text 'a\n'
	echo b >> logs/log
	expect_text 'a\nb\n'
	mv logs/log logs/log.1
	echo c > logs/log
	expect_text 'a\nb\nc\n'
	rm logs/log
	echo d > logs/log
	expect_text 'a\nb\nc\nd\n'
	echo e >> logs/log
	expect_text 'a\nb\nc\nd\ne\n'
	stop
	atf_check -o empty cat err
}
confined_rotation_cleanup()
{
	cleanup_tail
}

atf_test_case confined_outside cleanup
confined_outside_head()
{
	atf_set descr "-F, confined: a link operand made to lead into a" \
	    "directory the sandbox does not allow is refused and said so," \
	    "and what it leads to is never shown"
}
confined_outside_body()
{
	# The sandbox lets tail use files beneath TMPDIR, its temporary
	# files' directory (tail(1)): elsewhere must not be beneath it.
	mkdir logs elsewhere tmp
	export TMPDIR=$PWD/tmp
	echo secret > elsewhere/secret
	echo public > logs/public
	ln -s public logs/link
	start -F logs/link
	confined_or_skip
	expect_text 'public\n'
	ln -sfn ../elsewhere/secret logs/link
	wait_until grep -q . err || atf_fail "nothing said of logs/link"
	atf_check -o inline:'tail: logs/link: now leads outside the sandbox\n' \
	    cat err
	# Back inside, it is followed again.
	echo again > logs/again
	ln -sfn again logs/link
	expect_text 'public\nagain\n'
	stop
}
confined_outside_cleanup()
{
	cleanup_tail
}

atf_init_test_cases()
{
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case proc_and_sys
	atf_add_test_case confined
	atf_add_test_case spill_confined
	atf_add_test_case temp_file_needed
	atf_add_test_case same_buffer
	atf_add_test_case proc_file
	atf_add_test_case sys_header
	atf_add_test_case confined_rotation
	atf_add_test_case confined_outside
}
