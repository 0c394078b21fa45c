# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cat's formatting, bin/cat/cook.c: the fuzzer's corpus
# replayed, cook.c fed in chunks against the plain reference; and the
# reference against the installed cat, for every combination of options.
#

prog()
{
	echo "${ROOTDIR:-$(atf_config_get rootdir '')}/bin/cat"
}

atf_test_case corpus
corpus_head()
{
	atf_set descr "Every input of the corpus formats through cook.c," \
	    "in its chunks, as through the reference"
}
corpus_body()
{
	set -- "$(atf_get_srcdir)"/corpus.*
	[ -f "$1" ] || atf_fail "no corpus in $(atf_get_srcdir)"
	atf_check -o "inline:$# inputs replayed\n" \
	    "$(atf_get_srcdir)/cook_replay" "$@"
}

atf_test_case corpus_eucjp
corpus_eucjp_head()
{
	atf_set descr "The corpus's EUC-JP inputs format through cook.c," \
	    "in their chunks, as when it is given a byte at a time"
}
corpus_eucjp_body()
{
	set -- "$(atf_get_srcdir)"/corpus.eucjp-*
	[ -f "$1" ] || atf_fail "no EUC-JP inputs in $(atf_get_srcdir)"
	# glibc's LOCPATH lets a locale built here be used without root;
	# without it, cook_replay passes over these inputs.
	mkdir loc
	localedef -i ja_JP -f EUC-JP loc/ja_JP.EUC-JP > /dev/null 2>&1 ||
	    atf_skip "cannot build a ja_JP.EUC-JP locale with localedef"
	LOCPATH=$PWD/loc
	export LOCPATH
	charmap=${ROOTDIR:-$(atf_config_get rootdir '')}/usr/tests/common/charmap
	[ "$(LC_ALL=ja_JP.EUC-JP "$charmap" 2>/dev/null)" = EUC-JP ] ||
	    atf_skip "the tests' C library does not load the ja_JP.EUC-JP" \
	    "locale built here"
	atf_check -o "inline:$# inputs replayed\n" \
	    "$(atf_get_srcdir)/cook_replay" "$@"
}

atf_test_case cat_is_reference
cat_is_reference_head()
{
	atf_set descr "cat, with every combination of -b -E -n -s -T -v," \
	    "writes what the reference does, numbering each file afresh"
}
cat_is_reference_body()
{
	LC_ALL=C
	export LC_ALL
	# The corpus files as cat's operands, header bytes and all.
	set -- "$(atf_get_srcdir)"/corpus.*
	[ -f "$1" ] || atf_fail "no corpus in $(atf_get_srcdir)"
	bits=0
	while [ $bits -lt 64 ]; do
		opts=
		[ $((bits & 1)) -ne 0 ] && opts="${opts}b"
		[ $((bits & 2)) -ne 0 ] && opts="${opts}E"
		[ $((bits & 4)) -ne 0 ] && opts="${opts}n"
		[ $((bits & 8)) -ne 0 ] && opts="${opts}s"
		[ $((bits & 16)) -ne 0 ] && opts="${opts}T"
		[ $((bits & 32)) -ne 0 ] && opts="${opts}v"
		"$(atf_get_srcdir)/cook_replay" -r "$opts" "$@" > want ||
		    atf_fail "cook_replay -r '$opts' failed"
		echo "cat${opts:+ -$opts}, all the corpus"
		atf_check -o file:want "$(prog)" ${opts:+-$opts} "$@"
		bits=$((bits + 1))
	done
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case corpus
	atf_add_test_case corpus_eucjp
	atf_add_test_case cat_is_reference
}
