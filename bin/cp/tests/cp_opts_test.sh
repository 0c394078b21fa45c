# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cp(1)'s options and their messages, the attributes -p keeps,
# and the progress report.  The program under test is ${rootdir}/bin/cp,
# rootdir being a kyua configuration variable (empty: the installed
# /bin/cp).
#

prog()
{
	echo "$(atf_config_get rootdir '')/bin/cp"
}

usage="usage: cp [-R [-H | -L | -P]] [-f | -i | -n] [-alNpsvx] source target
       cp [-R [-H | -L | -P]] [-f | -i | -n] [-alNpsvx] source ... directory
"

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
	touch -d 2001-01-01 a
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
	atf_set "descr" "Unknown options: one BSD-style message, the usage, 64"
}
bad_options_body()
{
	touch a
	atf_check -s exit:64 -e inline:"cp: illegal option -- Z\n$usage" \
	    $(prog) -Z a b
	atf_check -s exit:64 -e inline:"cp: illegal option -- y\n$usage" \
	    $(prog) -Ry a b
	atf_check -s exit:64 -e inline:"cp: illegal option -- :\n$usage" \
	    $(prog) -: a b
	atf_check -s exit:64 -e inline:"cp: illegal option -- --foo\n$usage" \
	    $(prog) --foo a b
	atf_check -s exit:64 -e inline:"cp: illegal option -- --foo\n$usage" \
	    $(prog) --foo=bar a b
	# GNU's -p takes an argument as --preserve; ours is not a long option.
	atf_check -s exit:64 \
	    -e inline:"cp: illegal option -- --preserve\n$usage" \
	    $(prog) --preserve=all a b
	atf_check -s exit:64 -e inline:"cp: ambiguous option -- --no\n$usage" \
	    $(prog) --no a b
	atf_check -s exit:64 -e inline:"cp: ambiguous option -- --s\n$usage" \
	    $(prog) --s a b
	m="option doesn't take an argument"
	atf_check -s exit:64 -e inline:"cp: $m -- --verbose\n$usage" \
	    $(prog) --verbose=yes a b
	atf_check -s exit:64 -e inline:"cp: $m -- --verb\n$usage" \
	    $(prog) --verb= a b
	atf_check -s exit:64 -e inline:"cp: $m -- --sort\n$usage" \
	    $(prog) --sort=1 a b
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
	touch -d 2001-01-01 src/sub/f
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

atf_test_case socket_operand
socket_operand_head()
{
	atf_set "descr" "A socket is reported and skipped; as FreeBSD, exit 0"
}
socket_operand_body()
{
	if ! command -v python3 >/dev/null 2>&1; then
		atf_skip "python3, to make a socket, is not installed"
	fi
	python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("s")'
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

atf_init_test_cases()
{
	atf_add_test_case operand_ends_options
	atf_add_test_case double_dash
	atf_add_test_case bad_options
	atf_add_test_case usage_exit
	atf_add_test_case target_messages
	atf_add_test_case long_options
	atf_add_test_case socket_operand
}
