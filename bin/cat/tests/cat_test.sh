# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cat(1): every option and the combinations people type, every
# error, the kinds of input (pipes, FIFOs, sockets, devices, files
# past 4 GiB) and each of the engine's copy paths forced in turn.
#

# The byte forms of -v are the C locale's; v_multibyte sets its own.
LC_ALL=C
export LC_ALL

# Every byte but tab and newline, then a newline.
all_bytes()
{
	fmt=
	i=0
	while [ $i -lt 256 ]; do
		[ $i -ne 9 ] && [ $i -ne 10 ] && fmt="$fmt\\$(printf %03o $i)"
		i=$((i + 1))
	done
	printf "$fmt\\n"
}

# wait_until, info_signal, sparse_file: the suites' shared functions;
# prog, PATHS, random_file: cat's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/cat.subr"

atf_test_case plain
plain_head()
{
	atf_set descr "Without options the bytes are copied unchanged, NULs too"
}
plain_body()
{
	printf 'one\000two\n\000\377\200three' > in
	atf_check -o file:in "$(prog)" in
	printf 'one\000two\n\000\377\200threeone\000two\n\000\377\200three' \
	    > twice
	atf_check -o file:twice "$(prog)" in in
	: > empty
	atf_check -o empty "$(prog)" empty
}

atf_test_case operands_in_order
operands_in_order_head()
{
	atf_set descr "Operands are written in command-line order"
}
operands_in_order_body()
{
	printf 'a\n' > a
	printf 'b\n' > b
	printf 'c' > c
	atf_check -o inline:"b\nc" "$(prog)" b c
	atf_check -o inline:"a\nb\nca\n" "$(prog)" a b c a
}

atf_test_case stdin
stdin_head()
{
	atf_set descr "No operand and '-' read the standard input"
}
stdin_body()
{
	printf 'a\n' > a
	printf 'b\n' > b
	printf 'in\n' > in
	atf_check -o inline:"in\n" "$(prog)" < in
	atf_check -o inline:"in\n" "$(prog)" - < in
	atf_check -o inline:"a\nin\nb\n" "$(prog)" a - b < in
	# A second '-' finds the standard input at its end.
	atf_check -o inline:"in\na\n" "$(prog)" - a - < in
	atf_check -o inline:"in\n" -x "printf 'in\n' | $(prog)"
	atf_check -o inline:"     1\tin\n" -x "printf 'in\n' | $(prog) -n -"
}

atf_test_case options_after_operand
options_after_operand_head()
{
	atf_set descr "Option parsing stops at the first operand; -- ends it"
}
options_after_operand_body()
{
	printf 'a\n' > a
	atf_check -s exit:1 -o inline:"a\n" \
	    -e inline:"cat: -n: No such file or directory\n" "$(prog)" a -n
	printf 'dash\n' > -n
	atf_check -o inline:"dash\n" "$(prog)" -- -n
	# Every later word is an operand, "-" and "--" too, whatever the
	# environment says to glibc's getopt.
	printf 'in\n' > in
	atf_check -s exit:1 -o inline:"a\nin\ndash\n" \
	    -e inline:"cat: -v: No such file or directory\ncat: --: No such file or directory\n" \
	    -x "unset POSIXLY_CORRECT; $(prog) a -v - -- -n < in"
}

atf_test_case b_flag
b_flag_head()
{
	atf_set descr "-b numbers the non-blank lines only"
}
b_flag_body()
{
	printf 'a\n\nb\n\n\nc\n' > in
	printf '     1\ta\n\n     2\tb\n\n\n     3\tc\n' > exp
	atf_check -o file:exp "$(prog)" -b in
}

atf_test_case e_flag
e_flag_head()
{
	atf_set descr "-e shows line ends as \$ and implies -v"
}
e_flag_body()
{
	printf 'a\tb\n\001c\n\177\n\nlast' > in
	atf_check -o inline:'a\tb$\n^Ac$\n^?$\n$\nlast' "$(prog)" -e in
}

atf_test_case n_flag
n_flag_head()
{
	atf_set descr "-n numbers every line, blank ones too"
}
n_flag_body()
{
	printf 'a\n\nb\n' > in
	atf_check -o inline:'     1\ta\n     2\t\n     3\tb\n' "$(prog)" -n in
	# The field widens past six digits rather than wrapping.
	awk 'BEGIN { for (i = 1; i <= 1000001; i++) print "" }' > many
	atf_check -o inline:'1000001\t\n' -x "$(prog) -n many | tail -n 1"
	atf_check -o inline:' 99999\t\n' -x "$(prog) -n many | sed -n 99999p"
	# Every number, each carry of the count included, as printf has it.
	awk '{ printf "%6d\t%s\n", NR, $0 }' many > want
	atf_check -o file:want "$(prog)" -n many
}

atf_test_case numbering_restarts
numbering_restarts_head()
{
	atf_set descr "BSD numbering: -n and -b start again at 1 with each file"
}
numbering_restarts_body()
{
	printf 'a\nb\n' > ab
	printf 'c\n\nd\n' > cd
	printf '     1\ta\n     2\tb\n     1\tc\n     2\t\n     3\td\n' > exp
	atf_check -o file:exp "$(prog)" -n ab cd
	printf '     1\ta\n     2\tb\n     1\tc\n\n     2\td\n' > exp
	atf_check -o file:exp "$(prog)" -b ab cd
	# Each file begins a line of its own, even after one without \n.
	printf 'x' > x
	atf_check -o inline:'     1\tx     1\tx' "$(prog)" -n x x
	# Standard input read twice is numbered afresh too.
	atf_check -o inline:'     1\ta\n     2\tb\n     1\ta\n     2\tb\n' \
	    -x "$(prog) -n - ab < ab"
}

atf_test_case s_flag
s_flag_head()
{
	atf_set descr "-s squeezes runs of empty lines to one"
}
s_flag_body()
{
	printf '\n\n\na\n\n\n\nb\n\n' > in
	atf_check -o inline:'\na\n\nb\n\n' "$(prog)" -s in
	# A line of blanks is not empty.
	printf 'a\n \n \n\n\nb\n' > sp
	atf_check -o inline:'a\n \n \n\nb\n' "$(prog)" -s sp
	# The squeezing starts afresh with each file, as numbering does.
	printf 'a\n\n\n' > tail_blank
	printf '\n\nb\n' > head_blank
	atf_check -o inline:'a\n\n\nb\n' "$(prog)" -s tail_blank head_blank
}

atf_test_case t_flag
t_flag_head()
{
	atf_set descr "-t shows tabs as ^I and implies -v"
}
t_flag_body()
{
	printf 'a\tb\n\001c\n\177\n' > in
	atf_check -o inline:'a^Ib\n^Ac\n^?\n' "$(prog)" -t in
}

atf_test_case u_flag
u_flag_head()
{
	atf_set descr "-u writes what it reads before waiting for more input"
	atf_set timeout 120
}
u_flag_body()
{
	for opts in -u -un; do
		rm -f in out
		mkfifo in out
		"$(prog)" $opts in > out &
		pid=$!
		exec 4< out
		exec 3> in
		printf 'one\n' >&3
		# Without -u the line would wait for the end of input: hang.
		timeout 30 head -n 1 <&4 > got || atf_fail "$opts held its output"
		case $opts in
		-u)	printf 'one\n' > exp ;;
		*)	printf '     1\tone\n' > exp ;;
		esac
		atf_check -o file:exp cat got
		# Let cat see its end of input and leave before the reader goes.
		exec 3>&-
		wait $pid || atf_fail "cat $opts exited $?"
		exec 4<&-
	done
	printf 'a\n\tb\n' > plain
	atf_check -o file:plain "$(prog)" -u plain
	atf_check -o inline:'     1\ta\n     2\t^Ib\n' "$(prog)" -unt plain
}

# shown_so_far FILE: whether ./shown begins with FILE's bytes.
shown_so_far()
{
	head -c "$(wc -c < "$1")" shown | cmp -s - "$1"
}

# on_script_pty MODE OPTION: formatting_at_terminal's tty and typed modes
# (see driver.py there) through script(1): cat with OPTION on a terminal
# whose output is not processed, each line shown before the next is
# written.  For the BSDs, whose base has script(1) and no python3.
on_script_pty()
{
	rm -f keys in ready shown want
	mkfifo keys in
	if [ $1 = tty ]; then
		cmd='exec "$0" "$@" < in'
	else
		cmd='exec "$0" "$@"'
	fi
	timeout 120 script -q /dev/null sh -c \
	    "stty -echo -opost && : > ready && $cmd" "$(prog)" $2 \
	    < keys > shown &
	pid=$!
	# Held open, lest script take the end of its input for ^D.
	exec 3> keys
	wait_until test -e ready || atf_fail "$1: the terminal did not start"
	if [ $1 = tty ]; then
		exec 4> in
		to=4
	else
		to=3
	fi
	: > want
	for n in 1 2; do
		case $n$2 in
		1-A)	line='one\001\ttab\n' out='one^A^Itab$\n' ;;
		1-n)	line='one\001\ttab\n' out='     1\tone\001\ttab\n' ;;
		2-A)	line='two\n' out='two$\n' ;;
		2-n)	line='two\n' out='     2\ttwo\n' ;;
		esac
		printf "$line" >&$to
		printf "$out" >> want
		wait_until shown_so_far want ||
		    atf_fail "$1, cat $2: line $n not shown while the input" \
		    "is open: $(od -c shown)"
	done
	if [ $1 = tty ]; then
		exec 4>&-
	else
		printf '\004' >&3
	fi
	exec 3>&-
	wait $pid || atf_fail "$1, cat $2: exited $?"
	cmp -s want shown || atf_fail "$1, cat $2: shown $(od -c shown)"
}

