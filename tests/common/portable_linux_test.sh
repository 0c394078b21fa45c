# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for portable.subr's BSD branch where stat(1) is GNU's (Linux),
# through a stand-in that answers stat -f as the BSDs' does; the BSDs
# test that branch on their own stat(1) (portable_test).  Installed on
# Linux alone (MK_LINUX_TESTS).
#

portable()
{
	. "$(atf_get_srcdir)/portable.subr"
}

# The files every case looks at.
files()
{
	printf abc > f
	chmod 4751 f
	ln -s f l
	mkfifo p
	mkdir d
	chmod 700 d
	touch_at 2002-03-04T05:06:07.5 f
	touch_at -h 2003-04-05T06:07:08 l
}

check_files()
{
	# Shell functions, which atf_check cannot run: compared here.
	atf_check_equal "3 4751 file 1015218367.500000000" \
	    "$(stat_of 'size perm type mtime' f)"
	atf_check_equal "1,symlink 1049522828.000000000" \
	    "$(stat_of 'size,type mtime' l)"
	atf_check_equal "fifo 0" "$(stat_of 'type size' p)"
	atf_check_equal "dir 700 2" "$(stat_of 'type perm nlink' d)"
	atf_check_equal "$(id -u) $(id -g)" "$(stat_of 'uid gid' f)"
	ln f f2
	atf_check_equal "$(stat_of 'dev ino' f) 2" \
	    "$(stat_of 'dev ino nlink' f2)"
	if stat_of size missing > out 2> err; then
		atf_fail "stat_of succeeds on a missing file"
	fi
	[ ! -s out ] && [ -s err ] ||
	    atf_fail "stat_of on a missing file: no error, or some output"
}

# A stand-in for the BSDs' stat -f, made of GNU's stat -c, in bin/.
bsd_stat()
{
	mkdir -p bin
	{ echo '#!/bin/sh'; echo "gnu=$(command -v stat)"; } > bin/stat
	cat >> bin/stat <<'STAT'
[ "$1" = -f ] || exit 1
fmt=$(printf '%s' "$2" | sed -e 's/%z/%s/g' -e 's/%p/@P%f@/g' \
    -e 's/%l/%h/g' -e 's/%\.9Fa/%.9X/g' -e 's/%\.9Fm/%.9Y/g' \
    -e 's/%\.9Fc/%.9Z/g')
out=$("$gnu" -c "$fmt" "$3") || exit 1
while :; do
	case $out in
	*@P*@*)	;;
	*)	break ;;
	esac
	pre=${out%%@P*}
	rest=${out#"$pre"@P}
	hex=${rest%%@*}
	out=$pre$(printf %o $((0x$hex)))${rest#*@}
done
printf '%s\n' "$out"
STAT
	chmod +x bin/stat
	PATH=$(pwd)/bin:$PATH
	_PORTABLE_STAT=
}

atf_test_case stat_bsd
stat_bsd_head()
{
	atf_set descr "stat_of through the BSDs' stat -f letters"
}
stat_bsd_body()
{
	portable
	stat -c %s / >/dev/null 2>&1 || atf_skip "stat(1) is not GNU's here"
	files
	bsd_stat
	check_files
	[ "$_PORTABLE_STAT" = bsd ] || atf_fail "the stand-in was not used"
}

atf_init_test_cases()
{
	atf_add_test_case stat_bsd
}
