# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for portable.subr's BSD branch where stat(1) is GNU's (Linux),
# through a stand-in that answers stat -f as the BSDs' does; the BSDs
# test that branch on their own stat(1) (portable_test).  Installed on
# Linux alone (MK_LINUX_TESTS).
#

# portable, files, check_files: the two suites' shared functions.
. "$(atf_get_srcdir)/portable_files.subr"

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
