# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cat(1): every option and the combinations people type, every
# error, the kinds of input (pipes, FIFOs, sockets, /proc, devices, files
# past 4 GiB) and each of the engine's copy paths forced in turn.
#

prog()
{
	echo "$(atf_config_get rootdir '')/bin/cat"
}

PATHS="rw mmap cfr splice sendfile"

# The byte forms of -v are the C locale's; v_multibyte sets its own.
LC_ALL=C
export LC_ALL

# Random bytes of the given length into a file.
random_file()
{
	dd if=/dev/urandom of="$1" bs="$2" count=1 2>/dev/null
	[ "$(wc -c < "$1")" -eq "$2" ] || atf_fail "could not make $1"
}

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

# Run "$@" until it succeeds, for at most about 30 seconds.
wait_until()
{
	n=0
	until "$@"; do
		n=$((n + 1))
		[ $n -lt 300 ] || return 1
		sleep 0.1
	done
}

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
	LC_ALL=C.UTF-8
	export LC_ALL
	[ "$(locale charmap 2>/dev/null)" = UTF-8 ] ||
	    atf_skip "no C.UTF-8 locale"
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
	atf_check -o file:edge -x "BUFSZ_SIZE=4096 $(prog) -v edge"
	atf_check -o file:edge -x "BUFSZ_SIZE=4096 $(prog) -v - < edge"
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
	[ -r /proc/locks ] || atf_skip "no /proc/locks to watch the lock queue"
	: > out
	ino=$(ls -i out | awk '{ print $1 }')
	mkfifo fifo
	# The first cat takes the lock, then waits for a writer on the FIFO.
	"$(prog)" -l fifo >> out &
	first=$!
	wait_until grep -q "[0-9]: POSIX .*:$ino " /proc/locks ||
	    atf_fail "the first cat took no lock"
	# The second queues behind it, however ready its input.
	printf 'second\n' > second
	"$(prog)" -l second >> out &
	next=$!
	wait_until grep -q -- "-> POSIX .*:$ino " /proc/locks ||
	    atf_fail "the second cat did not wait for the lock"
	printf 'first\n' > fifo
	wait $first || atf_fail "first cat failed"
	wait $next || atf_fail "second cat failed"
	atf_check -o inline:'first\nsecond\n' cat out

	printf 'x\n' > x
	atf_check -o inline:'x\n' "$(prog)" -l x
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
	[ -c /dev/full ] || atf_skip "no /dev/full"
	printf 'a\n' > a
	random_file big 3000000
	for p in auto $PATHS; do
		for f in a big; do
			atf_check -s exit:1 \
			    -e inline:'cat: stdout: No space left on device\n' \
			    -x "BUFSZ_PATH=$p $(prog) $f a > /dev/full"
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
	printf 'a\n' > a
	atf_check -s exit:1 -e inline:'cat: illegal option -- z
usage: cat [-AETbelnstuv] [file ...]\n' "$(prog)" -z a
	atf_check -s exit:1 -e inline:'cat: illegal option -- -
usage: cat [-AETbelnstuv] [file ...]\n' "$(prog)" --number a
}

atf_test_case bad_environment
bad_environment_head()
{
	atf_set descr "A malformed BUFSZ_PATH or BUFSZ_SIZE is ignored, with" \
	    "one warning"
}
bad_environment_body()
{
	printf 'a\n' > a
	for env in BUFSZ_PATH=bogus BUFSZ_PATH= BUFSZ_SIZE=12k BUFSZ_SIZE=0 \
	    BUFSZ_SIZE=; do
		atf_check -o inline:'a\na\n' -e match:"^cat: ${env%%=*}=" \
		    env "$env" "$(prog)" a a
		atf_check -o empty -x "env '$env' $(prog) a a 2>&1 >/dev/null |
		    wc -l | grep -qx ' *1'"
	done
	atf_check -o inline:'a\n' env BUFSZ_PATH=auto BUFSZ_SIZE=4096 "$(prog)" a
}

atf_test_case input_is_output
input_is_output_head()
{
	atf_set descr "cat f >> f is refused, not grown until the disk is full"
	atf_set timeout 60
}
input_is_output_body()
{
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
}

atf_test_case sigpipe
sigpipe_head()
{
	atf_set descr "A reader that goes away kills cat with SIGPIPE, silently"
	atf_set timeout 120
}
sigpipe_body()
{
	random_file big 8000000
	for p in auto $PATHS; do
		for opt in "" -v; do
			(BUFSZ_PATH=$p "$(prog)" $opt big 2> err; echo $? > rc) |
			    head -c 1 > /dev/null
			atf_check -o inline:'141\n' cat rc
			atf_check -o empty cat err
		done
	done
}

