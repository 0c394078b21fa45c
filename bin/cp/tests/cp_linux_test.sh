# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cp(1) of what only Linux has: files of /proc and /sys, whose
# sizes lie; copy_file_range refused between file systems; the threads
# of a tree's copy, as many as the processors cp may run on; a file
# bind-mounted, which keeps its device and inode numbers (FreeBSD's
# nullfs gives its files a device of its own, and mounts no file).  Installed
# on Linux alone (MK_LINUX_TESTS).
#

# path_env, stat_of, kernel_file_list, copies_as_read, skip_emulated:
# the suites' shared functions; prog, paths, mktree: cp's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/cp.subr"

atf_test_case proc_file
proc_file_head()
{
	atf_set "descr" "A /proc file (size 0) is copied to its end, byte-exact"
}
proc_file_body()
{
	need_faultinj
	[ -r /proc/version ] || atf_skip "no /proc/version"
	atf_check $(prog) /proc/version v
	atf_check cmp /proc/version v
	for p in $paths; do
		atf_check $(path_env $p) $(prog) /proc/version v.$p
		atf_check cmp /proc/version v.$p
	done
}

# sysfs files say 4096 bytes with no blocks, which looks sparse: the copy
# must hold what reading gives, not 4096 bytes of it and zeros.
atf_test_case sysfs_file
sysfs_file_head()
{
	atf_set "descr" "A sysfs file is copied as reading gives it, not padded"
}
sysfs_file_body()
{
	need_faultinj
	n=0
	for f in /sys/kernel/mm/transparent_hugepage/enabled \
	    /sys/devices/system/cpu/online; do
		[ -r "$f" ] || continue
		n=$((n + 1))
		cat "$f" > want.$n
		for p in auto $paths; do
			atf_check $(path_env $p) $(prog) "$f" got.$n.$p
			atf_check cmp want.$n got.$n.$p
		done
	done
	[ "$n" -gt 0 ] || atf_skip "no sysfs files here"
	d=/sys/kernel/mm/transparent_hugepage
	[ -d "$d" ] || return 0
	atf_check $(prog) -R "$d" tree
	for f in "$d"/*; do
		[ -f "$f" ] && [ -r "$f" ] || continue
		cat "$f" > want 2>/dev/null || continue
		atf_check cmp want "tree/${f##*/}"
	done
}

atf_test_case kernel_files
kernel_files_head()
{
	atf_set "descr" "Files of /proc and /sys (size 0 or 4096, whatever" \
	    "they hold) are copied as a read loop gives them, alone and by -R"
	atf_set "timeout" "300"
}
kernel_files_body()
{
	need_faultinj
	kernel_file_list > list
	[ -s list ] || atf_skip "no readable /proc or /sys files here"
	c=$(prog)
	while read -r f; do
		set --
		for p in auto $paths; do
			set -- "$@" "$(path_env $p) $c \"\$1\" got && cat got"
		done
		copies_as_read "$f" "$@" ||
		    atf_fail "$f: $car_failed differs from a read loop"
	done < list
	d=/proc/sys/kernel/random
	[ -r "$d/boot_id" ] || return 0
	atf_check $(prog) -R "$d" tree
	atf_check cmp "$d/boot_id" tree/boot_id
}

atf_test_case cfr_refused_once cleanup
cfr_refused_once_head()
{
	atf_set "descr" "Into a file system that refuses copy_file_range from" \
	    "the source's (a tmpfs), the refusal is met once a thread, not" \
	    "once a file"
}
cfr_refused_once_body()
{
	command -v strace > /dev/null || atf_skip "no strace(1) here"
	skip_emulated "$(prog)" "strace sees the emulator's calls"
	[ -d /dev/shm ] && [ -w /dev/shm ] || atf_skip "no /dev/shm here"
	t=$(mktemp -d /dev/shm/cp_test.XXXXXX) || atf_fail "mktemp"
	echo "$t" > shm
	mkdir src src/a src/b
	i=0
	while [ $i -lt 60 ]; do
		seq 1 $((i * 50)) > src/a/f$i
		seq 1 $i > src/b/g$i
		i=$((i + 1))
	done
	[ "$(stat_of dev src)" != "$(stat_of dev "$t")" ] ||
	    atf_skip "/dev/shm is on the file system of the work directory"
	# One at a time (ulimit -n 200), and with threads where there are
	# processors for them.
	for limit in "ulimit -n 200" :; do
		rm -rf "$t/dst"
		# No leak check traced: LeakSanitizer cannot run so.
		atf_check -o save:calls sh -c "$limit
		    ASAN_OPTIONS=detect_leaks=0\${ASAN_OPTIONS:+:\$ASAN_OPTIONS} \
		    strace -f -qq -o trace -e trace=copy_file_range \
		    $(prog) -R src \"$t/dst\" && grep -c '= -1 ' trace"
		atf_check diff -r src "$t/dst"
		# One for the walk and each thread at most.
		[ "$(cat calls)" -le 5 ] ||
		    atf_fail "$(cat calls) refused calls ($limit)"
	done
}
cfr_refused_once_cleanup()
{
	[ -f shm ] && rm -rf "$(cat shm)"
}

