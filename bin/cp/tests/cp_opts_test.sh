# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cp(1)'s options and their messages, the attributes -p keeps,
# and the progress report.  The program under test is ${rootdir}/bin/cp,
# rootdir being a kyua configuration variable (empty: the installed
# /bin/cp).
#

. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/cp.subr"

usage="usage: cp [-R [-H | -L | -P]] [-f | -i | -n] [-alNpsvx] source target
       cp [-R [-H | -L | -P]] [-f | -i | -n] [-alNpsvx] source ... directory
"

# The permission bits of $1, in octal, on GNU and BSD stat(1) alike.
mode()
{
	stat -c %a "$1" 2>/dev/null || stat -f %Lp "$1"
}

# The flags set on $1, as chattr(1) letters: i, a and d.
flags()
{
	file_flags_of "$1"
}

# The words that run a shell command, the next operand, as user $1:
# su's options differ between Linux and the BSDs.
as_user()
{
	if [ "$(uname -s)" = Linux ]; then
		echo "su $1 -s /bin/sh -c"
	else
		echo "su -m $1 -c"
	fi
}

atf_test_case operand_ends_options
operand_ends_options_head()
{
	atf_set "descr" "Options end at the first operand, on every system"
}
operand_ends_options_body()
{
	mkdir src dst
	echo x > src/f
	atf_check -s exit:1 -e inline:"cp: -p: No such file or directory\n" \
	    $(prog) -R src -p dst
	atf_check -o inline:"x\n" cat dst/src/f
	# Neither -v nor -p took effect: nothing printed, no times kept.
	echo y > a
	touch -t 200101010000 a
	atf_check -s exit:1 -e inline:"cp: -v: No such file or directory\n" \
	    $(prog) a -v dst
	atf_check -s exit:1 -e inline:"cp: -p: No such file or directory\n" \
	    $(prog) a -p dst
	atf_check -o inline:"y\n" cat dst/a
	atf_check test dst/a -nt a
	# An option after the last operand is the target.
	atf_check -s exit:1 -e inline:"cp: -v: Not a directory\n" \
	    $(prog) a dst -v
	atf_check test ! -e ./-v
}

atf_test_case double_dash
double_dash_head()
{
	atf_set "descr" "-- ends the options: operands may begin with a dash"
}
double_dash_body()
{
	echo x > ./-p
	echo y > ./--verbose
	atf_check $(prog) -- -p copy
	atf_check -o inline:"x\n" cat copy
	mkdir dst
	atf_check -o inline:"--verbose -> dst/--verbose\n" \
	    $(prog) -v -- --verbose dst
	atf_check -o inline:"y\n" cat dst/--verbose
	# After --, a -- is an operand like any other.
	atf_check -s exit:1 -e inline:"cp: --: No such file or directory\n" \
	    $(prog) -- -p -- dst
	atf_check -o inline:"x\n" cat dst/-p
}

atf_test_case bad_options
bad_options_head()
{
	atf_set "descr" "Unknown options: the C library's getopt_long message" \
	    "naming it, the usage, 64"
}
bad_options_body()
{
	touch a
	refused_option -s 64 "$usage" Z $(prog) -Z a b
	refused_option -s 64 "$usage" y $(prog) -Ry a b
	refused_option -s 64 "$usage" : $(prog) -: a b
	(POSIXLY_CORRECT=1 && export POSIXLY_CORRECT &&
	    refused_option -s 64 "$usage" Z $(prog) -Z a b) || exit 1
	# A letter after a long option is still a letter.
	refused_option -s 64 "$usage" Z $(prog) --verbose -Zv a b
	refused_option -s 64 "$usage" foo $(prog) --foo a b
	refused_option -s 64 "$usage" foo $(prog) --foo=bar a b
	# glibc and FreeBSD name it "---", musl "-".
	refused_option -s 64 "$usage" - $(prog) --- a b
	# GNU's -p takes an argument as --preserve; ours is not a long option.
	refused_option -s 64 "$usage" preserve $(prog) --preserve=all a b
	refused_option -s 64 "$usage" no $(prog) --no a b
	refused_option -s 64 "$usage" s $(prog) --s a b
	refused_option -s 64 "$usage" no $(prog) --no=x a b
	refused_option -s 64 "$usage" verb $(prog) --verbose=yes a b
	refused_option -s 64 "$usage" verb $(prog) --verb= a b
	refused_option -s 64 "$usage" sort $(prog) --sort=1 a b
	atf_check test ! -e b
}