atf_test_case proc_file
proc_file_head()
{
	atf_set descr "/proc files (size 0, but content) are copied whole"
}
proc_file_body()
{
	[ -r /proc/version ] || atf_skip "no /proc/version"
	dd if=/proc/version of=ref bs=65536 2>/dev/null
	[ -s ref ] || atf_fail "could not read /proc/version"
	for p in auto $PATHS; do
		BUFSZ_PATH=$p "$(prog)" /proc/version > out ||
		    atf_fail "path $p failed"
		atf_check cmp ref out
		atf_check -o file:ref -x "BUFSZ_PATH=$p $(prog) /proc/version | cat"
	done
	dd if=/proc/filesystems of=ref bs=65536 2>/dev/null
	atf_check -o file:ref "$(prog)" /proc/filesystems
}

atf_test_case fifo
fifo_head()
{
	atf_set descr "A FIFO operand is read to its end"
	atf_set timeout 60
}
fifo_body()
{
	random_file data 1000000
	mkfifo fifo
	for p in auto $PATHS; do
		dd if=data of=fifo bs=7777 2>/dev/null &
		BUFSZ_PATH=$p "$(prog)" fifo > out || atf_fail "path $p failed"
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
	# python3 is the Unix-domain server at hand on Debian and FreeBSD.
	command -v python3 > /dev/null && python3 -c '' ||
	    atf_skip "python3 is needed for a Unix-domain socket server"
	random_file payload 300000
	cat > server.py <<'EOF'
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind("sock.tmp")
s.listen(1)
# Named only once it listens, so that a connect cannot come too early.
os.rename("sock.tmp", "sock")
s.settimeout(60)
c, _ = s.accept()
c.settimeout(60)
# cat only reads: it must shut its side, so that we see its end first.
if c.recv(1) != b"":
    sys.exit(1)
with open("payload", "rb") as f:
    c.sendall(f.read())
c.close()
EOF
	python3 server.py &
	wait_until test -S sock || atf_fail "the server did not start"
	atf_check -o file:payload "$(prog)" sock
	wait $! || atf_fail "the server saw no shutdown from cat"

	# Nobody listening: the error is the connect's.
	atf_check -s exit:1 -e inline:'cat: sock: Connection refused\n' \
	    "$(prog)" sock
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
		atf_check -o file:exp_n -x "BUFSZ_SIZE=$size $(prog) -n in"
		atf_check -o file:exp_b -x "BUFSZ_SIZE=$size $(prog) -b in"
		# The same through a pipe, where reads come in any sizes.
		atf_check -o file:exp_n \
		    -x "dd if=in bs=1000 2>/dev/null | BUFSZ_SIZE=$size $(prog) -n"
	done
	# -vet and -bs at 4 KiB against one buffer that holds it all.
	for opt in -vet -bs -ns -benstuv; do
		"$(prog)" $opt in > whole
		atf_check -o file:whole -x "BUFSZ_SIZE=4096 $(prog) $opt in"
	done

	# Lines far longer than either buffer.
	awk 'BEGIN { for (n = 0; n < 3; n++) { for (i = 0; i < 20000; i++)
		printf "%c", 97 + (i + n) % 26; printf "\n" } }' > long
	awk '{ printf "%6d\t%s$\n", NR, $0 }' long > exp
	atf_check -o file:exp -x "BUFSZ_SIZE=4096 $(prog) -ne long"
	atf_check -o file:exp -x "BUFSZ_SIZE=4096 $(prog) -be - < long"

	# Empty lines that straddle the boundary, for -s and -b.
	awk 'BEGIN { for (i = 0; i < 4095; i++) printf "y"; printf "\n\n\n\nz\n" }' \
	    > edge
	awk 'BEGIN { printf "     1\t"; for (i = 0; i < 4095; i++) printf "y"
		printf "\n\n     2\tz\n" }' > exp
	atf_check -o file:exp -x "BUFSZ_SIZE=4096 $(prog) -bs edge"
	awk 'BEGIN { printf "     1\t"; for (i = 0; i < 4095; i++) printf "y"
		printf "$\n      \t$\n      \t$\n      \t$\n     2\tz$\n" }' > exp
	atf_check -o file:exp -x "BUFSZ_SIZE=4096 $(prog) -be edge"
}

