# SPDX-License-Identifier: BSD-2-Clause
#
# The safety checker in the suite (README): a fixed seed of generated
# cases for cp, for cat on its own output, and for the /proc and /sys
# files; then each failure the checker found, as an explicit scenario.
# The programs are ${rootdir}/bin/cp and ${rootdir}/bin/cat (rootdir: a
# kyua configuration variable; empty, the installed ones).
#
# Every item the checker knows by name (FINDINGS.md) is fixed, so any
# finding fails a case: one the checker labels as a known item is that
# item come back.
#

root()
{
	atf_config_get rootdir ''
}

cp_prog()
{
	echo "$(root)/bin/cp"
}

cat_prog()
{
	echo "$(root)/bin/cat"
}

# run_safety MODE CASES: seed 1, CASES case numbers of MODE.
run_safety()
{
	"$(atf_get_srcdir)/safety" -P "$(atf_get_srcdir)/libsafetyfd.so" \
	    -r "$(root)" -w "$PWD" -s 1 -n "$2" "$1" > out 2>&1
	status=$?
	cat out
	case $status in
	0)
		if grep -q "^safety: $1: 0 cases" out; then
			atf_skip "no $1 case can run on this host"
		fi
		;;
	2)
		atf_fail "fixed items are back:" \
		    "$(sed -n "s/^safety: $1: .*known: //p" out)"
		;;
	*)
		atf_fail "safety exited $status: findings that are not known"
		;;
	esac
}

# The bytes a file gives a plain read loop.
read_loop()
{
	dd if="$1" bs=4096 status=none
}

atf_test_case cp_generated
cp_generated_head()
{
	atf_set "descr" "Generated trees and cp invocations keep every" \
	    "invariant (seed 1, 300 cases)"
}
cp_generated_body()
{
	run_safety cp 300
}

atf_test_case cat_generated
cat_generated_head()
{
	atf_set "descr" "cat with its input and output on one file is" \
	    "refused or harmless (seed 1, 200 cases)"
}
cat_generated_body()
{
	run_safety cat 200
}

atf_test_case procsys_generated
procsys_generated_head()
{
	atf_set "descr" "cat and cp of /proc and /sys files give what a" \
	    "read loop gives (seed 1, 100 cases)"
}
procsys_generated_body()
{
	run_safety proc 100
}

# Each case the checker once misjudged (FINDINGS.md, "The checker's own
# mistakes"), as seed:case.  A case is what the generator makes of its
# seed and number, as root, for a cp with our long options: run as
# another user, against another cp or by another generator, the same
# numbers name other cases (that last one means new pins here).
CORRECTED="14814324727:3921 14814324727:3129 14814324727:7927
    21581835010:14345 27335400803:6116 7912628214:934"

atf_test_case checker_corrections
checker_corrections_head()
{
	atf_set "descr" "The cp cases the checker once misjudged are" \
	    "judged as FreeBSD 15's cp behaves"
	atf_set "require.user" "root"
}
checker_corrections_body()
{
	for pin in $CORRECTED; do
		"$(atf_get_srcdir)/safety" -P "$(atf_get_srcdir)/libsafetyfd.so" \
		    -r "$(root)" -w "$PWD" -s "${pin%:*}" -c "${pin#*:}" cp \
		    > out 2>&1
		status=$?
		cat out
		[ $status -eq 0 ] && grep -q '^safety: cp: 1 cases, 0 failed' out ||
		    atf_fail "seed ${pin%:*} case ${pin#*:} misjudged again" \
		    "(exit $status)"
	done
}

atf_test_case cp_onto_link_to_source
cp_onto_link_to_source_head()
{
	atf_set "descr" "cp -R, -a, -RP, -RH onto a link to the source" \
	    "never empties the source (issue 10 #1)"
}
cp_onto_link_to_source_body()
{
	seq 1 100000 > want
	for o in -R -a -RP -RH -RL; do
		seq 1 100000 > f
		rm -f lnk
		ln -s f lnk
		$(cp_prog) $o f lnk 2>/dev/null
		cmp -s f want || atf_fail "cp $o f lnk changed f"
	done
}

atf_test_case cp_onto_link_farm
cp_onto_link_farm_head()
{
	atf_set "descr" "cp -R of a tree over a farm of links into it" \
	    "changes no source file (issue 10 #1)"
}
cp_onto_link_farm_body()
{
	mkdir src src/d farm farm/d
	seq 1 1000 > src/a
	seq 1 2000 > src/d/b
	cp src/a want.a
	cp src/d/b want.b
	ln -s "$PWD/src/a" farm/a
	ln -s "$PWD/src/d/b" farm/d/b
	$(cp_prog) -R src/ farm 2>/dev/null
	cmp -s src/a want.a || atf_fail "src/a changed"
	cmp -s src/d/b want.b || atf_fail "src/d/b changed"
}