atf_test_case formatting_at_terminal
formatting_at_terminal_head()
{
	atf_set descr "With formatting options and a terminal as output, each" \
	    "line shows as soon as it is read; pipes still get large writes"
	atf_set timeout 300
}
formatting_at_terminal_body()
{
	if ! command -v python3 > /dev/null ||
	    ! python3 -c 'import pty, termios' 2>/dev/null; then
		[ "$(uname -s)" != Linux ] && command -v script > /dev/null ||
		    atf_skip "neither python3's pty nor script(1) to drive" \
		    "a terminal"
		for opt in -A -n; do
			for mode in tty typed; do
				on_script_pty $mode $opt
			done
		done
		return
	fi
	# driver.py mode cat [option ...], with the modes:
	#   tty:   stdin a pipe, stdout a terminal (tail -f log | cat -v): each
	#          line must show before the input is closed
	#   typed: stdin and stdout one terminal, as typed; ^D ends it
	#   pipe:  stdin and stdout pipes: once cat has read a line and waits
	#          for more, nothing may have been written (seen in Linux's
	#          /proc/PID/io and wchan; not tried elsewhere)
	cat > driver.py <<'EOF'
import errno, os, pty, select, sys, termios, time

GUARD = 60      # seconds: a hang guard, not a timing assertion

def fail(msg):
    sys.stderr.write(msg + "\n")
    sys.exit(1)

def expect(fd, want, got=b""):
    while want not in got:
        if not select.select([fd], [], [], GUARD)[0]:
            fail("not shown while the input is open: %r, got %r" %
                (want, got))
        try:
            b = os.read(fd, 65536)
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            b = b""
        if not b:
            fail("cat ended before showing %r, got %r" % (want, got))
        got += b
    return got[got.index(want) + len(want):]

def raw_output(tty):
    a = termios.tcgetattr(tty)
    a[1] &= ~termios.OPOST          # no \n -> \r\n
    a[3] &= ~termios.ECHO           # what is typed is not echoed
    termios.tcsetattr(tty, termios.TCSANOW, a)

def spawn(argv, stdin, stdout):
    pid = os.fork()
    if pid == 0:
        os.dup2(stdin, 0)
        os.dup2(stdout, 1)
        os.execv(argv[0], argv)
    return pid

def finish(pid):
    _, status = os.waitpid(pid, 0)
    if status != 0:
        fail("cat exited with status %#x" % status)

def waiting_for_more(pid, before, n):
    # cat has read n more bytes and sleeps in a pipe read again.
    for _ in range(GUARD * 10):
        with open("/proc/%d/io" % pid) as f:
            rchar = int(f.readline().split()[1])
        with open("/proc/%d/wchan" % pid) as f:
            wchan = f.read()
        if rchar >= before + n and "pipe_read" in wchan:
            return
        time.sleep(0.1)
    fail("cat did not read its input")

def rchar(pid):
    with open("/proc/%d/io" % pid) as f:
        return int(f.readline().split()[1])

mode, argv = sys.argv[1], sys.argv[2:]
lines = [b"one\x01\ttab\n", b"two\n"]
if "-A" in argv:
    want = [b"one^A^Itab$\n", b"two$\n"]
else:
    want = [b"     1\tone\x01\ttab\n", b"     2\ttwo\n"]
if mode == "tty":
    master, slave = pty.openpty()
    raw_output(slave)
    r, w = os.pipe()
    pid = spawn(argv, r, slave)
    os.close(r); os.close(slave)
    rest = b""
    for line, out in zip(lines, want):
        os.write(w, line)
        rest = expect(master, out, rest)
    os.close(w)
    finish(pid)
elif mode == "typed":
    master, slave = pty.openpty()
    raw_output(slave)
    pid = spawn(argv, slave, slave)
    os.close(slave)
    rest = b""
    for line, out in zip(lines, want):
        os.write(master, line)
        rest = expect(master, out, rest)
    os.write(master, b"\x04")
    finish(pid)
elif mode == "pipe":
    r, w = os.pipe()
    outr, outw = os.pipe()
    pid = spawn(argv, r, outw)
    os.close(r); os.close(outw)
    os.set_blocking(outr, False)
    for line in lines:
        before = rchar(pid)
        os.write(w, line)
        waiting_for_more(pid, before, len(line))
        try:
            b = os.read(outr, 65536)
            fail("wrote %r to a pipe before its input ended" % b)
        except BlockingIOError:
            pass
    os.close(w)
    os.set_blocking(outr, True)
    got = b""
    while True:
        b = os.read(outr, 65536)
        if not b:
            break
        got += b
    if got != b"".join(want):
        fail("got %r" % got)
    finish(pid)
EOF
	modes="tty typed"
	[ -r /proc/self/wchan ] && modes="$modes pipe"
	for opt in -A -n; do
		for mode in $modes; do
			atf_check -o ignore python3 driver.py $mode "$(prog)" $opt
		done
	done
}

