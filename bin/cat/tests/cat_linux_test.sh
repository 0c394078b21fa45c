# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cat(1) of what only Linux has: files of /proc and /sys, whose
# sizes lie; a pipe the writer may grow (F_SETPIPE_SZ); cat confined with
# Landlock; a bind mount, whose files keep their device and inode numbers
# (FreeBSD's nullfs gives them a device of its own).  Installed on Linux alone (MK_LINUX_TESTS).
#

LC_ALL=C
export LC_ALL

# path_env, kernel_file_list, copies_as_read, need_landlock: the suites'
# shared functions; prog, PATHS, random_file: cat's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/cat.subr"

atf_test_case proc_file
proc_file_head()
{
	atf_set descr "/proc files (size 0, but content) are copied whole"
}
proc_file_body()
{
	need_faultinj
	[ -r /proc/version ] || atf_skip "no /proc/version"
	dd if=/proc/version of=ref bs=65536 2>/dev/null
	[ -s ref ] || atf_fail "could not read /proc/version"
	for p in auto $PATHS; do
		$(path_env $p) "$(prog)" /proc/version > out ||
		    atf_fail "path $p failed"
		atf_check cmp ref out
		atf_check -o file:ref -x "$(path_env $p) $(prog) /proc/version | cat"
	done
	dd if=/proc/filesystems of=ref bs=65536 2>/dev/null
	atf_check -o file:ref "$(prog)" /proc/filesystems
	# sysfs files claim 4096 bytes and hold fewer.
	for f in /sys/kernel/mm/transparent_hugepage/enabled \
	    /sys/devices/system/cpu/online; do
		[ -r $f ] || continue
		dd if=$f of=ref bs=65536 2>/dev/null
		for p in auto $PATHS; do
			atf_check -o file:ref -x "$(path_env $p) $(prog) $f"
			atf_check -o file:ref -x "$(path_env $p) $(prog) $f | cat"
		done
	done
}

atf_test_case kernel_files
kernel_files_head()
{
	atf_set descr "Files of /proc and /sys (size 0 or 4096, whatever" \
	    "they hold) come out as a read loop gives them, into a pipe" \
	    "and into a file, on every path"
	atf_set timeout 300
}
kernel_files_body()
{
	need_faultinj
	kernel_file_list > list
	[ -s list ] || atf_skip "no readable /proc or /sys files here"
	c=$(prog)
	while read -r f; do
		set --
		for p in auto $PATHS; do
			set -- "$@" "$(path_env $p) $c \"\$1\" | cat" \
			    "$(path_env $p) $c \"\$1\""
		done
		copies_as_read "$f" "$@" ||
		    atf_fail "$f: $car_failed differs from a read loop"
	done < list
}

atf_test_case pipe_grown
pipe_grown_head()
{
	atf_set descr "On Linux a file spliced into a pipe grows the pipe to" \
	    "256 KiB, never shrinks it, and leaves it alone for a small" \
	    "file or a copying path; the bytes are the file's"
}
pipe_grown_body()
{
	command -v python3 > /dev/null ||
	    atf_skip "python3 is needed to make and measure the pipe"
	[ "$(cat /proc/sys/fs/pipe-max-size)" -ge 1048576 ] ||
	    atf_skip "pipe-max-size is below 1 MiB here"
	# piped.py PRESIZE CMD...: CMD with stdout a fresh pipe (grown to
	# PRESIZE first unless 0), read into ./got; prints the bytes read
	# and the pipe's size once CMD has exited ("default" for a fresh
	# pipe's size).
	cat > piped.py <<'PYEOF'
import fcntl, os, subprocess, sys
GET = getattr(fcntl, "F_GETPIPE_SZ", 1032)
SET = getattr(fcntl, "F_SETPIPE_SZ", 1031)
r, w = os.pipe()
default = fcntl.fcntl(w, GET)
if int(sys.argv[1]):
    fcntl.fcntl(w, SET, int(sys.argv[1]))
p = subprocess.Popen(sys.argv[2:], stdout=w)
os.close(w)
with open("got", "wb") as out:
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        out.write(b)
if p.wait() != 0:
    sys.exit("command failed")
size = fcntl.fcntl(r, GET)
print(os.path.getsize("got"), "default" if size == default else size)
PYEOF
	dd if=/dev/urandom of=big bs=1024 count=1024 2>/dev/null
	dd if=/dev/urandom of=small bs=1024 count=4 2>/dev/null
	atf_check -o inline:"1048576 262144\n" python3 piped.py 0 "$(prog)" big
	atf_check cmp got big
	atf_check -o inline:"4096 default\n" python3 piped.py 0 "$(prog)" small
	atf_check cmp got small
	atf_check -o inline:"1048576 1048576\n" \
	    python3 piped.py 1048576 "$(prog)" big
	atf_check cmp got big
	# Several files: grown once the big one comes.
	atf_check -o inline:"1052672 262144\n" \
	    python3 piped.py 0 "$(prog)" small big
	cat small big > both
	atf_check cmp got both
	# tail from a position goes through the same engine.
	atf_check -o inline:"1048575 262144\n" python3 piped.py 0 \
	    "$(atf_config_get rootdir '')/usr/bin/tail" -c +2 big
	tail -c +2 big > want
	atf_check cmp got want
}