atf_test_case cp_sysfs
cp_sysfs_head()
{
	atf_set "descr" "cp of a sysfs file holds what reading it gives," \
	    "not 4096 bytes (issue 10 #2)"
}
cp_sysfs_body()
{
	n=0
	for f in /sys/devices/system/cpu/online \
	    /sys/kernel/mm/transparent_hugepage/enabled; do
		[ -r "$f" ] || continue
		n=$((n + 1))
	done
	[ $n -gt 0 ] || atf_skip "no sysfs files to copy here"
	for f in /sys/devices/system/cpu/online \
	    /sys/kernel/mm/transparent_hugepage/enabled; do
		[ -r "$f" ] || continue
		read_loop "$f" > want
		atf_check $(cp_prog) "$f" copy
		cmp -s want copy || atf_fail "cp $f: $(wc -c < copy) bytes," \
		    "reading gives $(wc -c < want)"
		rm -f copy
	done
}

atf_test_case cat_shared_offset
cat_shared_offset_head()
{
	atf_set "descr" "cat <>f 1>&0 (one open file, one offset) is" \
	    "refused, on every path and with -n (issue 10 #3)"
}
cat_shared_offset_body()
{
	seq 1 300000 > want
	for p in "" rw mmap cfr splice sendfile; do
		for o in "" -n; do
			cp want f
			env ${p:+BUFSZ_PATH=$p} sh -c \
			    "exec $(cat_prog) $o <>f 1>&0" 2>err
			s=$?
			cmp -s f want || atf_fail "cat $o <>f 1>&0" \
			    "(${p:-auto}) changed f, exit $s"
			[ $s -eq 1 ] && grep -q \
			    '^cat: stdin: input file is output file$' err ||
			    atf_fail "cat $o <>f 1>&0 (${p:-auto}): exit $s," \
			    "$(cat err)"
		done
	done
}

atf_test_case cat_format_overtakes
cat_format_overtakes_head()
{
	atf_set "descr" "cat -n f 1<>f is refused or ends as cat -n of f," \
	    "never reads its own output (FINDINGS F1)"
}
cat_format_overtakes_body()
{
	for o in -n "-u -n" -v -e; do
		seq 1 100000 > g
		$(cat_prog) $o g > want
		(ulimit -f 40000; trap '' XFSZ; exec $(cat_prog) $o g 1<>g) \
		    2>err
		s=$?
		if [ $s -eq 1 ] && grep -q 'input file is output file' err; then
			continue
		fi
		[ $s -eq 0 ] || atf_fail "cat $o g 1<>g: exit $s, $(cat err)"
		cmp -s g want || atf_fail "cat $o g 1<>g: g holds" \
		    "$(wc -c < g) bytes, not the $(wc -c < want) of cat $o g"
	done
}

atf_test_case cat_onto_itself
cat_onto_itself_head()
{
	atf_set "descr" "cat f g 1<>f copies f onto itself and then g after" \
	    "it, or refuses f (FINDINGS F2)"
}
cat_onto_itself_body()
{
	for p in "" rw mmap cfr splice sendfile; do
		printf 'hello\n' > f
		printf 'world\n' > g
		env ${p:+BUFSZ_PATH=$p} sh -c "exec $(cat_prog) f g 1<>f" \
		    2>err
		s=$?
		if [ $s -eq 1 ] && grep -q '^cat: f: input file is output' err
		then
			[ "$(cat f)" = world ] ||
			    atf_fail "cat f g 1<>f (${p:-auto}) refused f," \
			    "then left $(tr '\n' '|' < f)"
			continue
		fi
		[ $s -eq 0 ] || atf_fail "cat f g 1<>f (${p:-auto}): exit $s"
		printf 'hello\nworld\n' > want
		cmp -s f want || atf_fail "cat f g 1<>f (${p:-auto}) left" \
		    "$(tr '\n' '|' < f)"
	done
}

atf_test_case cp_p_partial
cp_p_partial_head()
{
	atf_set "descr" "cp -p does not give a copy cut short (here by the" \
	    "file size limit) the source's times (issue 10 #4)"
}
cp_p_partial_body()
{
	dd if=/dev/zero bs=1024 count=1024 status=none | tr '\0' x > f
	touch -t 200101010000 f
	(ulimit -f 200; trap '' XFSZ; exec $(cp_prog) -p f g) 2>err
	s=$?
	[ $s -eq 1 ] || atf_fail "cp -p past the file size limit: exit $s"
	cmp -s f g && atf_fail "the copy is whole: the limit did not bite"
	[ f -nt g ] || [ g -nt f ] ||
	    atf_fail "the cut-short copy has the source's time"
}