atf_test_case v_flag
v_flag_head()
{
	atf_set descr "-v shows every byte as ^X, ^? and M- forms"
}
v_flag_body()
{
	all_bytes > in
	# The table, cut into lines here only to fit the page.
	tr -d '\n' > exp <<'EOF'
^@^A^B^C^D^E^F^G^H^K^L^M^N^O^P^Q^R^S^T^U^V^W^X^Y^Z^[^\^]^^^_ !"#
$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abc
defghijklmnopqrstuvwxyz{|}~^?M-^@M-^AM-^BM-^CM-^DM-^EM-^FM-^GM-^
HM-^IM-^JM-^KM-^LM-^MM-^NM-^OM-^PM-^QM-^RM-^SM-^TM-^UM-^VM-^WM-^
XM-^YM-^ZM-^[M-^\M-^]M-^^M-^_M- M-!M-"M-#M-$M-%M-&M-'M-(M-)M-*M-
+M-,M--M-.M-/M-0M-1M-2M-3M-4M-5M-6M-7M-8M-9M-:M-;M-<M-=M->M-?M-@
M-AM-BM-CM-DM-EM-FM-GM-HM-IM-JM-KM-LM-MM-NM-OM-PM-QM-RM-SM-TM-UM
-VM-WM-XM-YM-ZM-[M-\M-]M-^M-_M-`M-aM-bM-cM-dM-eM-fM-gM-hM-iM-jM-
kM-lM-mM-nM-oM-pM-qM-rM-sM-tM-uM-vM-wM-xM-yM-zM-{M-|M-}M-~M-^?
EOF
	echo >> exp
	atf_check -o file:exp "$(prog)" -v in
	# Tabs and newlines pass through -v untouched.
	printf 'a\tb\n' > tab
	atf_check -o file:tab "$(prog)" -v tab
}

atf_test_case v_multibyte
v_multibyte_head()
{
	atf_set descr "-v in UTF-8 passes printable characters whole"
}
v_multibyte_body()
{
	use_utf8
	# e-acute, the euro sign, a stray byte, U+0085 (not printable), and
	# a character cut short by the end of the file.
	printf 'caf\303\251 \342\202\254 \377 \302\205 x\303' > in
	atf_check -o inline:'caf\0303\0251 \0342\0202\0254 M-^? M-^E xM-C' \
	    "$(prog)" -v in
	# Without -v nothing is decoded.
	atf_check -o file:in "$(prog)" in
	# A character cut by the end of a 4 KiB buffer is put back together.
	awk 'BEGIN { for (i = 0; i < 4095; i++) printf "a" }' > edge
	printf '\303\251\342\202\254\n' >> edge
	atf_check -o file:edge -x "$(prog) -B 4096 -v edge"
	atf_check -o file:edge -x "$(prog) -B 4096 -v - < edge"
}

atf_test_case v_multibyte_confined
v_multibyte_confined_head()
{
	atf_set descr "-v in a locale whose conversion glibc loads lazily" \
	    "(EUC-JP, from a gconv module) works in the sandbox too"
	atf_set timeout 120
}
v_multibyte_confined_body()
{
	use_eucjp
	# Hiragana A, printable: whole, not M-$M-".
	printf '\244\242 x\n' > in
	atf_check -o file:in -x \
	    "$eucjp $(prog) -v in"
}

atf_test_case v_eucjp
v_eucjp_head()
{
	atf_set descr "-v in EUC-JP: two-byte characters whole each time" \
	    "they come, and bytes that begin none, alone or before one that" \
	    "cannot follow, in their M- forms"
	atf_set timeout 120
}
v_eucjp_body()
{
	use_eucjp
	# Hiragana A twice; a lead byte before 'A'; 0x80, which begins
	# nothing, and 0x85, a character of its own that is not printable;
	# a lead byte before a tab; a lead byte the file cuts.
	printf '\244\242\244\242\241A\200\205\244\tx\n\244' > in
	printf '\244\242\244\242M-!AM-^@M-^EM-$\tx\nM-$' > want
	# FreeBSD's libc takes any byte after a lead byte for a character's
	# second: 'A' and the tab are shown as FreeBSD's cat shows the
	# unprintable characters they end.
	[ "$(uname -s)" != FreeBSD ] ||
	    printf '\244\242\244\242M-AM-^@M-^EM-^Ix\nM-$' > want
	atf_check -o file:want -x \
	    "$eucjp $(prog) -v in"
	# The same, read one byte at a time: cut inside every pair.
	atf_check -o file:want -x "{ for b in '\\244' '\\242' '\\244' \
	    '\\242' '\\241' A '\\200' '\\205' '\\244' '\\tx\\n' '\\244'; do \
	    printf \"\$b\"; sleep 0.1; done; } |
	    $eucjp $(prog) -v"
}

# A ja_JP.EUC-JP locale for cat's C library, or skip: built here, or
# FreeBSD's ja_JP.eucJP where it is installed; eucjp is the environment
# that selects it.
use_eucjp()
{
	# An installed one first (FreeBSD's base has it), whose C library
	# may know no LOCPATH; else one built here, which glibc's LOCPATH
	# lets be used without root.
	mkdir loc
	if [ -d /usr/share/locale/ja_JP.eucJP ]; then
		eucjp="LC_ALL= LC_CTYPE=ja_JP.eucJP"
	elif localedef -i ja_JP -f EUC-JP loc/ja_JP.EUC-JP > /dev/null 2>&1
	then
		eucjp="LOCPATH=$PWD/loc LC_ALL=ja_JP.EUC-JP"
	else
		atf_skip "cannot build a ja_JP.EUC-JP locale with localedef," \
		    "and none is installed"
	fi
	# Asked of the C library cat is built with: musl has UTF-8 only.
	case $(env $eucjp \
	    "$(atf_config_get rootdir '')/usr/tests/common/charmap" \
	    2>/dev/null) in
	EUC-JP|eucJP)	;;
	*)	atf_skip "cat's C library does not load the ja_JP.EUC-JP" \
		    "locale ($eucjp)" ;;
	esac
}

# LC_ALL=C.UTF-8 for the case, or skip where cat's C library lacks it.
use_utf8()
{
	LC_ALL=C.UTF-8
	export LC_ALL
	# Asked of the C library cat is built with, not of locale(1)'s.
	[ "$("$(atf_config_get rootdir '')/usr/tests/common/charmap" \
	    2>/dev/null)" = UTF-8 ] ||
	    atf_skip "cat's C library has no C.UTF-8 locale"
}

# Each byte's form in the C locale: what -v must show, in UTF-8 too, of
# bytes that begin no character.
bytewise()
{
	LC_ALL=C "$(prog)" "$@"
}

atf_test_case v_utf8_rfc3629
v_utf8_rfc3629_head()
{
	atf_set descr "-v in UTF-8 shows each byte of a sequence that" \
	    "RFC 3629 does not allow in its own M- form"
}
v_utf8_rfc3629_body()
{
	use_utf8
	printf 'a\370\210\200\200\200b\n' > in
	atf_check -o inline:'aM-xM-^HM-^@M-^@M-^@b\n' "$(prog)" -v in
	printf 'a\364\220\200\200b\n' > in
	atf_check -o inline:'aM-tM-^PM-^@M-^@b\n' "$(prog)" -v in
	printf '\375\277\277\277\277\277\n' > in
	atf_check -o inline:'M-}M-?M-?M-?M-?M-?\n' "$(prog)" -v in

	# The family, a line each: 5 and 6-byte forms, every lead byte
	# past F4, values past U+10FFFF, overlong forms of each length,
	# surrogates, lone continuation bytes, and characters cut short
	# by a newline.  No byte of these begins a character.
	: > in
	for s in '\370\210\200\200\200' '\370\200\200\200\200' \
	    '\373\277\277\277\277' '\374\204\200\200\200\200' \
	    '\374\200\200\200\200\200' '\375\277\277\277\277\277' \
	    '\376\200\200\200\200\200\200' '\377\277\277\277\277\277\277' \
	    '\364\220\200\200' '\364\277\277\277' '\365\200\200\200' \
	    '\366\200\200\200' '\367\277\277\277' \
	    '\300\200' '\300\257' '\301\277' \
	    '\340\200\200' '\340\237\277' \
	    '\360\200\200\200' '\360\217\277\277' \
	    '\355\240\200' '\355\257\277' '\355\260\200' '\355\277\277' \
	    '\200' '\277' '\200\200\200\200' 'x\251y' \
	    '\303' '\342\202' '\360\237\230' '\364\217\277' '\303x' \
	    '\342\202x' '\360\237\230x'; do
		printf "$s\\n" >> in
	done
	bytewise -v in > want
	# The C locale's forms are bytewise: no line may keep a byte as is.
	LC_ALL=C grep -q "$(printf '[\200-\377]')" want && atf_fail "bad oracle"
	atf_check -o file:want "$(prog)" -v in
	# The same with no newline after the last one, at the end.
	printf '\370\210\200\200\200\342\202' > in
	atf_check -o inline:'M-xM-^HM-^@M-^@M-^@M-bM-^B' "$(prog)" -v in
	printf '\360\237\230' > in
	atf_check -o inline:'M-pM-^_M-^X' "$(prog)" -v in
	# A character right after a byte that begins none is still whole.
	printf '\370\303\251\355\240\200\342\202\254\364\220\360\237\230\200\n' \
	    > in
	atf_check -o inline:'M-x\0303\0251M-mM- M-^@\0342\0202\0254M-tM-^P\0360\0237\0230\0200\n' \
	    "$(prog)" -v in
	printf '\342\302\251 \360\303\251 \355\342\202\254\n' > in
	atf_check -o inline:'M-b\0302\0251 M-p\0303\0251 M-m\0342\0202\0254\n' \
	    "$(prog)" -v in
}

atf_test_case v_utf8_valid
v_utf8_valid_head()
{
	atf_set descr "-v in UTF-8 takes every RFC 3629 character whole," \
	    "from the least to the greatest of each length"
}
v_utf8_valid_body()
{
	use_utf8
	# Printable in every C library's tables.
	printf 'caf\303\251 \344\270\255 \360\220\215\210 \360\237\230\200\n' \
	    > in
	atf_check -o file:in "$(prog)" -v in
	# C1 controls, not printable anywhere: the M- form of the low bits.
	printf '\302\200 \302\237\n' > in
	atf_check -o inline:'M-^@ M-^_\n' "$(prog)" -v in
	# The bounds of each length and around the surrogates, which C
	# libraries class differently: the character whole, or the one
	# M- form of its low seven bits, never a form per byte.
	for c in '\337\277 M-^?' '\340\240\200 M-^@' '\355\237\277 M-^?' \
	    '\356\200\200 M-^@' '\357\277\277 M-^?' '\360\220\200\200 M-^@' \
	    '\364\217\277\277 M-^?'; do
		printf "<${c% *}>\\n" > in
		printf "<${c#* }>\\n" > alt
		"$(prog)" -v in > out || atf_fail "cat -v failed"
		cmp -s out in || cmp -s out alt ||
		    atf_fail "${c% *} shown as $(cat out)"
	done
}

atf_test_case v_utf8_implied
v_utf8_implied_head()
{
	atf_set descr "-e, -t and -A show invalid UTF-8 bytewise as -v does"
}
v_utf8_implied_body()
{
	use_utf8
	printf 'a\370\210\200\200\200\t\303\251\364\220\200\200b\n' > in
	atf_check -o inline:'aM-xM-^HM-^@M-^@M-^@\t\0303\0251M-tM-^PM-^@M-^@b$\n' \
	    "$(prog)" -e in
	atf_check -o inline:'aM-xM-^HM-^@M-^@M-^@^I\0303\0251M-tM-^PM-^@M-^@b\n' \
	    "$(prog)" -t in
	atf_check -o inline:'aM-xM-^HM-^@M-^@M-^@^I\0303\0251M-tM-^PM-^@M-^@b$\n' \
	    "$(prog)" -A in
	atf_check -o inline:'     1\taM-xM-^HM-^@M-^@M-^@^I\0303\0251M-tM-^PM-^@M-^@b$\n' \
	    "$(prog)" -nA in
}

atf_test_case v_utf8_cut
v_utf8_cut_head()
{
	atf_set descr "-v in UTF-8 shows the same whether a sequence is cut" \
	    "by a read anywhere in it; one cut by a file's end is bytewise"
}
v_utf8_cut_body()
{
	need_faultinj
	use_utf8
	# Each sequence cut by the end of a 4 KiB read after each of its
	# bytes but the last, in a segment of 8 KiB of its own: shown
	# bytewise, or as it is for the printable characters (+).
	: > in
	: > want
	for s in '\370\210\200\200\200' '\375\277\277\277\277\277' \
	    '\364\220\200\200' '\360\200\200\200' '\355\240\200' \
	    '+\360\237\230\200' '+\342\202\254'; do
		seq=${s#+}
		len=$(printf "$seq" | wc -c)
		cut=1
		while [ $cut -lt $len ]; do
			awk -v n=$((4096 - cut)) \
			    'BEGIN { while (n-- > 0) printf "a" }' > seg
			printf "$seq\\n" >> seg
			awk -v n=$((4096 + cut - len - 1)) \
			    'BEGIN { while (n-- > 0) printf "b" }' >> seg
			[ "$(wc -c < seg)" -eq 8192 ] || atf_fail "bad segment"
			if [ "$seq" = "$s" ]; then
				bytewise -v seg >> want
			else
				cat seg >> want
			fi
			cat seg >> in
			cut=$((cut + 1))
		done
	done
	atf_check -o file:want -x "$(prog) -B 4096 -v in"
	atf_check -o file:want -x "$(prog) -B 4096 -v - < in"
	atf_check -o file:want -x "$(path_env rw) $(prog) -B 4096 -v in"
	# Through a pipe, one byte a write: the reads are as cut as can be.
	printf 'a\364\220\200\200\360\237\230\200b\n' > in
	atf_check -o inline:'aM-tM-^PM-^@M-^@\0360\0237\0230\0200b\n' \
	    -x "{ for b in a '\\364' '\\220' '\\200' '\\200' '\\360' '\\237' \
	    '\\230' '\\200' 'b\\n'; do printf \"\$b\"; sleep 0.1; done; } |
	    $(prog) -v"
	# A character is not carried from one file into the next.
	printf 'a\360\237' > one
	printf '\230\200b\n' > two
	atf_check -o inline:'aM-pM-^_M-^XM-^@b\n' "$(prog)" -v one two
	atf_check -o inline:'aM-pM-^_M-^XM-^@b\n' -x "$(prog) -v one - < two"
}

atf_test_case E_T_A_flags
E_T_A_flags_head()
{
	atf_set descr "-E and -T mark ends and tabs without -v; -A is -vET"
}
E_T_A_flags_body()
{
	printf 'a\tb\n\001c\n\177\n' > in
	atf_check -o inline:'a\tb$\n\001c$\n\0177$\n' "$(prog)" -E in
	atf_check -o inline:'a^Ib\n\001c\n\0177\n' "$(prog)" -T in
	atf_check -o inline:'a^Ib$\n^Ac$\n^?$\n' "$(prog)" -A in
	atf_check -o inline:'a^Ib$\n^Ac$\n^?$\n' "$(prog)" -vET in
	atf_check -o inline:'a\tb$\n^Ac$\n^?$\n' "$(prog)" -Ev in
	atf_check -o inline:'a^Ib\n^Ac\n^?\n' "$(prog)" -Tv in
}

atf_test_case combinations
combinations_head()
{
	atf_set descr "The combinations people type: -be -ns -vet -bs -et -nb..."
}
combinations_body()
{
	printf 'a\tb\n\n\n\001\n\n\377x\n' > in

	# -be: a blank line gets the empty number field, then the $.
	printf '     1\ta\tb$\n      \t$\n      \t$\n     2\t^A$\n' > exp
	printf '      \t$\n     3\tM-^?x$\n' >> exp
	atf_check -o file:exp "$(prog)" -be in
	atf_check -o file:exp "$(prog)" -b -e in

	printf '     1\ta\tb\n     2\t\n     3\t\001\n     4\t\n' > exp
	printf '     5\t\377x\n' >> exp
	atf_check -o file:exp "$(prog)" -ns in

	printf 'a^Ib$\n$\n$\n^A$\n$\nM-^?x$\n' > exp
	atf_check -o file:exp "$(prog)" -vet in
	atf_check -o file:exp "$(prog)" -et in
	atf_check -o file:exp "$(prog)" -te in

	printf '     1\ta\tb\n\n     2\t\001\n\n     3\t\377x\n' > exp
	atf_check -o file:exp "$(prog)" -bs in

	# -b wins over -n, in either order.
	printf '     1\ta\tb\n\n\n     2\t\001\n\n     3\t\377x\n' > exp
	atf_check -o file:exp "$(prog)" -nb in
	atf_check -o file:exp "$(prog)" -bn in

	printf '     1\ta^Ib$\n      \t$\n     2\t^A$\n      \t$\n' > exp
	printf '     3\tM-^?x$\n' >> exp
	atf_check -o file:exp "$(prog)" -bset in
	atf_check -o file:exp "$(prog)" -benstuv in

	printf '     1\ta^Ib\n     2\t\n     3\t^A\n     4\t\n     5\tM-^?x\n' \
	    > exp
	atf_check -o file:exp "$(prog)" -nst in
}

atf_test_case l_flag
l_flag_head()
{
	atf_set descr "-l waits for an exclusive lock on the standard output"
	atf_set timeout 120
}
l_flag_body()
{
	need_lock_view
	: > out
	ino=$(ls -i out | awk '{ print $1 }')
	mkfifo fifo
	# The first cat takes the lock, then waits for a writer on the FIFO.
	"$(prog)" -l fifo >> out &
	first=$!
	wait_until lock_held $ino || atf_fail "the first cat took no lock"
	# The second queues behind it, however ready its input.
	printf 'second\n' > second
	"$(prog)" -l second >> out &
	next=$!
	wait_until lock_waited $ino $next ||
	    atf_fail "the second cat did not wait for the lock"
	printf 'first\n' > fifo
	wait $first || atf_fail "first cat failed"
	wait $next || atf_fail "second cat failed"
	atf_check -o inline:'first\nsecond\n' cat out

	printf 'x\n' > x
	atf_check -o inline:'x\n' "$(prog)" -l x
}

atf_test_case l_flag_kept
l_flag_kept_head()
{
	atf_set descr "-l keeps its lock when an operand is the output file" \
	    "itself, opened and closed: another fcntl lock still waits"
	atf_set timeout 120
}
l_flag_kept_body()
{
	need_lock_try
	printf 'old\n' > out
	mkfifo fifo
	# out is opened as an operand (and refused: it is appended to), then
	# closed; then cat waits for a writer on the FIFO.
	"$(prog)" -l out fifo >> out 2> err &
	pid=$!
	# Our open of the FIFO returns once cat has opened it: past out.
	exec 3> fifo
	lock_taken out || atf_fail "closing the operand out dropped the lock"
	printf 'new\n' >&3
	exec 3>&-
	wait $pid && atf_fail "cat took out, its own output, as input"
	atf_check -o inline:'cat: out: input file is output file\n' cat err
	atf_check -o inline:'old\nnew\n' cat out
	lock_taken out && atf_fail "the lock outlived cat"
	true
}

atf_test_case l_flag_whole_runs
l_flag_whole_runs_head()
{
	atf_set descr "cat -l out fifo blkB >> out while another cat -l" \
	    "appends: the output is two whole runs, one after the other"
	atf_set timeout 120
}
l_flag_whole_runs_body()
{
	need_lock_view
	: > out
	ino=$(ls -i out | awk '{ print $1 }')
	random_file blkA 1048576
	random_file blkB 1048576
	mkfifo fifo
	"$(prog)" -l out fifo blkB >> out &
	first=$!
	exec 3> fifo
	# The first cat is past out, which it opened and closed.  The second
	# must wait; had the first lost its lock, it writes blkA now.
	"$(prog)" -l blkA >> out 3>&- &
	next=$!
	wait_until eval "lock_waited $ino $next || ! kill -0 $next 2>/dev/null" ||
	    atf_fail "the second cat neither waited nor ended"
	printf 'fifo\n' >&3
	exec 3>&-
	wait $first || atf_fail "first cat failed"
	wait $next || atf_fail "second cat failed"
	{ printf 'fifo\n'; cat blkB blkA; } > exp
	cmp -s exp out || atf_fail "the two outputs are not two whole runs"
}

atf_test_case missing_operand
missing_operand_head()
{
	atf_set descr "A missing file is reported, the others still printed"
}
missing_operand_body()
{
	printf 'a\n' > a
	printf 'b\n' > b
	atf_check -s exit:1 -o inline:'a\nb\n' \
	    -e inline:'cat: nonexistent: No such file or directory\n' \
	    "$(prog)" a nonexistent b
	atf_check -s exit:1 -o inline:'     1\ta\n     1\tb\n' \
	    -e inline:'cat: nonexistent: No such file or directory\n' \
	    "$(prog)" -n a nonexistent b
}

atf_test_case unreadable_operand
unreadable_operand_head()
{
	atf_set descr "A file that may not be read is reported"
	atf_set require.user unprivileged
}
unreadable_operand_body()
{
	printf 'secret\n' > secret
	chmod 000 secret
	printf 'a\n' > a
	atf_check -s exit:1 -o inline:'a\n' \
	    -e inline:'cat: secret: Permission denied\n' "$(prog)" secret a
}

atf_test_case directory
directory_head()
{
	atf_set descr "A directory operand is an error: Is a directory"
}
directory_body()
{
	mkdir d
	printf 'a\n' > a
	atf_check -s exit:1 -o inline:'a\n' \
	    -e inline:'cat: d: Is a directory\n' "$(prog)" d a
	atf_check -s exit:1 -o inline:'     1\ta\n' \
	    -e inline:'cat: d: Is a directory\n' "$(prog)" -n d a
	atf_check -s exit:1 -e inline:'cat: stdin: Is a directory\n' \
	    -x "$(prog) < d"
}

atf_test_case dev_full
dev_full_head()
{
	atf_set descr "A full output device is fatal: cat: stdout: ..., exit 1"
}
dev_full_body()
{
	need_faultinj
	[ -c /dev/full ] || atf_skip "no /dev/full"
	printf 'a\n' > a
	random_file big 3000000
	for p in auto $PATHS; do
		for f in a big; do
			atf_check -s exit:1 \
			    -e inline:'cat: stdout: No space left on device\n' \
			    -x "$(path_env $p) $(prog) $f a > /dev/full"
		done
	done
	atf_check -s exit:1 \
	    -e inline:'cat: stdout: No space left on device\n' \
	    -x "$(prog) -n a a > /dev/full"
}

atf_test_case stdout_closed
stdout_closed_head()
{
	atf_set descr "A closed standard output is reported, exit 1"
}
stdout_closed_body()
{
	printf 'a\n' > a
	atf_check -s exit:1 -e inline:'cat: stdout: Bad file descriptor\n' \
	    -x "$(prog) a >&-"
	atf_check -s exit:1 -e inline:'cat: stdout: Bad file descriptor\n' \
	    -x "$(prog) -n a >&-"
	# The input must not take descriptor 1 and be written over.
	atf_check -s exit:1 -e inline:'cat: stdout: Bad file descriptor\n' \
	    -x "$(prog) - a >&- < a"
	atf_check -o inline:'a\n' cat a
}

atf_test_case unknown_option
unknown_option_head()
{
	atf_set descr "An unknown option gives the usage, exit 1"
}
unknown_option_body()
{
	usage='usage: cat [-AETbeflnstuv] [-B bsize] [file ...]\n'
	printf 'a\n' > a
	refused_option "$usage" z "$(prog)" -z a
	refused_option "$usage" - "$(prog)" --number a
	# No long options, as on FreeBSD: --help gets the usage that way.
	refused_option "$usage" - "$(prog)" --help
}

# progress_round INPUT OPTION...: cat OPTION... < INPUT into a FIFO whose
# reader waits, asked for progress until it answers; then the reader
# takes it all.  Its exit status goes to status, its standard error to
# err.
progress_round()
{
	rm -f fifo got err status
	mkfifo fifo
	_in=$1
	shift
	"$(prog)" "$@" < "$_in" > fifo 2> err &
	pid=$!
	exec 3< fifo
	# Until cat has its handler, the signal would end it (or the shell
	# that is about to run it).
	signal_set $pid $sig
	# The pipe fills and cat waits in a write, with most still to copy;
	# until it has begun, a signal may find it between operands.
	n=0
	while [ ! -s err ] && [ $n -lt 100 ]; do
		kill -$sig $pid 2>/dev/null
		sleep 0.1
		n=$((n + 1))
	done
	cat <&3 > got
	exec 3<&-
	wait $pid
	echo $? > status
}

atf_test_case progress_signal
progress_signal_head()
{
	atf_set descr "SIGINFO, or SIGUSR1 where there is none, reports the" \
	    "operand and its bytes so far on the standard error and cat goes on"
}
progress_signal_body()
{
	need_signal_view "$(prog)"
	sig=$(info_signal)
	seq 1 1000000 > big
	size=$(($(wc -c < big)))
	for opts in "big" "-v big" "-u big" "big big" "- big"; do
		set -- $opts
		name=big
		[ "$1" = - ] && name=stdin
		progress_round big "$@"
		atf_check -o inline:"0\n" cat status
		case $opts in
		"big big"|"- big")
			cat big big > want ;;
		*)
			cat big > want ;;
		esac
		atf_check cmp want got
		atf_check -o match:"^$name: [0-9]+ bytes\$" head -n 1 err
		# Every report whole, and no more than there is.
		awk -v name="$name" -v size=$size '
		    $0 !~ "^" name ": [0-9]+ bytes$" || $2 > size { bad = 1 }
		    END { exit bad }' err || atf_fail "bad report: $(cat err)"
	done
}

atf_test_case no_environment
no_environment_head()
{
	atf_set descr "No setting in the environment changes how cat copies:" \
	    "the installed program names none"
}
no_environment_body()
{
	printf 'a\n' > a
	atf_check -o inline:'a\na\n' env BUFSZ_PATH=bogus BUFSZ_SIZE=12k \
	    "$(prog)" a a
	atf_check -s exit:1 -o inline:'0\n' grep -c BUFSZ_ "$(prog)"
}

atf_test_case input_is_output
input_is_output_head()
{
	atf_set descr "cat f >> f is refused, not grown until the disk is full"
	atf_set timeout 60
}
input_is_output_body()
{
	need_faultinj
	printf 'data\n' > f
	printf 'a\n' > a
	atf_check -s exit:1 -e inline:'cat: f: input file is output file\n' \
	    -x "$(prog) a f a >> f"
	atf_check -o inline:'data\na\na\n' cat f
	atf_check -s exit:1 -e inline:'cat: f: input file is output file\n' \
	    -x "$(prog) -n f >> f"
	atf_check -o inline:'data\na\na\n' cat f
	atf_check -s exit:1 -e inline:'cat: stdin: input file is output file\n' \
	    -x "$(prog) < f >> f"
	atf_check -o inline:'data\na\na\n' cat f

	# Output written ahead of the input would be read back: refused.
	printf 'data\n' > g
	atf_check -s exit:1 -e inline:'cat: g: input file is output file\n' \
	    -x "$(prog) g g 1<> g"
	atf_check -o inline:'data\n' cat g

	# Harmless: nothing left to read, or the shell emptied it first.
	: > empty
	atf_check -x "$(prog) empty >> empty"
	atf_check -x "$(prog) f > f"
	atf_check -o empty cat f
	printf 'data\n' > h
	atf_check -x "$(prog) h 1<> h"
	atf_check -o inline:'data\n' cat h

	# Empty when cat starts, but grown by cat's own output by its turn:
	# refused all the same.  Should cat copy it onto itself after all,
	# the file size limit stops it (SIGXFSZ) long before the disk is full.
	printf 'x\n' > x
	for opt in "" -n; do
		: > e
		atf_check -s exit:1 -e inline:'cat: e: input file is output file\n' \
		    -x "ulimit -f 100; $(prog) $opt x e >> e"
		atf_check -o match:'^( +1.)?x$' cat e
	done
}

# refused name command: on every path, plain and with -n, the command
# (in which CAT stands for cat and its option) is refused with "cat: name:
# input file is output file", exit 1, and f, 3 MiB and some, is untouched.
refused()
{
	for p in auto $PATHS; do
		for opt in "" -n; do
			cp orig f
			atf_check -s exit:1 \
			    -e inline:"cat: $1: input file is output file\n" \
			    -x "CAT='$(path_env $p) $(prog) $opt'; $2"
			cmp -s orig f || atf_fail "$p $opt: $2 changed f"
		done
	done
}

atf_test_case same_file_refused
same_file_refused_head()
{
	atf_set descr "One file as input and output, with bytes left to read" \
	    "and the output able to reach them, is refused on every path"
	atf_set timeout 300
}
same_file_refused_body()
{
	need_faultinj
	random_file orig 3145739
	# stdin and stdout one open file description, one offset: every
	# write would move the reading point past what it overwrote.
	refused stdin '$CAT <>f 1>&0'
	refused stdin '$CAT - <>f 1>&0'
	refused stdin 'exec 3<>f; $CAT <&3 >&3'
	# Appended, through the same name, stdin, links and /dev/fd.
	refused f '$CAT f >> f'
	refused stdin '$CAT - < f >> f'
	ln f hard
	refused hard '$CAT hard >> f'
	ln -s f soft
	refused soft '$CAT soft >> f'
	if [ -e /dev/fd/3 ] 2>/dev/null 3<f; then
		refused /dev/fd/3 '$CAT /dev/fd/3 3<f >> f'
	fi
	# The output ahead of the reading point.
	refused f '{ dd bs=1000 seek=1 count=0 conv=notrunc 2>/dev/null;
	    $CAT f; } 1<>f'
	# With a formatting option the output outgrows the input.
	cp orig f
	atf_check -s exit:1 -e inline:'cat: f: input file is output file\n' \
	    -x "$(prog) -n f 1<>f"
	atf_check cmp orig f
	# Two operands: the first goes onto itself, the second would land
	# behind the output.
	cp orig f
	atf_check -s exit:1 -e inline:'cat: f: input file is output file\n' \
	    -x "$(prog) f f 1<>f"
	atf_check cmp orig f
}

atf_test_case same_file_harmless
same_file_harmless_head()
{
	atf_set descr "A plain copy of a file onto itself at or behind the" \
	    "reading point goes through, on every path, and does what it says"
	atf_set timeout 300
}
same_file_harmless_body()
{
	random_file orig 3145739
	for p in auto $PATHS; do
		path_export $p
		# Each byte written back where it was read: f unchanged.
		cp orig f
		atf_check -x "$(prog) f 1<>f"
		cmp -s orig f || atf_fail "$p: cat f 1<>f changed f"
		# Separate descriptions at the same offset, not one shared.
		cp orig f
		atf_check -x "exec 3<f; $(prog) <&3 1<>f"
		cmp -s orig f || atf_fail "$p: cat <f 1<>f changed f"
		# Written behind the reading point: the tail moves to the head,
		# what is past its new end is left (1<> does not truncate).
		for skip in 1 4096 70001; do
			cp orig f
			atf_check -x "exec <f; dd bs=$skip count=1 >/dev/null \
			    2>&1; $(prog) 1<>f"
			{ tail -c +$((skip + 1)) orig; tail -c $skip orig; } > exp
			cmp -s exp f || atf_fail "$p: shifting by $skip differs"
		done
		# Copied onto itself, then another file after it, in order
		# (not the other at offset 0 and the first after it).
		printf 'hello\n' > f
		printf 'world\n' > g
		atf_check -x "$(prog) f g 1<>f"
		atf_check -o inline:'hello\nworld\n' cat f
		# Nothing left to read.
		cp orig f
		atf_check -x "exec <f; cat >/dev/null; $(prog) >>f"
		cmp -s orig f || atf_fail "$p: cat at its end changed f"
		atf_check -x "$(prog) f > f"
		atf_check -o empty cat f
	done
	path_export auto
	# /dev/stdin opened afresh (Linux) starts at 0 and writes each byte
	# back; where it is the same description (the BSDs) it is refused.
	cp orig f
	"$(prog)" /dev/stdin <>f 1>&0 2>err
	case $? in
	0)	atf_check -o empty cat err ;;
	*)	atf_check -o inline:'cat: /dev/stdin: input file is output file\n' \
		    cat err ;;
	esac
	atf_check cmp orig f
}

atf_test_case sigpipe
sigpipe_head()
{
	atf_set descr "A reader that goes away kills cat with SIGPIPE, silently"
	atf_set timeout 120
}
sigpipe_body()
{
	need_faultinj
	random_file big 8000000
	for p in auto $PATHS; do
		for opt in "" -v; do
			($(path_env $p) "$(prog)" $opt big 2> err; echo $? > rc) |
			    head -c 1 > /dev/null
			atf_check -o inline:'141\n' cat rc
			atf_check -o empty cat err
		done
	done
}

atf_test_case late_reader
late_reader_head()
{
	atf_set descr "A reader that drains the pipe after cat exited gets the" \
	    "old bytes of a file renamed into place, and, of a file rewritten" \
	    "in place, as many bytes, each old or new (cat.1, CAVEATS)"
	atf_set timeout 120
}
late_reader_body()
{
	need_faultinj
	# 8,000 bytes: the whole of it waits in a pipe of the default
	# capacity, and in FreeBSD's pipe buffer, which a blocking write
	# of 8 KiB or more bypasses (the writer then waits for the reader).
	n=1000
	awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "old%05d", i }' > old
	awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "NEW%05d", i }' > new
	mkfifo gate
	for p in auto $PATHS; do
		# The reader waits at the gate until cat has exited and the
		# file has been replaced.
		cp old v
		{ $(path_env $p) "$(prog)" v; cp new v.tmp; mv v.tmp v; : > gate; } |
		    { : < gate; cat > got; }
		cmp -s old got || atf_fail "$p: a file renamed into place showed"
		cp old v
		{ $(path_env $p) "$(prog)" v
		  dd if=new of=v conv=notrunc 2>/dev/null; : > gate; } |
		    { : < gate; cat > got; }
		fold -w 8 got | awk -v n=$n '$0 != sprintf("old%05d", NR - 1) &&
		    $0 != sprintf("NEW%05d", NR - 1) { exit 1 }
		    END { exit NR != n }' ||
		    atf_fail "$p: bytes neither old nor new, or lost"
	done
}

atf_test_case fifo
fifo_head()
{
	atf_set descr "A FIFO operand is read to its end"
	atf_set timeout 60
}
fifo_body()
{
	need_faultinj
	random_file data 1000000
	mkfifo fifo
	for p in auto $PATHS; do
		dd if=data of=fifo bs=7777 2>/dev/null &
		$(path_env $p) "$(prog)" fifo > out || atf_fail "path $p failed"
		wait
		atf_check cmp data out
	done
}

atf_test_case char_device
char_device_head()
{
	atf_set descr "Character devices: /dev/null is empty, /dev/zero endless"
}
char_device_body()
{
	atf_check -o empty "$(prog)" /dev/null
	dd if=/dev/zero of=zeros bs=100000 count=1 2>/dev/null
	atf_check -o file:zeros -x "$(prog) /dev/zero | head -c 100000"
}

atf_test_case socket
socket_head()
{
	atf_set descr "A Unix-domain socket operand is connected to and read"
	atf_set timeout 120
}
socket_body()
{
	need_unix_server
	random_file payload 300000
	unix_server sock payload || atf_fail "the server did not start"
	atf_check -o file:payload "$(prog)" sock
	wait $unix_server_pid || atf_fail "the server saw no shutdown from cat"

	# Nobody listening: the error is the connect's.
	atf_check -s exit:1 -e inline:'cat: sock: Connection refused\n' \
	    "$(prog)" sock
}

atf_test_case devnull_operands
devnull_operands_head()
{
	atf_set descr "Into /dev/null, more than 1024 operands of every" \
	    "kind (copied before a stat where the engine can): each" \
	    "read to its end or reported as it is elsewhere"
	atf_set timeout 60
}
devnull_operands_body()
{
	mkdir d
	: > empty
	printf 'x' > pad
	random_file big $((9 * 1024 * 1024))
	random_file data 1000000
	mkfifo fifo
	chmod 000 big
	set -- d missing empty fifo /proc/version big
	[ -r /proc/version ] || set -- d missing empty fifo big
	# shellcheck disable=SC2046
	set -- "$@" $(awk 'BEGIN { for (i = 0; i < 1100; i++) print "pad" }')
	dd if=data of=fifo bs=7777 2>/dev/null &
	if [ "$(id -u)" = 0 ]; then
		err='cat: d: Is a directory\ncat: missing: No such file or directory\n'
	else
		err='cat: d: Is a directory\ncat: missing: No such file or directory\ncat: big: Permission denied\n'
	fi
	atf_check -s exit:1 -e inline:"$err" -x \
	    "$(prog) $* > /dev/null"
	# The FIFO was read to its end: its writer is done.
	wait || atf_fail "the FIFO's writer failed"
}

atf_test_case sandbox_never_fails
sandbox_never_fails_head()
{
	atf_set descr "Confined or not, cat reads what it would unconfined:" \
	    "/dev/stdin, /proc and /sys, files replaced while it runs," \
	    "more operands than it may open at once"
	atf_set timeout 120
}
sandbox_never_fails_body()
{
	printf 'in\n' > in
	atf_check -o inline:'in\n' -x "$(prog) /dev/stdin < in"
	atf_check -o inline:'in\n' -x "$(prog) < in | $(prog) /dev/stdin"
	atf_check -o inline:'in\n' -x "$(prog) /dev/fd/0 < in"
	# Past 2, /dev/fd/N is there only with fdescfs on FreeBSD.
	if [ -e /dev/fd/3 ] 2> /dev/null 3< in; then
		atf_check -o inline:'in\n' -x "$(prog) /dev/fd/3 3< in"
	fi
	if [ -r /proc/self/status ]; then
		atf_check -o match:'^Name:[[:space:]]*cat$' "$(prog)" \
		    /proc/self/status
	fi
	# A file renamed into an operand's place while cat waits on a FIFO:
	# its new content, read at its turn.
	printf 'old\n' > f
	mkfifo fifo
	"$(prog)" fifo f > out &
	pid=$!
	exec 3> fifo
	printf 'new\n' > f.tmp
	mv f.tmp f
	exec 3>&-
	wait $pid || atf_fail "cat failed on a file renamed into place"
	atf_check -o inline:'new\n' cat out
	# One file many times; then more operands than descriptors cat may
	# open at once (a hard limit of 64): all read, and a missing one
	# reported.
	printf 'x' > x
	set --
	while [ $# -lt 1001 ]; do
		set -- "$@" x
	done
	"$(prog)" "$@" > out || atf_fail "cat of 1001 operands failed"
	atf_check -o inline:'1001\n' -x "wc -c < out | tr -d ' '"
	(ulimit -S -n 64 && ulimit -H -n 64 && exec "$(prog)" "$@" x) > out ||
	    atf_fail "cat of 1002 operands, 64 descriptors, failed"
	atf_check -o inline:'1002\n' -x "wc -c < out | tr -d ' '"
	(ulimit -S -n 64 && ulimit -H -n 64 &&
	    exec "$(prog)" "$@" nonexistent x) > out 2> err && atf_fail "exit 0"
	atf_check -o inline:'1002\n' -x "wc -c < out | tr -d ' '"
	atf_check -o inline:'cat: nonexistent: No such file or directory\n' \
	    cat err
	# A missing operand among a few: those before it and after it are
	# all read, in order.
	printf 'y' > y
	"$(prog)" x x nonexistent y > out 2> err && atf_fail "exit 0"
	atf_check -o inline:'xxy' cat out
	atf_check -o inline:'cat: nonexistent: No such file or directory\n' \
	    cat err
}

# The operands after the FIFO f for a run of at_turn: "$@" as given
# (below), or followed by 1100 names of an empty file, past the operands
# cat confines itself for (above).
at_turn_operands()
{
	_size=$1
	shift
	printf '%s\n' "$@"
	if [ "$_size" = above ]; then
		: > pad
		awk 'BEGIN { for (i = 0; i < 1100; i++) print "pad" }'
	fi
}

# at_turn below|above CHANGE OPERANDS...: cat q/f OPERANDS
# (at_turn_operands), with the shell command CHANGE run once cat has
# opened the FIFO q/f (and so confined itself, or not); then q/f gives
# "f" and ends.  cat's standard input is ours.  Its output is in ./out,
# its errors in ./err, its exit status in ./status.  Where Landlock is
# there, cat must be confined below and unconfined above.
at_turn()
{
	_size=$1 _change=$2
	shift 2
	mkdir -p q
	[ -p q/f ] || mkfifo q/f
	at_turn_operands "$_size" "$@" > operands
	# An asynchronous command's input would be /dev/null.
	exec 5<&0
	# shellcheck disable=SC2046
	"$(prog)" q/f $(cat operands) <&5 5<&- > out 2> err &
	_pid=$!
	exec 5<&-
	exec 3> q/f
	if ! grep -q '^NoNewPrivs:[[:space:]]*1' /proc/self/status \
	    2> /dev/null; then
		if [ "$_size" = below ] && landlock_confines "$(prog)"; then
			grep -q '^NoNewPrivs:[[:space:]]*1' /proc/$_pid/status ||
			    atf_fail "cat of $# operands is not confined"
		elif [ "$_size" = above ] && [ -r /proc/$_pid/status ]; then
			grep -q '^NoNewPrivs:[[:space:]]*0' /proc/$_pid/status ||
			    atf_fail "cat of $# + 1100 operands is confined"
		fi
	fi
	eval "$_change"
	printf 'f\n' >&3
	exec 3>&-
	wait $_pid
	echo $? > status
}

# at_turn_check WHAT OUT ERR STATUS: at_turn's run gave OUT (printf
# escapes) on the output, ERR on the error output and exit STATUS.
at_turn_check()
{
	printf "$2" > want.out
	printf "$3" > want.err
	cmp -s want.out out || atf_fail "$1: output $(tr '\n' '|' < out)"
	cmp -s want.err err || atf_fail "$1: errors $(tr '\n' '|' < err)"
	[ "$(cat status)" = "$4" ] || atf_fail "$1: exit $(cat status)"
}

atf_test_case fifo_replaced_before_turn
fifo_replaced_before_turn_head()
{
	atf_set descr "A FIFO operand replaced by a regular file before its" \
	    "turn is read as the file, confined or not"
	atf_set timeout 300
}
fifo_replaced_before_turn_body()
{
	# The command as a user met it.
	mkfifo p p2
	( exec 3>p; sleep .3; rm p2; echo regular-now > p2; echo data >&3 ) &
	atf_check -o inline:'data\nregular-now\n' timeout 60 "$(prog)" p p2
	wait
	for size in below above; do
		rm -f p2
		mkfifo p2
		at_turn $size 'rm p2; echo regular-now > p2' p2
		at_turn_check "$size" 'f\nregular-now\n' '' 0
		# And a regular file replaced by a FIFO, with a writer.
		at_turn $size 'rm p2; mkfifo p2; (exec 3>&-; echo fifo-now > p2) &' p2
		wait
		at_turn_check "$size, to a FIFO" 'f\nfifo-now\n' '' 0
	done
}

atf_test_case renamed_before_turn
renamed_before_turn_head()
{
	atf_set descr "A file renamed over an operand's name while an" \
	    "earlier operand blocks is read in its new version"
	atf_set timeout 300
}
renamed_before_turn_body()
{
	echo old > r
	mkfifo p
	( exec 3>p; sleep .3; echo new > r.new; mv r.new r; echo data >&3 ) &
	atf_check -o inline:'data\nnew\n' timeout 60 "$(prog)" p r
	wait
	for size in below above; do
		echo old > r
		at_turn $size 'echo new > r.new; mv r.new r' r
		at_turn_check "$size" 'f\nnew\n' '' 0
		# A file that did not exist at the start, made before its turn.
		rm -f late
		at_turn $size 'echo late > late' late
		at_turn_check "$size, made late" 'f\nlate\n' '' 0
	done
}

atf_test_case sandbox_hostile
sandbox_hostile_head()
{
	atf_set descr "Names changed under a confined cat (links swapped," \
	    "logs rotated, FIFOs, devices, .., the working directory" \
	    "removed) read what an unconfined cat reads, or are refused" \
	    "as cat(1) says only when they lead outside the sandbox"
	atf_set timeout 600
}
sandbox_hostile_body()
{
	mkdir logs other deep deep/er
	for size in below above; do
		# A link to a log that is rotated: the new log.
		echo old > logs/app.log
		ln -sfn logs/app.log current
		at_turn $size 'mv logs/app.log logs/app.log.1; echo new > logs/app.log' \
		    current
		at_turn_check "$size, log rotated" 'f\nnew\n' '' 0
		# A link retargeted within the directory it leads to.
		echo two > logs/two
		at_turn $size 'ln -sfn logs/two current' current
		at_turn_check "$size, link retargeted" 'f\ntwo\n' '' 0
		# A name with .. in it, replaced by a rename.
		echo old > deep/x
		at_turn $size 'echo new > deep/x.new; mv deep/x.new deep/x' \
		    deep/er/../x
		at_turn_check "$size, .." 'f\nnew\n' '' 0
		# A file replaced by a link to a file in the same directory.
		echo a > same
		echo b > same2
		at_turn $size 'ln -sf same2 same' same
		at_turn_check "$size, same directory" 'f\nb\n' '' 0
		# A device, where one can be made.
		rm -f dev nul
		echo notdev > dev
		if mknod nul c 1 3 2> /dev/null; then
			at_turn $size 'rm dev; mknod dev c 1 3' dev
			if [ "$(uname -s)" = FreeBSD ]; then
				# FreeBSD opens device nodes only on devfs.
				at_turn_check "$size, a device" 'f\n' \
				    'cat: dev: Operation not supported\n' 1
			else
				at_turn_check "$size, a device" 'f\n' '' 0
			fi
		fi
		# /proc, /dev/stdin and /dev/fd, read as before where they
		# are there (FreeBSD mounts neither procfs nor fdescfs by
		# default, and without fdescfs has only /dev/fd/0 to 2).
		echo in > in
		if [ -r /proc/self/status ]; then
			at_turn $size '' /proc/self/status /dev/stdin < in
			grep -q '^Name:[[:space:]]*cat$' out ||
			    atf_fail "$size: /proc/self/status: $(head -2 out)"
			tail -n 1 out | grep -qx in ||
			    atf_fail "$size: /dev/stdin"
		else
			at_turn $size '' /dev/stdin < in
			at_turn_check "$size, /dev/stdin" 'f\nin\n' '' 0
		fi
		if [ -e /dev/fd/4 ] 2> /dev/null 4< in; then
			at_turn $size '' /dev/fd/4 4< in
			at_turn_check "$size, /dev/fd/4" 'f\nin\n' '' 0
		fi
		at_turn $size '' /dev/fd/0 < in
		at_turn_check "$size, /dev/fd/0" 'f\nin\n' '' 0
		# A directory, a missing name, "-", as unconfined.
		at_turn $size '' logs - missing logs/ < in
		err='cat: logs: Is a directory\n'
		err="${err}cat: missing: No such file or directory\n"
		err="${err}cat: logs/: Is a directory\n"
		at_turn_check "$size, directory" 'f\nin\n' "$err" 1
		# A link out of the operands' directories, to a file made
		# before its turn.
		mkdir -p ln_dir
		rm -f other/later
		ln -sfn ../other/later ln_dir/l
		at_turn $size 'echo later > other/later' ln_dir/l
		at_turn_check "$size, dangling link" 'f\nlater\n' '' 0
		# A file replaced by a directory.
		echo x > becomes_dir
		at_turn $size 'rm becomes_dir; mkdir becomes_dir' becomes_dir
		at_turn_check "$size, made a directory" 'f\n' \
		    'cat: becomes_dir: Is a directory\n' 1
		rmdir becomes_dir
		# The standard input a file removed since.
		echo gone > gone
		exec 6< gone
		rm gone
		at_turn $size '' /dev/stdin <&6
		exec 6<&-
		at_turn_check "$size, /dev/stdin removed" 'f\ngone\n' '' 0
		# Files of processes on /proc (sleeps of ours, which stay): a
		# few (their directories kept open for the rules, confined),
		# then more than cat keeps (unconfined).
		if [ -r /proc/self/stat ]; then
			set --
			pids=
			while [ $# -lt 40 ]; do
				sleep 600 3>&- &
				pids="$pids $!"
				set -- "$@" /proc/$!/comm
			done
			for p in $pids; do
				wait_until grep -qx sleep /proc/$p/comm ||
				    atf_fail "sleep $p did not start"
			done
			at_turn $size '' $(echo "$@" | cut -d ' ' -f 1-10)
			at_turn_check "$size, /proc" "f\n$(printf 'sleep\\n%.0s' \
			    1 2 3 4 5 6 7 8 9 10)" '' 0
			"$(prog)" "$@" > out 2> err ||
			    atf_fail "$size, /proc: $(tr '\n' '|' < err)"
			[ "$(grep -cx sleep out)" = 40 ] ||
			    atf_fail "$size, /proc: $(tr '\n' '|' < out)"
			kill $pids
		fi
		# A name replaced by a link to a file elsewhere: read
		# unconfined; confined, refused, and the operands after it
		# read all the same.
		echo elsewhere > other/file
		mkdir -p in_dir
		echo here > in_dir/name
		echo after > in_dir/after
		at_turn $size 'ln -sf ../other/file in_dir/name' in_dir/name \
		    in_dir/after
		if [ $size = below ] && landlock_confines "$(prog)"; then
			at_turn_check "$size, link out" 'f\nafter\n' \
			    'cat: in_dir/name: now leads outside the sandbox\n' 1
		else
			at_turn_check "$size, link out" 'f\nelsewhere\nafter\n' \
			    '' 0
		fi
		rm -r in_dir
	done
	# The working directory removed before an operand's turn: as
	# unconfined, the name is gone.
	mkdir wd
	echo x > wd/x
	mkfifo wd/f
	( cd wd && exec timeout 60 "$(prog)" f x ) > out 2> err &
	pid=$!
	exec 3> wd/f
	rm -r wd
	printf 'f\n' >&3
	exec 3>&-
	wait $pid && atf_fail "cat read a file of a removed directory"
	atf_check -o inline:'f\n' cat out
	atf_check -o inline:'cat: x: No such file or directory\n' cat err
}

atf_test_case changed_before_turn
changed_before_turn_head()
{
	atf_set descr "A file that grows, shrinks, empties or fills between" \
	    "cat's start and its turn is read as it is at its turn, on" \
	    "every path"
	atf_set timeout 120
}
changed_before_turn_body()
{
	need_faultinj
	mkfifo fifo
	for p in auto $PATHS; do
		for change in grow shrink empty fill; do
			if [ $change = fill ]; then
				: > g
			else
				random_file g 100000
			fi
			$(path_env $p) "$(prog)" fifo g > out 2> err &
			pid=$!
			# Our open returns once cat has reached the FIFO.
			exec 3> fifo
			case $change in
			grow)	head -c 300000 /dev/urandom >> g ;;
			shrink)	truncate -s 50000 g ;;
			empty)	: > g ;;
			fill)	random_file g 70000 ;;
			esac
			printf 'hi\n' >&3
			exec 3>&-
			wait $pid || atf_fail "$p, $change: $(cat err)"
			{ printf 'hi\n'; cat g; } | cmp -s - out ||
			    atf_fail "$p, $change: not the file as it was then"
		done
	done
}

atf_test_case buffer_boundaries
buffer_boundaries_head()
{
	atf_set descr "Formatting holds its state across buffer boundaries"
}
buffer_boundaries_body()
{
	# Lines of every length from 0 to 199 (2, 3 and 4 KiB apart), so that
	# they straddle each 4 KiB buffer; tabs and a control byte in each.
	awk 'BEGIN {
		for (i = 0; i < 200; i++) {
			l = ""
			for (j = 0; j < i; j++)
				l = l (j % 17 == 5 ? "\t" : (j % 23 == 7 ? "\001" : "x"))
			print l
			if (i % 7 == 0) { print ""; print "" }
		}
	}' > in
	[ "$(wc -c < in)" -gt 16384 ] || atf_fail "input too small"
	awk '{ printf "%6d\t%s\n", NR, $0 }' in > exp_n
	awk '$0 != "" { printf "%6d\t%s\n", ++n, $0; next } { print }' in \
	    > exp_b
	for size in 4096 8192; do
		atf_check -o file:exp_n -x "$(prog) -B $size -n in"
		atf_check -o file:exp_b -x "$(prog) -B $size -b in"
		# The same through a pipe, where reads come in any sizes.
		atf_check -o file:exp_n \
		    -x "dd if=in bs=1000 2>/dev/null | $(prog) -B $size -n"
	done
	# -vet and -bs at 4 KiB against one buffer that holds it all.
	for opt in -vet -bs -ns -benstuv; do
		"$(prog)" $opt in > whole
		atf_check -o file:whole -x "$(prog) -B 4096 $opt in"
	done

	# Lines far longer than either buffer.
	awk 'BEGIN { for (n = 0; n < 3; n++) { for (i = 0; i < 20000; i++)
		printf "%c", 97 + (i + n) % 26; printf "\n" } }' > long
	awk '{ printf "%6d\t%s$\n", NR, $0 }' long > exp
	atf_check -o file:exp -x "$(prog) -B 4096 -ne long"
	atf_check -o file:exp -x "$(prog) -B 4096 -be - < long"

	# Empty lines that straddle the boundary, for -s and -b.
	awk 'BEGIN { for (i = 0; i < 4095; i++) printf "y"; printf "\n\n\n\nz\n" }' \
	    > edge
	awk 'BEGIN { printf "     1\t"; for (i = 0; i < 4095; i++) printf "y"
		printf "\n\n     2\tz\n" }' > exp
	atf_check -o file:exp -x "$(prog) -B 4096 -bs edge"
	awk 'BEGIN { printf "     1\t"; for (i = 0; i < 4095; i++) printf "y"
		printf "$\n      \t$\n      \t$\n      \t$\n     2\tz$\n" }' > exp
	atf_check -o file:exp -x "$(prog) -B 4096 -be edge"
}

atf_test_case short_lines
short_lines_head()
{
	atf_set descr "Lines shorter than a word, at every alignment, under" \
	    "-e, -E, -n, -b, -s and their combinations"
}
short_lines_body()
{
	# Lines of 0 to 10 bytes in a sequence of 11 lengths against 8-byte
	# words, so that a word holds none, one, two or more newlines, at
	# every place; a run of empty lines now and then, for -b and -s.
	awk 'BEGIN {
		for (i = 0; i < 3000; i++) {
			n = (i * 7) % 11
			l = ""
			for (j = 0; j < n; j++)
				l = l sprintf("%c", 97 + (i + j) % 26)
			print l
			if (i % 97 == 0) { print ""; print ""; print "" }
		}
	}' > in
	awk '{ print $0 "$" }' in > exp_e
	awk '{ printf "%6d\t%s\n", NR, $0 }' in > exp_n
	awk '$0 != "" { printf "%6d\t%s\n", ++n, $0; next } { print }' in \
	    > exp_b
	awk '$0 == "" && blank { next } { blank = $0 == ""; print }' in > sq
	awk '{ printf "%6d\t%s\n", NR, $0 }' sq > exp_ns
	awk '$0 != "" { printf "%6d\t%s$\n", ++n, $0; next }
	    { printf "      \t$\n" }' in > exp_be
	for feed in "cat in" "dd if=in bs=1000" "dd if=in bs=7"; do
		for opt in -e -E -ve -et; do
			atf_check -o file:exp_e \
			    -x "$feed 2>/dev/null | $(prog) -B 4096 $opt"
		done
		atf_check -o file:exp_n -x "$feed 2>/dev/null | $(prog) -n"
		atf_check -o file:exp_b -x "$feed 2>/dev/null | $(prog) -b"
		atf_check -o file:exp_b -x "$feed 2>/dev/null | $(prog) -bv"
		atf_check -o file:sq -x "$feed 2>/dev/null | $(prog) -s"
		atf_check -o file:exp_ns -x "$feed 2>/dev/null | $(prog) -ns"
		atf_check -o file:exp_be -x "$feed 2>/dev/null | $(prog) -be"
	done
}

atf_test_case engine_paths
engine_paths_head()
{
	atf_set descr "Each copy path, forced, copies byte for byte"
	atf_set timeout 300
}
engine_paths_body()
{
	need_faultinj
	printf 'x' > one
	random_file page 4096
	random_file page1 4097
	random_file mib 3145728
	for f in one page page1 mib; do
		dd if=$f bs=1048576 2>/dev/null
	done > all
	for p in auto $PATHS; do
		for f in one page page1 mib; do
			# To a regular file, to a pipe, to an appended file.
			$(path_env $p) "$(prog)" $f > out ||
			    atf_fail "$p: $f failed"
			cmp $f out || atf_fail "$p: $f differs"
			$(path_env $p) "$(prog)" $f | cmp - $f ||
			    atf_fail "$p: $f differs through a pipe"
			printf 'head' > app
			$(path_env $p) "$(prog)" $f >> app ||
			    atf_fail "$p: $f appended failed"
			{ printf 'head'; dd if=$f bs=1048576 2>/dev/null; } > exp
			cmp exp app || atf_fail "$p: $f differs appended"
			$(path_env $p) "$(prog)" - < $f > out ||
			    atf_fail "$p: $f as stdin failed"
			cmp $f out || atf_fail "$p: $f differs as stdin"
		done
		$(path_env $p) "$(prog)" one page page1 mib > out ||
		    atf_fail "$p: all failed"
		cmp all out || atf_fail "$p: concatenation differs"
		$(path_env $p 4096) "$(prog)" one page page1 mib |
		    cmp - all || atf_fail "$p: 4 KiB buffer differs"
		# Input read from the middle, as "-" after the shell read some.
		(dd bs=1000 count=1 of=/dev/null 2>/dev/null
		 $(path_env $p) "$(prog)") < mib > rest
		atf_check -o inline:'3144728\n' -x "wc -c < rest | tr -d ' '"
		tail -c 3144728 mib | cmp - rest || atf_fail "$p: offset ignored"
	done
}

atf_test_case large_file
large_file_head()
{
	atf_set descr "A sparse file past 4 GiB is copied whole"
	# 24 GiB are read in all on FreeBSD: nearly the old 1200 s on an
	# emulated machine, and past it when that machine is busy.
	atf_set timeout 3600
}
large_file_body()
{
	need_faultinj
	# 4 GiB and a MiB: what matters is what lies past 4 GiB, and every
	# byte below it is read on every path, twice.
	sparse_file big 4097M || atf_skip "cannot make a 4 GiB file"
	# Markers just past 4 GiB and at the very end.
	printf 'past4GiB' | dd of=big bs=1 seek=4294967300 conv=notrunc \
	    2>/dev/null
	printf '0123456789abcdef' | dd of=big bs=1 seek=4296015856 \
	    conv=notrunc 2>/dev/null
	[ "$(wc -c < big)" -eq 4296015872 ] || atf_fail "big is not 4097 MiB"
	# Each copy's length and CRC (POSIX cksum) against the file's: nothing
	# stores 4 GiB, and cmp, reading the file again beside the pipe, took
	# ten times as long.  Only Linux splices or sendfiles into a pipe;
	# forced elsewhere, they are rw again, and each pass takes minutes on
	# an emulated machine.
	want=$(cksum < big)
	paths="auto rw"
	[ "$(uname -s)" = Linux ] && paths="$paths splice sendfile"
	for p in $paths; do
		got=$({ $(path_env $p) "$(prog)" big 2> err; echo $? > rc; } |
		    cksum)
		[ "$(cat rc)" = 0 ] && [ ! -s err ] ||
		    atf_fail "path $p: status $(cat rc): $(cat err)"
		[ "$got" = "$want" ] ||
		    atf_fail "path $p: cksum $got, the file's $want"
	done
}

#
# Cases for FreeBSD's own paths.  Each skips, saying why, where the host
# is not FreeBSD.
#

# fb_only WHAT: skip unless on FreeBSD, naming what needs it.
fb_only()
{
	[ "$(uname -s)" = FreeBSD ] ||
	    atf_skip "FreeBSD's $1: not on $(uname -s)"
}

# The size of a file in bytes.
fb_size_is()
{
	[ "$(stat -f %z "$2")" -eq "$1" ]
}

# fb_in_pipe_read PID: whether PID sleeps in a read of a pipe or FIFO.
fb_in_pipe_read()
{
	case $(ps -o wchan= -p "$1") in
	piperd*)	return 0 ;;
	esac
	return 1
}

atf_test_case fb_siginfo_fifo cleanup
fb_siginfo_fifo_head()
{
	atf_set descr "FreeBSD: kill -INFO to a cat reading a FIFO reports" \
	    "exactly the bytes copied so far, and cat goes on"
}
fb_siginfo_fifo_body()
{
	fb_only "SIGINFO"
	mkfifo fifo
	"$(prog)" fifo > out 2> err &
	echo $! > cat.pid
	exec 3> fifo
	dd if=/dev/zero bs=1000 count=12 >&3 2>/dev/null
	wait_until fb_size_is 12000 out ||
	    atf_fail "cat copied $(stat -f %z out) bytes"
	# Back in its read, cat has counted what it wrote.
	wait_until fb_in_pipe_read "$(cat cat.pid)" ||
	    atf_fail "cat does not wait in a read of the FIFO"
	kill -INFO "$(cat cat.pid)"
	wait_until test -s err || atf_fail "no report on SIGINFO"
	atf_check -o inline:"fifo: 12000 bytes\n" cat err
	dd if=/dev/zero bs=345 count=1 >&3 2>/dev/null
	exec 3>&-
	wait "$(cat cat.pid)" || atf_fail "cat failed: $(cat err)"
	rm cat.pid
	atf_check -o inline:"12345\n" stat -f %z out
	atf_check -o inline:"fifo: 12000 bytes\n" cat err
}
fb_siginfo_fifo_cleanup()
{
	[ -f cat.pid ] && kill "$(cat cat.pid)" 2>/dev/null
	true
}

atf_test_case fb_operands_at_turn
fb_operands_at_turn_head()
{
	atf_set descr "FreeBSD: cat runs unconfined and opens each operand" \
	    "at its turn: a name made, or replaced, after it started is read"
}
fb_operands_at_turn_body()
{
	fb_only "cat without Capsicum"
	echo old > replaced
	mkfifo fifo
	"$(prog)" fifo later/file replaced "$PWD/elsewhere" > out 2> err &
	pid=$!
	exec 3> fifo
	echo first >&3
	wait_until fb_size_is 6 out || atf_fail "cat did not copy the FIFO"
	# cat is past its start: none of these was there to open before.
	mkdir later
	echo second > later/file
	echo new > new
	mv new replaced
	echo last > elsewhere
	exec 3>&-
	wait $pid || atf_fail "cat failed: $(cat err)"
	atf_check -o inline:"first\nsecond\nnew\nlast\n" cat out
	atf_check -o empty cat err
}

atf_test_case rescue
rescue_head()
{
	atf_set descr "FreeBSD: the crunched /rescue/cat (libbufsz through" \
	    "CRUNCH_LIBS) copies, numbers and reports errors as bin/cat does"
}
rescue_body()
{
	rescue_prog cat
	printf 'a\n\nb\n' > f
	dd if=/dev/urandom of=big bs=64k count=40 2>/dev/null
	atf_check -o file:big "$r" big
	atf_check -o file:big "$r" < big
	atf_check -o inline:"     1\ta\n     2\t\n     3\tb\n" "$r" -n f
	atf_check -s exit:1 -o file:f \
	    -e inline:"cat: nosuch: No such file or directory\n" "$r" f nosuch
}

# read_max OPTION...: the largest read(2) cat makes of big with OPTIONs,
# copying with read(2) and write(2), as libfaultinj's log has it; the
# output in out.
read_max()
{
	rm -f log
	$(path_env rw) FAULTINJ_LOG=$PWD/log "$(prog)" "$@" big > out ||
	    atf_fail "cat $* failed"
	awk '$1 == "read.max" { print $2 }' log
}

atf_test_case B_bsize
B_bsize_head()
{
	atf_set descr "-B bsize (NetBSD) sets the buffer, plain and" \
	    "formatted: whole pages, at least one, at most what the" \
	    "machine allows; -B 0 is the policy's own"
}
B_bsize_body()
{
	need_faultinj
	page=$(getconf PAGESIZE)
	random_file big $((4 * 1024 * 1024))
	own=$(read_max)
	atf_check cmp big out
	atf_check_equal "$own" "$(read_max -B 0)"
	atf_check_equal $page "$(read_max -B 1)"
	atf_check_equal $page "$(read_max -B $((page + page / 2)))"
	atf_check_equal $((3 * page)) "$(read_max -B $((3 * page + 1)))"
	atf_check cmp big out
	atf_check_equal $((2 * page)) \
	    "$(read_max -B "$(printf '0x%x' $((2 * page)))")"
	atf_check_equal $((2 * page)) \
	    "$(read_max -B "$(printf '0%o' $((2 * page)))")"
	# The formatting path takes it too.
	atf_check_equal $((3 * page)) "$(read_max -n -B $((3 * page)))"
	cat -n big > exp
	atf_check cmp exp out
	# Cut on a 64 MiB machine.  Exported: FreeBSD's sh does not export
	# an assignment written before a function's name.
	max=$(export FAULTINJ_PHYSMEM=67108864; read_max -B 1073741824)
	[ "$max" -le 131072 ] ||
	    atf_fail "a read of $max bytes on a 64 MiB machine"
	atf_check cmp big out
}

atf_test_case B_bad
B_bad_head()
{
	atf_set descr "-B with no number, a sign, a suffix or trailing text" \
	    "is an error, exit 1, before anything is read"
}
B_bad_body()
{
	printf 'a\n' > a
	for bad in x -1 +4096 ' 4096' 12k 4096x ''; do
		atf_check -s exit:1 -o empty \
		    -e inline:"cat: illegal buffer size -- $bad\n" \
		    "$(prog)" -B "$bad" a
	done
	refused_option 'usage: cat [-AETbeflnstuv] [-B bsize] [file ...]\n' B \
	    "$(prog)" -B
}

atf_test_case f_regular_only
f_regular_only_head()
{
	atf_set descr "-f (NetBSD) copies regular files only, links to them" \
	    "too; anything else is 'not a regular file', exit 1, and a" \
	    "FIFO with no writer does not block; stdin is taken as it is"
	atf_set timeout 60
}
f_regular_only_body()
{
	printf 'a\n' > a
	printf 'b\n' > b
	mkfifo fifo
	mkdir d
	ln -s a link
	ln -s fifo fifolink
	set -- a fifo d fifolink /dev/null link missing b
	err='cat: fifo: not a regular file
cat: d: not a regular file
cat: fifolink: not a regular file
cat: /dev/null: not a regular file
'
	if unix_socket_file sock; then
		set -- "$@" sock
	fi
	err="${err}cat: missing: No such file or directory\n"
	[ -S sock ] && err="${err}cat: sock: not a regular file\n"
	for opt in f fn fv fu; do
		# What cat makes of the regular files alone.
		if [ $opt = f ]; then
			"$(prog)" a link b > exp
		else
			"$(prog)" -${opt#f} a link b > exp
		fi
		atf_check -s exit:1 -o file:exp -e inline:"$err" \
		    "$(prog)" -$opt "$@"
	done
	# The standard input is not checked, as on NetBSD: a pipe.
	atf_check -o inline:'a\n' -x "cat a | $(prog) -f"
	atf_check -o inline:'a\na\n' -x "cat a | $(prog) -f - a"
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	add_regression_cases
	atf_add_test_case plain
	atf_add_test_case B_bsize
	atf_add_test_case B_bad
	atf_add_test_case f_regular_only
	atf_add_test_case operands_in_order
	atf_add_test_case stdin
	atf_add_test_case options_after_operand
	atf_add_test_case b_flag
	atf_add_test_case e_flag
	atf_add_test_case n_flag
	atf_add_test_case numbering_restarts
	atf_add_test_case s_flag
	atf_add_test_case t_flag
	atf_add_test_case u_flag
	atf_add_test_case formatting_at_terminal
	atf_add_test_case v_flag
	atf_add_test_case v_multibyte
	atf_add_test_case v_multibyte_confined
	atf_add_test_case v_utf8_rfc3629
	atf_add_test_case v_utf8_valid
	atf_add_test_case v_utf8_implied
	atf_add_test_case v_utf8_cut
	atf_add_test_case v_eucjp
	atf_add_test_case E_T_A_flags
	atf_add_test_case combinations
	atf_add_test_case l_flag
	atf_add_test_case l_flag_kept
	atf_add_test_case l_flag_whole_runs
	atf_add_test_case missing_operand
	atf_add_test_case unreadable_operand
	atf_add_test_case directory
	atf_add_test_case dev_full
	atf_add_test_case stdout_closed
	atf_add_test_case unknown_option
	atf_add_test_case progress_signal
	atf_add_test_case no_environment
	atf_add_test_case input_is_output
	atf_add_test_case same_file_refused
	atf_add_test_case same_file_harmless
	atf_add_test_case sigpipe
	atf_add_test_case late_reader
	atf_add_test_case fifo
	atf_add_test_case char_device
	atf_add_test_case socket
	atf_add_test_case devnull_operands
	atf_add_test_case sandbox_never_fails
	atf_add_test_case fifo_replaced_before_turn
	atf_add_test_case renamed_before_turn
	atf_add_test_case sandbox_hostile
	atf_add_test_case changed_before_turn
	atf_add_test_case buffer_boundaries
	atf_add_test_case short_lines
	atf_add_test_case engine_paths
	atf_add_test_case large_file
	atf_add_test_case tty_eof
	atf_add_test_case small_files_calls
	atf_add_test_case fb_siginfo_fifo
	atf_add_test_case fb_operands_at_turn
	atf_add_test_case rescue
}

# tty_run CMD KEYS: run sh -c CMD on a new terminal, type KEYS (printf
# escapes) and print what the terminal showed; fail when CMD is still
# running a minute later.
tty_run()
{
	pty_run "$2" sh -c "$1"
}

atf_test_case tty_eof
tty_eof_head()
{
	atf_set descr "One end of file typed at a terminal ends cat, whatever" \
	    "stdout is"
}
tty_eof_body()
{
	need_faultinj
	need_pty_driver
	# Nothing typed but ^D: cat into a pipe (splice) and into a file.
	for p in auto $PATHS; do
		tty_run "$(path_env $p) $(prog) | wc -c" '\004' > shown ||
		    atf_fail "cat | wc -c, $p: $(cat shown)"
		atf_check -o match:'^ *0$' cat shown
		tty_run "$(path_env $p) $(prog) > out" '\004' > shown ||
		    atf_fail "cat > out, $p: $(cat shown)"
		atf_check -o empty cat out
	done
	# A line, then ^D: the line, once.
	tty_run "$(prog) | wc -c" 'abc\n\004' > shown ||
	    atf_fail "cat | wc -c: $(cat shown)"
	atf_check -o match:'^ *4$' cat shown
}

# calls_per_file DIR LIMITS OUT: after LIMITS (a shell command such as
# ulimit, or nothing), the system calls cat makes for each of the files
# DIR/s*, copied to OUT, beyond what it makes for one, in ./calls; those
# that move data (a read of 0 included), in ./moves; and whether cat
# confined itself with Landlock, yes or no, in ./confined.  (A
# sanitizer's leak check cannot run under ptrace: it is not asked to.)
calls_per_file()
{
	( cd "$1" && eval "$2" &&
	    ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" &&
	    export ASAN_OPTIONS &&
	    trace_calls ../trace1 "$(prog)" s0000 > "$3" &&
	    trace_calls ../trace "$(prog)" s* > "$3" ) ||
	    atf_fail "cat failed traced"
	_n=$(($(ls "$1" | wc -l) - 1))
	echo $((($(wc -l < trace) - $(wc -l < trace1)) / _n)) > calls
	_re='^[0-9]* *(sendfile|copy_file_range|splice|read|write)\('
	echo $((($(grep -Ec "$_re" trace) - $(grep -Ec "$_re" trace1)) / \
	    _n)) > moves
	if grep -Eq '^[0-9]* *landlock_restrict_self\(.*= 0$' trace; then
		echo yes
	else
		echo no
	fi > confined
}

# small_calls DIR LIMITS CONFINED: cat of DIR/s* after LIMITS, into
# /dev/null and into a file, confines itself or not as CONFINED says (yes,
# no; any: unknown), spends at most 4 calls a file (5 confined: the lstat
# for the sandbox's rules), one of which moves it, and copies the bytes
# right.  Into /dev/null, a file is copied before it is looked at: one
# sendfile, and in place of a stat the read of 0 that proves its end, on
# any file system.  Where no call moves a file into /dev/null (FreeBSD's
# sendfile writes to a socket alone), it is read and written: one more.
small_calls()
{
	_what="$1${2:+ ($2)}"
	_max=5
	[ "$3" != no ] || _max=4
	_rw=0
	[ "$(uname -s)" = Linux ] || _rw=1
	for out in /dev/null ../file; do
		calls_per_file "$1" "$2" $out
		[ "$3" = any ] || [ "$(cat confined)" = "$3" ] ||
		    atf_fail "$_what into $out: confined: $(cat confined)"
		_more=0
		[ "$out" = /dev/null ] && _more=$_rw
		[ "$(cat calls)" -le $((_max + _more)) ] ||
		    atf_fail "$_what: $(cat calls) calls a file into $out"
		_moves=1
		[ "$out" = /dev/null ] && _moves=$((2 + _more))
		[ "$(cat moves)" -le $_moves ] ||
		    atf_fail "$_what: $(cat moves) calls move each file into $out"
	done
	cat "$1"/s* | cmp -s - file || atf_fail "$_what: the copy differs"
}

atf_test_case small_files_calls
small_files_calls_head()
{
	atf_set descr "cat spends at most 4 system calls on a small file" \
	    "(open, fstat, one copy, close; into /dev/null, a read of" \
	    "its end in place of fstat, and a write more where no call" \
	    "moves a file there), 5 confined (an lstat before it" \
	    "starts), and copies it whole"
	atf_set timeout 300
}
small_files_calls_body()
{
	need_call_tracer
	if landlock_confines "$(prog)"; then
		landlock=yes
	elif command -v python3 > /dev/null; then
		landlock=no
	else
		landlock=any
	fi
	mkdir few many
	head -c $((4096 * 300)) /dev/urandom |
	    (cd few && split -b 4096 -a 4 -d - s)
	head -c $((4096 * 1200)) /dev/urandom |
	    (cd many && split -b 4096 -a 4 -d - s)
	# A few hundred operands: confined.
	small_calls few "" $landlock
	# More operands than descriptors cat may open at once: none is held
	# before its turn, and cat is confined all the same.
	small_calls few "ulimit -S -n 256 && ulimit -H -n 256" $landlock
	# As xargs gives them, more than 1024 operands: unconfined, for speed.
	small_calls many "" no
}

# Behaviours the generated-tree checker (tests/safety) once pinned by seed
# and case number, written out as cases of their own.

atf_test_case same_file_behind_among_others
same_file_behind_among_others_head()
{
	atf_set descr "Standard input reading the output file ahead of the" \
	    "output offset, between two other files: each lands in order"
	atf_set timeout 120
}
same_file_behind_among_others_body()
{
	need_faultinj
	yes 'some text' | head -c 70000 > orig
	random_file g 2000
	tail -c +61959 orig > part
	for p in auto $PATHS; do
		# Plain: g, f from 61958 on, and g again, over f's start.
		same_file_behind "" 0 "" g part g
		# Formatted, the output could outgrow the input: stdin is
		# refused, and g is written twice.
		same_file_behind -n 1 "cat: stdin: input file is output file\n" g g
	done
}

# same_file_behind OPT STATUS STDERR FILE...: cat OPT g - g, stdin f read
# to 61958, stdout f at 0, exits STATUS saying STDERR, and f holds what
# cat OPT FILE... makes, then the rest of the original f.
same_file_behind()
{
	opt=$1 status=$2 msg=$3
	shift 3
	$(prog) $opt "$@" > made
	len=$(wc -c < made)
	{ cat made; tail -c +$((len + 1)) orig; } > want
	cp orig f
	atf_check -s exit:$status -e inline:"$msg" -x "exec 0<>f
	    dd bs=61958 count=1 of=/dev/null 2>/dev/null
	    exec $(path_env $p) $(prog) $opt g - g 1<>f"
	cmp -s want f || atf_fail "$p $opt: g, stdin, g did not land in order"
}

atf_test_case format_onto_own_input
format_onto_own_input_head()
{
	atf_set descr "A formatting option onto the file being read, at or" \
	    "before the reading point, is refused: its output would outgrow" \
	    "the input and be read back"
	atf_set timeout 120
}
format_onto_own_input_body()
{
	need_faultinj
	seq 1 100000 > orig
	for opt in -n "-u -n" -b -v -e -t -s -vet; do
		for p in auto $PATHS; do
			cp orig g
			# Should cat read its own output after all, the file
			# size limit stops it long before the disk is full.
			atf_check -s exit:1 \
			    -e inline:"cat: g: input file is output file\n" \
			    -x "ulimit -f 40000; exec $(path_env $p) $(prog) $opt g 1<>g"
			cmp -s orig g || atf_fail "cat $opt g 1<>g ($p) changed g"
		done
	done
}

add_regression_cases()
{
	atf_add_test_case format_onto_own_input
	atf_add_test_case same_file_behind_among_others
}