atf_test_case help
help_head()
{
	atf_set "descr" "--help is an unknown option: the usage on the" \
	    "standard error, exit 64, as FreeBSD's cp"
}
help_body()
{
	refused_option -s 64 "$usage" help $(prog) --help
	refused_option -s 64 "$usage" help $(prog) --help a b
	refused_option -s 64 "$usage" version $(prog) --version
	atf_check test ! -e b
}

atf_test_case usage_exit
usage_exit_head()
{
	atf_set "descr" "Usage errors exit 64 (EX_USAGE), others 1, as FreeBSD"
}
usage_exit_body()
{
	touch a
	atf_check -s exit:64 -e inline:"$usage" $(prog)
	atf_check -s exit:64 -e inline:"$usage" $(prog) a
	atf_check -s exit:64 -e inline:"$usage" $(prog) -R -- a
	m="options may not be specified together"
	atf_check -s exit:1 -e inline:"cp: the -R and -r $m\n" \
	    $(prog) --recursive -r a b
	atf_check -s exit:1 -e inline:"cp: the -l and -s $m\n" \
	    $(prog) --link --symbolic-link a b
	atf_check test ! -e b
}

atf_test_case target_messages
target_messages_head()
{
	atf_set "descr" "A target that cannot be one: FreeBSD 15's messages"
}
target_messages_body()
{
	touch a b baz
	atf_check -s exit:1 -e inline:"cp: baz: Not a directory\n" \
	    $(prog) a b baz
	atf_check -s exit:1 -e inline:"cp: nodir: Not a directory\n" \
	    $(prog) a b nodir
	atf_check -s exit:1 \
	    -e inline:"cp: nodir: No such file or directory\n" \
	    $(prog) a nodir/
	atf_check -s exit:1 \
	    -e inline:"cp: nodir: No such file or directory\n" \
	    $(prog) a nodir///
	atf_check -s exit:1 -e inline:"cp: baz: Not a directory\n" \
	    $(prog) a baz/
	atf_check test ! -e nodir
	# A directory copied to a new name with a slash is fine.
	mkdir d
	atf_check $(prog) -R d newdir/
	atf_check test -d newdir
}

atf_test_case long_options
long_options_head()
{
	atf_set "descr" "Each long option does what its short one does"
}
long_options_body()
{
	mkdir -p src/sub
	echo x > src/sub/f
	ln -s f src/sub/l
	touch -t 200101010000 src/sub/f
	atf_check $(prog) --archive src arch
	atf_check -o inline:"f\n" readlink arch/sub/l
	atf_check test ! arch/sub/f -nt src/sub/f
	atf_check test ! arch/sub/f -ot src/sub/f
	atf_check $(prog) --recursive src rec
	atf_check -o inline:"f\n" readlink rec/sub/l
	atf_check $(prog) --recursive --dereference src deref
	atf_check test -f deref/sub/l -a ! -L deref/sub/l
	atf_check $(prog) -R -L --no-dereference src nodrf
	atf_check test -L nodrf/sub/l
	atf_check $(prog) -R --one-file-system src onefs
	atf_check -o inline:"x\n" cat onefs/sub/f
	echo new > n
	echo old > o
	atf_check -s exit:1 $(prog) --no-clobber n o
	atf_check -o inline:"old\n" cat o
	chmod 0444 o
	atf_check $(prog) --force n o
	atf_check -o inline:"new\n" cat o
	echo old > o2
	atf_check -s exit:1 \
	    -e inline:"overwrite o2? (y/n [n]) not overwritten\n" \
	    $(prog) --interactive n o2 < /dev/null
	atf_check $(prog) --link n hard
	atf_check test n -ef hard
	atf_check $(prog) --symbolic-link n soft
	atf_check -o inline:"n\n" readlink soft
	# Abbreviations that name one option are that option.
	atf_check -o inline:"n -> abbr\n" $(prog) --verb n abbr
	atf_check $(prog) --recur --no-d src abbrdir
	atf_check test -L abbrdir/sub/l
	atf_check -s exit:1 $(prog) --no-c n abbr
}