atf_test_case cp_target_link_to_dir
cp_target_link_to_dir_head()
{
	atf_set "descr" "A link to a directory at the target is never" \
	    "followed, whatever -H, -L or -r say (issue 10 #5)"
}
cp_target_link_to_dir_body()
{
	for o in -R -RH -a -r -RL; do
		rm -rf foo bar baz
		mkdir foo bar
		ln -s .. foo/bar
		touch bar/baz
		$(cp_prog) $o bar foo 2>/dev/null
		[ -e baz ] && atf_fail "cp $o bar foo wrote ./baz"
	done
	return 0
}

atf_test_case cp_target_link_outside
cp_target_link_outside_head()
{
	atf_set "descr" "cp -R never writes through a link in the target" \
	    "tree that leads outside it (issue 10 #6)"
}
cp_target_link_outside_body()
{
	mkdir -p d/dir dst/dir out
	echo new > d/dir/file
	echo secret > out/o
	ln -s ../../out/o dst/dir/file
	for o in -R -a -r; do
		$(cp_prog) $o d/dir dst 2>/dev/null
		[ "$(cat out/o)" = secret ] ||
		    atf_fail "cp $o d/dir dst wrote out/o"
	done
}

atf_test_case cp_progress_whole_lines
cp_progress_whole_lines_head()
{
	atf_set "descr" "Progress reports asked for with SIGUSR1 while -v's" \
	    "lines go to the same file never cut a line (issue 15)"
}
cp_progress_whole_lines_body()
{
	[ -r /proc/$$/status ] ||
	    atf_skip "no /proc/PID/status to see when cp catches SIGUSR1"
	mkdir many dst
	i=0
	while [ $i -lt 300 ]; do
		: > many/file$i
		i=$((i + 1))
	done
	dd if=/dev/zero bs=1048576 count=32 status=none > big
	BUFSZ_PATH=rw BUFSZ_SIZE=4096 $(cp_prog) -Rv many big dst > out 2>&1 &
	pid=$!
	# A SIGUSR1 before cp has its handler would kill it.
	n=0
	while :; do
		st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p
		    s/^SigCgt:[[:space:]]*/mask /p' /proc/$pid/status \
		    2>/dev/null)
		# Gone, or a zombie: done.
		case $st in
		""|Z*|X*)
			break ;;
		esac
		# SIGUSR1 is 10 on Linux: bit 9, the third hex digit's 2.
		case $st in
		*mask\ *[2367abefABEF][0-9a-fA-F][0-9a-fA-F])
			kill -USR1 $pid 2>/dev/null && n=$((n + 1)) ;;
		esac
	done
	wait $pid
	s=$?
	[ $s -eq 0 ] || atf_fail "cp exit $s: $(cat out)"
	[ $n -gt 0 ] || atf_skip "cp was done before it could be signalled"
	bad=$(grep -Ev '^(many -> dst/many|many/file[0-9]+ -> dst/many/file[0-9]+|big -> dst/big)( +[0-9]+%)?$' out)
	[ -z "$bad" ] || atf_fail "lines cut by a progress report: $bad"
	cmp -s big dst/big || atf_fail "dst/big is not a copy of big"
}

atf_test_case cp_options_end
cp_options_end_head()
{
	atf_set "descr" "Options end at the first operand: cp -R src -p dst" \
	    "copies an operand -p, and fails on it (issue 10 #7)"
}
cp_options_end_body()
{
	mkdir src dst
	atf_check -s exit:1 -e inline:"cp: -p: No such file or directory\n" \
	    $(cp_prog) -R src -p dst
	[ -d dst/src ] || atf_fail "dst/src was not made"
}

atf_test_case cp_operand_is_target
cp_operand_is_target_head()
{
	atf_set "descr" "An operand that is the target directory is refused," \
	    "whatever operand wrote into the target before it (FINDINGS F3)"
}
cp_operand_is_target_body()
{
	mkdir src dst
	ln -s ../dst src/k
	atf_check -s exit:1 -e match:"identical" $(cp_prog) -R src/k/ dst
	atf_check -s exit:1 -e match:"^cp: .*src/k/.*identical" \
	    $(cp_prog) -R src/ src/k/ dst
}

atf_init_test_cases()
{
	atf_add_test_case cp_generated
	atf_add_test_case cat_generated
	atf_add_test_case procsys_generated
	atf_add_test_case checker_corrections
	atf_add_test_case cp_onto_link_to_source
	atf_add_test_case cp_onto_link_farm
	atf_add_test_case cp_sysfs
	atf_add_test_case cat_shared_offset
	atf_add_test_case cat_format_overtakes
	atf_add_test_case cat_onto_itself
	atf_add_test_case cp_p_partial
	atf_add_test_case cp_target_link_to_dir
	atf_add_test_case cp_target_link_outside
	atf_add_test_case cp_options_end
	atf_add_test_case cp_progress_whole_lines
	atf_add_test_case cp_operand_is_target
}