atf_test_case engine_paths
engine_paths_head()
{
	atf_set descr "Each copy path, forced, copies byte for byte"
	atf_set timeout 300
}
engine_paths_body()
{
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
			BUFSZ_PATH=$p "$(prog)" $f > out ||
			    atf_fail "$p: $f failed"
			cmp $f out || atf_fail "$p: $f differs"
			BUFSZ_PATH=$p "$(prog)" $f | cmp - $f ||
			    atf_fail "$p: $f differs through a pipe"
			printf 'head' > app
			BUFSZ_PATH=$p "$(prog)" $f >> app ||
			    atf_fail "$p: $f appended failed"
			{ printf 'head'; dd if=$f bs=1048576 2>/dev/null; } > exp
			cmp exp app || atf_fail "$p: $f differs appended"
			BUFSZ_PATH=$p "$(prog)" - < $f > out ||
			    atf_fail "$p: $f as stdin failed"
			cmp $f out || atf_fail "$p: $f differs as stdin"
		done
		BUFSZ_PATH=$p "$(prog)" one page page1 mib > out ||
		    atf_fail "$p: all failed"
		cmp all out || atf_fail "$p: concatenation differs"
		BUFSZ_PATH=$p BUFSZ_SIZE=4096 "$(prog)" one page page1 mib |
		    cmp - all || atf_fail "$p: 4 KiB buffer differs"
		# Input read from the middle, as "-" after the shell read some.
		(dd bs=1000 count=1 of=/dev/null 2>/dev/null
		 BUFSZ_PATH=$p "$(prog)") < mib > rest
		atf_check -o inline:'3144728\n' -x "wc -c < rest | tr -d ' '"
		tail -c 3144728 mib | cmp - rest || atf_fail "$p: offset ignored"
	done
}

atf_test_case large_file
large_file_head()
{
	atf_set descr "A sparse file past 4 GiB is copied whole"
	atf_set timeout 300
}
large_file_body()
{
	. "$(atf_get_srcdir)/../../common/portable.subr"
	sparse_file big 5G || atf_skip "cannot make a 5 GiB file"
	# Markers just past 4 GiB and at the very end.
	printf 'past4GiB' | dd of=big bs=1 seek=4294967300 conv=notrunc \
	    2>/dev/null
	printf '0123456789abcdef' | dd of=big bs=1 seek=5368709104 \
	    conv=notrunc 2>/dev/null
	[ "$(wc -c < big)" -eq 5368709120 ] || atf_fail "big is not 5 GiB"
	# cmp reads the file beside the pipe: nothing stores 5 GiB.
	for p in auto mmap splice sendfile; do
		atf_check -x "BUFSZ_PATH=$p $(prog) big | cmp - big"
	done
}

atf_test_case mmap_truncated
mmap_truncated_head()
{
	atf_set descr "A file truncated under the mmap path is no SIGBUS"
	atf_set timeout 120
}
mmap_truncated_body()
{
	. "$(atf_get_srcdir)/../../common/portable.subr"
	dd if=/dev/zero of=big bs=1048576 count=64 2>/dev/null
	(BUFSZ_PATH=mmap "$(prog)" big 2> err; echo $? > rc) | {
		head -c 1048576 > /dev/null
		sparse_file big 4096
		wc -c > /dev/null
	}
	rc=$(cat rc)
	case $rc in
	0)	atf_check -o empty cat err ;;
	1)	atf_check -o match:'^cat: big: ' cat err ;;
	*)	atf_fail "cat died or failed with status $rc: $(cat err)" ;;
	esac
}

atf_init_test_cases()
{
	atf_add_test_case plain
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
	atf_add_test_case v_flag
	atf_add_test_case v_multibyte
	atf_add_test_case E_T_A_flags
	atf_add_test_case combinations
	atf_add_test_case l_flag
	atf_add_test_case missing_operand
	atf_add_test_case unreadable_operand
	atf_add_test_case directory
	atf_add_test_case dev_full
	atf_add_test_case stdout_closed
	atf_add_test_case unknown_option
	atf_add_test_case bad_environment
	atf_add_test_case input_is_output
	atf_add_test_case sigpipe
	atf_add_test_case proc_file
	atf_add_test_case fifo
	atf_add_test_case char_device
	atf_add_test_case socket
	atf_add_test_case buffer_boundaries
	atf_add_test_case engine_paths
	atf_add_test_case large_file
	atf_add_test_case mmap_truncated
}