atf_test_case cfr_asked_once
cfr_asked_once_head()
{
	atf_set "descr" "copy_file_range refused between two file systems" \
	    "(EXDEV, which FreeBSD's never returns) is asked once a thread," \
	    "not once a file"
}
cfr_asked_once_body()
{
	need_faultinj
	mktree src
	for n in 1 4; do
		rm -rf dst
		atf_check $(faultinj_env FAULTINJ=copy_file_range:1+:EXDEV \
		    FAULTINJ_LOG=log FAULTINJ_NCPU=$n) "$(prog)" -R src dst
		atf_check diff -r src dst
		calls=$(awk '$1 == "copy_file_range.calls" { print $2 }' log)
		[ "$calls" -ge 1 ] && [ "$calls" -le $((n + 1)) ] ||
		    atf_fail "$calls calls of copy_file_range with $n threads"
	done
}

atf_test_case source_bind_mounted cleanup
source_bind_mounted_head()
{
	atf_set "descr" "A target bind-mounted on the source (the same device" \
	    "and inode numbers) is refused"
	atf_set "require.user" "root"
}
source_bind_mounted_body()
{
	seq 1 100000 > f
	cat f > keep
	: > g
	need_bind_mount
	if ! bind_mount f g 2>/dev/null; then
		atf_skip "cannot bind-mount a file here"
	fi
	$(prog) f g 2>err
	r=$?
	umount g
	atf_check_equal 1 $r
	atf_check -o inline:"cp: g and f are identical (not copied).\n" cat err
	atf_check cmp f keep
}
source_bind_mounted_cleanup()
{
	umount g 2>/dev/null || true
}

# threads_of CMD...: how many threads CMD started, as strace(1) saw them
# (no leak check traced: LeakSanitizer cannot run so).
threads_of()
{
	ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
	    strace -f -qq -o trace -e trace=clone,clone3 "$@" > /dev/null ||
	    atf_fail "$* failed"
	grep -c 'clone.*= [1-9]' trace
}

atf_test_case threads_follow_affinity
threads_follow_affinity_head()
{
	atf_set "descr" "cp copies a tree with a thread for each processor" \
	    "it may run on (sched_getaffinity), not each the machine has"
}
threads_follow_affinity_body()
{
	command -v taskset > /dev/null || atf_skip "no taskset(1) here"
	command -v strace > /dev/null || atf_skip "no strace(1) here"
	skip_emulated "$(prog)" "strace sees the emulator's threads"
	# Every run is traced, the injector's too.
	ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
	mktree src
	# The processors this shell may run on, one a line.
	taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' | awk -F- '
	    { for (i = $1; i <= ($2 == "" ? $1 : $2); i++) print i }' > cpus
	one=$(sed -n 1p cpus)
	atf_check_equal 0 "$(threads_of taskset -c "$one" "$(prog)" -R src d1)"
	atf_check diff -r src d1
	[ "$(wc -l < cpus)" -ge 2 ] ||
	    atf_skip "this process may run on one processor only"
	two=$(sed -n 1,2p cpus | paste -sd, -)
	atf_check_equal 2 "$(threads_of taskset -c "$two" "$(prog)" -R src d2)"
	atf_check diff -r src d2
	# The fault injector's count stands for the mask.
	need_faultinj
	atf_check_equal 3 "$(threads_of taskset -c "$one" $(path_env auto) \
	    FAULTINJ_NCPU=3 \
	    "$(prog)" -R src d3)"
	atf_check diff -r src d3
}

atf_init_test_cases()
{
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case proc_file
	atf_add_test_case sysfs_file
	atf_add_test_case kernel_files
	atf_add_test_case cfr_refused_once
	atf_add_test_case cfr_asked_once
	atf_add_test_case source_bind_mounted
	atf_add_test_case threads_follow_affinity
}