atf_test_case sandbox_entered
sandbox_entered_head()
{
	atf_set descr "cat confines itself with Landlock on Linux" \
	    "(no_new_privs set)"
	atf_set timeout 120
}
sandbox_entered_body()
{
	printf 'a\n' > a
	need_landlock "$(prog)"
	mkfifo fifo
	"$(prog)" a fifo > out &
	pid=$!
	# Our open returns once cat, confined by then, opened the FIFO.
	exec 3> fifo
	grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$pid/status ||
	    atf_fail "cat runs without no_new_privs: not sandboxed"
	exec 3>&-
	wait $pid || atf_fail "cat failed"
	atf_check -o inline:'a\n' cat out
	# More operands than a soft limit of 64 descriptors: none is
	# held open before its turn, and cat is confined all the same.
	set --
	while [ $# -lt 100 ]; do
		set -- "$@" a
	done
	(ulimit -S -n 64 && exec "$(prog)" "$@" fifo > out) &
	pid=$!
	exec 3> fifo
	grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$pid/status ||
	    atf_fail "cat of 100 operands, soft limit 64: not sandboxed"
	exec 3>&-
	wait $pid || atf_fail "cat failed"
	atf_check -o inline:'100\n' -x "grep -c '^a$' out"
}

atf_test_case sandbox_not_given
sandbox_not_given_head()
{
	atf_set descr "A confined cat cannot open a file it was not given"
	atf_set timeout 120
}
sandbox_not_given_body()
{
	not_given
}

atf_test_case sandbox_not_given_unprivileged
sandbox_not_given_unprivileged_head()
{
	atf_set descr "An unprivileged cat confines itself all the same"
	atf_set require.user unprivileged
	atf_set timeout 120
}
sandbox_not_given_unprivileged_body()
{
	not_given
}

atf_test_case same_file_bind_mount
same_file_bind_mount_head()
{
	atf_set descr "The same file seen through a bind mount, which keeps" \
	    "its device and inode numbers, is refused"
	atf_set require.user root
	atf_set timeout 120
}
same_file_bind_mount_body()
{
	need_bind_mount
	mkdir a b
	random_file a/f 3145739
	cp a/f orig
	# The mount lives only as long as a private namespace.
	command -v unshare > /dev/null ||
	    atf_skip "no unshare(1) to bind-mount in a private namespace"
	unshare -m true 2>/dev/null ||
	    atf_skip "cannot make a private mount namespace here"
	for opt in "" -n; do
		atf_check -s exit:1 \
		    -e inline:'cat: b/f: input file is output file\n' \
		    unshare -m sh -c "mount --bind a b && $(prog) $opt b/f >> a/f"
		atf_check cmp orig a/f
	done
}

# A file outside the operands' directories, put behind an operand's name
# once cat is confined, was not given to it: cat must not be able to open
# it (as root too, whom no permission stops), and says why.
not_given()
{
	need_landlock "$(prog)"
	mkdir sub
	mkfifo sub/fifo
	ln -s fifo sub/link
	printf 'secret\n' > secret
	"$(prog)" sub/fifo sub/link > out 2> err &
	pid=$!
	exec 3> sub/fifo
	# cat is confined and reading fifo; link now leads out of sub.
	ln -sfn ../secret sub/link
	printf 'a\n' >&3
	exec 3>&-
	wait $pid && atf_fail "cat read a file it was not given"
	atf_check -o inline:'a\n' cat out
	atf_check -o inline:'cat: sub/link: now leads outside the sandbox\n' \
	    cat err
}

atf_init_test_cases()
{
	atf_add_test_case proc_file
	atf_add_test_case kernel_files
	atf_add_test_case pipe_grown
	atf_add_test_case sandbox_entered
	atf_add_test_case sandbox_not_given
	atf_add_test_case sandbox_not_given_unprivileged
	atf_add_test_case same_file_bind_mount
}