atf_test_case sort
sort_head()
{
	atf_set "descr" "--sort copies operands and entries in byte order"
}
sort_body()
{
	mkdir src dst
	for n in m b Z a 'a b' _ y 1 B; do
		echo "$n" > "src/$n"
	done
	mkdir src/k
	touch src/k/2 src/k/10 src/k/1
	atf_check -o save:out $(prog) -Rv --sort src sorted
	cat > want <<EOF
src -> sorted
src/1 -> sorted/1
src/B -> sorted/B
src/Z -> sorted/Z
src/_ -> sorted/_
src/a -> sorted/a
src/a b -> sorted/a b
src/b -> sorted/b
src/k -> sorted/k
src/k/1 -> sorted/k/1
src/k/10 -> sorted/k/10
src/k/2 -> sorted/k/2
src/m -> sorted/m
src/y -> sorted/y
EOF
	atf_check cmp want out
	atf_check -o save:out2 $(prog) -v --sort src/y src/B src/m dst
	printf 'src/B -> dst/B\nsrc/m -> dst/m\nsrc/y -> dst/y\n' > want2
	atf_check cmp want2 out2
}

atf_test_case socket_operand
socket_operand_head()
{
	atf_set "descr" "A socket is reported and skipped; as FreeBSD, exit 0"
}
socket_operand_body()
{
	unix_socket_file s ||
	    atf_skip "neither python3 nor nc(1) -U, to make a socket, is here"
	atf_check test -S s
	echo x > f
	mkdir dst
	atf_check -e inline:"cp: s is a socket (not copied).\n" \
	    $(prog) s f dst
	atf_check test ! -e dst/s
	atf_check -o inline:"x\n" cat dst/f
	mkdir d
	mv s d/
	atf_check -e inline:"cp: d/s is a socket (not copied).\n" \
	    -o inline:"d -> e\n" $(prog) -Rv d e
	atf_check test -d e -a ! -e e/s
}

atf_test_case p_xattrs
p_xattrs_head()
{
	atf_set "descr" "-p keeps user extended attributes, of files and dirs"
}
p_xattrs_body()
{
	need_xattr
	mkdir d
	echo x > d/f
	big=$(awk 'BEGIN { while (i++ < 3000) printf "v" }')
	xattr_set d/f color blue
	xattr_set d/f big "$big"
	xattr_set d/f empty
	xattr_set d dir yes
	# A read-only source: its copy takes the attributes all the same.
	chmod 0444 d/f
	atf_check $(prog) -Rp d e
	atf_check_equal "blue" "$(xattr_get e/f color)"
	atf_check_equal "$big" "$(xattr_get e/f big)"
	xattr_get e/f empty > empty || atf_fail "e/f has no user.empty"
	atf_check -o empty cat empty
	atf_check_equal "yes" "$(xattr_get e dir)"
	atf_check_equal 444 "$(mode e/f)"
	atf_check $(prog) -a d/f a
	atf_check_equal "blue" "$(xattr_get a color)"
	# Without -p, no attributes.
	atf_check $(prog) -R d plain
	! xattr_get plain/f color > /dev/null || atf_fail "plain/f has color"
	! xattr_get plain dir > /dev/null || atf_fail "plain has dir"
}

atf_test_case p_flags cleanup
p_flags_head()
{
	atf_set "descr" "-p keeps inode flags, immutable last; -N does not"
	atf_set "require.user" "root"
}
p_flags_body()
{
	need_chattr i
	need_chattr d
	mkdir d
	echo x > d/f
	echo y > d/g
	touch -t 200102030000 d/f d/g
	file_flags d/f +d
	file_flags d/g +a
	file_flags d +i
	atf_check $(prog) -Rp d e
	atf_check_equal "d" "$(flags e/f)"
	atf_check_equal "a" "$(flags e/g)"
	atf_check_equal "i" "$(flags e)"
	# The times were set before the flags that forbid it.
	atf_check test ! e/g -nt d/g -a ! e/g -ot d/g
	atf_check -o inline:"y\n" cat e/g
	# An immutable target is not written, even with -f, nor is a new
	# file made in an immutable directory.
	echo new > n
	echo old > imm
	file_flags imm +i
	atf_check -s exit:1 -e inline:"cp: imm: Operation not permitted\n" \
	    $(prog) n imm
	atf_check -s exit:1 -e inline:"cp: imm: Operation not permitted\n" \
	    $(prog) -f n imm
	atf_check -s exit:1 -e inline:"cp: imm: Operation not permitted\n" \
	    $(prog) -p n imm
	atf_check -o inline:"old\n" cat imm
	atf_check -s exit:1 -e inline:"cp: e/n: Operation not permitted\n" \
	    $(prog) n e
	atf_check test ! -e e/n
	file_flags e -i
	file_flags imm -i
	# -N keeps no flags; the rest still comes.
	atf_check $(prog) -RpN d nf
	atf_check_equal "" "$(flags nf)"
	atf_check_equal "" "$(flags nf/f)"
	atf_check test ! nf/f -nt d/f
	# Without -p, no flags.
	atf_check $(prog) d/f plain
	atf_check_equal "" "$(flags plain)"
	# A flag on the target that the source lacks is cleared.
	touch t
	file_flags t +d
	echo z > s
	atf_check $(prog) -p s t
	atf_check_equal "" "$(flags t)"
}
p_flags_cleanup()
{
	unflag
}

atf_test_case p_unprivileged cleanup
p_unprivileged_head()
{
	atf_set "descr" "As a user, -p keeps what a user may set, reports the rest"
	atf_set "require.user" "root"
}
p_unprivileged_body()
{
	need_xattr
	need_chattr i
	command -v su >/dev/null 2>&1 || atf_skip "su(1) is not installed"
	echo x > imm
	xattr_set imm k v
	file_flags imm +id
	echo y > dump
	file_flags dump +d
	chmod 0444 dump
	xattr_set dump k w
	mkdir out
	chown nobody out
	chmod 0755 . out
	atf_check -s exit:1 -e inline:"cp: chflags: out/imm: Operation not \
permitted\n" $(as_user nobody) "$(prog) -p imm out/imm"
	atf_check -o inline:"x\n" cat out/imm
	atf_check_equal "v" "$(xattr_get out/imm k)"
	atf_check_equal "" "$(flags out/imm)"
	atf_check $(as_user nobody) "$(prog) -p dump out/dump"
	atf_check_equal "d" "$(flags out/dump)"
	atf_check_equal "w" "$(xattr_get out/dump k)"
	atf_check_equal 444 "$(mode out/dump)"
	# Onto a file of another's that the user may write: the data goes
	# in, what cannot be kept is reported once each.
	echo old > theirs
	chmod 0666 theirs
	atf_check -s exit:1 -e inline:"cp: chmod: theirs: Operation not \
permitted\ncp: utimes: theirs: Operation not permitted
cp: chflags: theirs: Operation not permitted\n" \
	    $(as_user nobody) "$(prog) -p dump theirs"
	atf_check -o inline:"y\n" cat theirs
}
p_unprivileged_cleanup()
{
	unflag
}

atf_test_case progress_whole_lines
progress_whole_lines_head()
{
	atf_set "descr" "With 2>&1, progress reports never land inside -v lines"
}
progress_whole_lines_body()
{
	need_signal_view "$(prog)"
	# Enough -v lines that a stdio buffer would be cut inside one.
	i=0
	set --
	while [ $i -lt 300 ]; do
		n=$(printf 'a-file-with-a-name-long-enough-to-fill-buffers-%04d' $i)
		echo $i > $n
		set -- "$@" $n
		i=$((i + 1))
	done
	mkdir dst
	mkfifo fifo
	sig=$(info_signal)
	trap : $sig
	$(prog) -v "$@" fifo dst > out 2>&1 &
	pid=$!
	# cp reads the FIFO once this opens: then it is inside the copy.
	exec 3> fifo
	signal_set $pid $sig || atf_fail "cp never caught $sig"
	tries=0
	until grep -q '%$' out; do
		tries=$((tries + 1))
		[ $tries -le 100 ] || atf_fail "no progress report"
		kill -$sig $pid
		sleep 0.1
	done
	kill -$sig $pid
	echo data >&3
	exec 3>&-
	wait $pid
	atf_check_equal 0 $?
	atf_check -o inline:"data\n" cat dst/fifo
	# Every line whole, each -v line once, the reports after the lines
	# of the files copied before them.
	atf_check -o inline:"301\n" -x "grep -c ' -> dst/[^ ]*$' out"
	atf_check -s exit:1 -o empty -x "grep -v -e '^a-file-[a-z-]*-[0-9]* -> dst/a-file-[a-z-]*-[0-9]*$' \
	    -e '^fifo -> dst/fifo   0%$' -e '^fifo -> dst/fifo$' out"
	first=$(grep -n '%$' out | head -1 | cut -d: -f1)
	atf_check test "$first" -gt 300
	atf_check -o inline:"a-file-with-a-name-long-enough-to-fill-buffers-0299 -> dst/a-file-with-a-name-long-enough-to-fill-buffers-0299\n" \
	    -x "sed -n $((first - 1))p out"
}

atf_test_case progress_apart
progress_apart_head()
{
	atf_set "descr" "Reports go to stderr, -v lines to stdout, both whole"
}
progress_apart_body()
{
	need_signal_view "$(prog)"
	echo x > a
	mkdir dst
	mkfifo fifo
	sig=$(info_signal)
	trap : $sig
	$(prog) -v a fifo dst > out 2> err &
	pid=$!
	exec 3> fifo
	# Until cp has its handler, the signal would end it.
	signal_set $pid $sig || atf_fail "cp never caught $sig"
	tries=0
	until [ -s err ]; do
		tries=$((tries + 1))
		[ $tries -le 100 ] || atf_fail "no progress report"
		kill -$sig $pid
		sleep 0.1
	done
	exec 3>&-
	wait $pid
	atf_check_equal 0 $?
	atf_check -o inline:"a -> dst/a\nfifo -> dst/fifo\n" cat out
	atf_check -s exit:1 -o empty grep -v '^fifo -> dst/fifo   0%$' err
	atf_check -o inline:"\n" tail -c 1 err
}

atf_test_case verbose_order
verbose_order_head()
{
	atf_set "descr" "-v lines and messages in one file come in order"
}
verbose_order_body()
{
	echo x > a
	echo y > b
	mkdir dst
	atf_check -s exit:1 -x "$(prog) -v a nosuch b dst > log 2>&1"
	printf '%s\n' "a -> dst/a" "cp: nosuch: No such file or directory" \
	    "b -> dst/b" > want
	atf_check cmp want log
	# Apart, each gets its own.
	atf_check -s exit:1 -o inline:"a -> dst/a\nb -> dst/b\n" \
	    -e inline:"cp: nosuch: No such file or directory\n" \
	    $(prog) -v a nosuch b dst
}

atf_test_case verbose_write_error
verbose_write_error_head()
{
	atf_set "descr" "-v lines that cannot be written: reported, exit 1"
}
verbose_write_error_body()
{
	[ -w /dev/full ] || atf_skip "no /dev/full here"
	echo x > a
	atf_check -s exit:1 -e inline:"cp: stdout: No space left on device\n" \
	    -x "$(prog) -v a b > /dev/full"
	atf_check -o inline:"x\n" cat b
	atf_check -x "$(prog) a c > /dev/full"
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	add_regression_cases
	atf_add_test_case operand_ends_options
	atf_add_test_case double_dash
	atf_add_test_case bad_options
	atf_add_test_case help
	atf_add_test_case usage_exit
	atf_add_test_case target_messages
	atf_add_test_case long_options
	atf_add_test_case sort
	atf_add_test_case socket_operand
	atf_add_test_case p_xattrs
	atf_add_test_case p_flags
	atf_add_test_case p_unprivileged
	atf_add_test_case progress_whole_lines
	atf_add_test_case progress_apart
	atf_add_test_case verbose_order
	atf_add_test_case verbose_write_error
}

# Behaviours the generated-tree checker (tests/safety) once pinned by seed
# and case number, written out as cases of their own.

atf_test_case slash_through_link_to_dot
slash_through_link_to_dot_head()
{
	atf_set "descr" "An operand ending in / through a link to . copies" \
	    "what . holds: a later operand that is one of its entries" \
	    "fails again on the same target, with a message of its own"
}
slash_through_link_to_dot_body()
{
	mkdir -p src/-dash dst
	ln -s . src/e
	ln -s nothere dst/-dash
	atf_check -s exit:1 \
	    -e inline:"cp: dst/-dash: Not a directory\ncp: dst/-dash: Not a directory\n" \
	    $(prog) -R --no-dereference -N src/e/ src/-dash dst
	atf_check -o inline:".\n" readlink dst/e
	atf_check -o inline:"nothere\n" readlink dst/-dash
}

atf_test_case sort_with_i
sort_with_i_head()
{
	atf_set "descr" "--sort with -i: the operands are copied in byte" \
	    "order, so the one that sorts last is what the target holds"
}
sort_with_i_body()
{
	mkdir -p src/data src/-dash/sub dst
	echo data > src/data/d
	echo dash > src/-dash/sub/d
	echo old > dst/d
	q="overwrite dst/d? (y/n [n]) "
	atf_check -o inline:"src/-dash/sub/d -> dst/d\nsrc/data/d -> dst/d\n" \
	    -e inline:"$q$q" \
	    -x "printf 'yes\\ny' | $(prog) -iv --sort src/data/d src/-dash/sub/d dst"
	atf_check -o inline:"data\n" cat dst/d
}

add_regression_cases()
{
	atf_add_test_case slash_through_link_to_dot
	atf_add_test_case sort_with_i
}
