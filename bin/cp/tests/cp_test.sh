# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cp(1).  The program under test is ${rootdir}/bin/cp, rootdir
# being a kyua configuration variable (empty: the installed /bin/cp).
#

# info_signal, path_env, stat_of: the suites' shared functions; prog and
# paths: cp's.
. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/cp.subr"

# fact WHAT FILE: one fact about FILE (never through a link), printed
# alike by GNU stat -c and the BSDs' stat -f: mode (the permission bits,
# octal), size, blocks (of 512 bytes), id (device,inode), mtime and atime
# (seconds since the epoch, with nine decimals), rdev (major,minor).
fact()
{
	if stat -c %i / >/dev/null 2>&1; then
		case $1 in
		mode)	_f=%a ;;
		size)	_f=%s ;;
		blocks)	_f=%b ;;
		id)	_f=%d,%i ;;
		mtime)	_f=%.9Y ;;
		atime)	_f=%.9X ;;
		rdev)	_f=%Hr,%Lr ;;
		esac
		_v=$(stat -c "$_f" "$2") || return 1
	else
		case $1 in
		mode)	_f=%Mp%Lp ;;
		size)	_f=%z ;;
		blocks)	_f=%b ;;
		id)	_f=%d,%i ;;
		mtime)	_f=%.9Fm ;;
		atime)	_f=%.9Fa ;;
		rdev)	_f=%Hr,%Lr ;;
		esac
		_v=$(stat -f "$_f" "$2") || return 1
	fi
	[ "$1" != mode ] || _v=$(printf '%o' "0$_v")
	echo "$_v"
}

# Allocated 512-byte blocks of a file.
blocks()
{
	fact blocks "$1"
}

# sized FILE MIB: FILE cut or extended (with a hole) to MIB mebibytes.
sized()
{
	dd if=/dev/null of="$1" bs=1048576 seek="$2" 2>/dev/null
}

# A target may not hold more than its source's blocks, give or take 64 KiB.
check_sparse()
{
	atf_check cmp "$1" "$2"
	check_blocks "$1" "$2"
}

check_blocks()
{
	if [ "$(blocks "$2")" -gt $(($(blocks "$1") + 128)) ]; then
		atf_fail "$2 has $(blocks "$2") blocks, $1 has $(blocks "$1")"
	fi
}

# Some data: not a multiple of any buffer size.
mkdata()
{
	i=0
	: > "$1"
	while [ $i -lt "$2" ]; do
		echo "line $i of some data to copy" >> "$1"
		i=$((i + 1))
	done
}

atf_test_case basic
basic_head()
{
	atf_set "descr" "A file is copied, silently, with its content"
}
basic_body()
{
	mkdata a 1000
	atf_check $(prog) a b
	atf_check cmp a b
}

atf_test_case usage
usage_head()
{
	atf_set "descr" "Too few operands and unknown options give the usage"
}
usage_body()
{
	u="usage: cp [-R [-H | -L | -P]] [-f | -i | -n] [-alNpsvx] source target
       cp [-R [-H | -L | -P]] [-f | -i | -n] [-alNpsvx] source ... directory
"
	touch a
	atf_check -s exit:64 -e inline:"$u" $(prog)
	atf_check -s exit:64 -e inline:"$u" $(prog) a
	refused_option -s 64 "$u" Z $(prog) -Z a b
	refused_option -s 64 "$u" help $(prog) --help
	refused_option -s 64 "$u" no $(prog) --no
}

atf_test_case exclusive_options
exclusive_options_head()
{
	atf_set "descr" "-R with -r, and -l with -s, are refused"
}
exclusive_options_body()
{
	touch a
	m="options may not be specified together"
	atf_check -s exit:1 -e inline:"cp: the -R and -r $m\n" \
	    $(prog) -R -r a b
	atf_check -s exit:1 -e inline:"cp: the -l and -s $m\n" \
	    $(prog) -l -s a b
	atf_check test ! -e b
}

atf_test_case directory_without_R
directory_without_R_head()
{
	atf_set "descr" "Without -R a directory is reported and the rest copied"
}
directory_without_R_body()
{
	mkdir d t
	echo x > a
	atf_check -s exit:1 -e inline:"cp: d is a directory (not copied).\n" \
	    $(prog) d a t
	atf_check -o inline:"x\n" cat t/a
	atf_check test ! -e t/d
}

atf_test_case identical
identical_head()
{
	atf_set "descr" "A file is not copied onto itself, by name or link"
}
identical_body()
{
	echo x > a
	ln a b
	ln -s a c
	m="are identical (not copied)."
	atf_check -s exit:1 -e inline:"cp: a and a $m\n" $(prog) a a
	atf_check -s exit:1 -e inline:"cp: b and a $m\n" $(prog) a b
	atf_check -s exit:1 -e inline:"cp: c and a $m\n" $(prog) a c
	atf_check -o inline:"x\n" cat a
	mkdir d
	atf_check -s exit:1 \
	    -e inline:"cp: ./d and d are identical (not copied).\n" \
	    $(prog) -R d .
}

atf_test_case missing_source
missing_source_head()
{
	atf_set "descr" "A failed operand is reported, the others go on"
}
missing_source_body()
{
	mkdir t
	echo x > a
	echo y > b
	atf_check -s exit:1 \
	    -e inline:"cp: nosuch: No such file or directory\n" \
	    $(prog) a nosuch b t
	atf_check -o inline:"x\n" cat t/a
	atf_check -o inline:"y\n" cat t/b
}

atf_test_case not_a_directory
not_a_directory_head()
{
	atf_set "descr" "Several sources need a directory target"
}
not_a_directory_body()
{
	touch a b c
	atf_check -s exit:1 -e inline:"cp: c: Not a directory\n" \
	    $(prog) a b c
	atf_check -s exit:1 -e inline:"cp: nodir: Not a directory\n" \
	    $(prog) a b nodir
	atf_check -s exit:1 \
	    -e inline:"cp: nodir: No such file or directory\n" \
	    $(prog) a nodir/
	atf_check -s exit:1 -e inline:"cp: c: Not a directory\n" \
	    $(prog) a c/
}

atf_test_case symlink_source
symlink_source_head()
{
	atf_set "descr" "Without -R a link to a file copies the file"
}
symlink_source_body()
{
	echo x > a
	ln -s a l
	atf_check $(prog) l b
	atf_check test ! -L b
	atf_check -o inline:"x\n" cat b
}

atf_test_case standalone_P
standalone_P_head()
{
	atf_set "descr" "-P alone copies a link as a link"
}
standalone_P_body()
{
	echo x > a
	ln -s a l
	atf_check $(prog) -P l b
	atf_check -o inline:"a\n" readlink b
}

atf_test_case dangling_target
dangling_target_head()
{
	atf_set "descr" "A target that is a dangling link is written through it"
}
dangling_target_body()
{
	echo x > a
	ln -s made l
	atf_check $(prog) a l
	atf_check test -L l
	atf_check -o inline:"x\n" cat made
}

atf_test_case dangling_source
dangling_source_head()
{
	atf_set "descr" "A dangling link is copied under -R -P, an error else"
}
dangling_source_body()
{
	ln -s nowhere l
	atf_check -s exit:1 -e inline:"cp: l: No such file or directory\n" \
	    $(prog) l a
	atf_check -s exit:1 -e inline:"cp: l: No such file or directory\n" \
	    $(prog) -RH l b
	atf_check $(prog) -R l c
	atf_check -o inline:"nowhere\n" readlink c
	mkdir d
	ln -s nowhere d/l
	atf_check -s exit:1 -e inline:"cp: d/l: No such file or directory\n" \
	    $(prog) -RL d e
	atf_check test -d e
}

atf_test_case target_longer
target_longer_head()
{
	atf_set "descr" "An existing longer target ends as long as the source"
}
target_longer_body()
{
	need_faultinj
	mkdata big 5000
	echo short > a
	cp big b
	atf_check $(prog) a b
	atf_check cmp a b
	for p in $paths; do
		cp big b
		atf_check $(path_env $p) $(prog) a b
		atf_check cmp a b
	done
}

atf_test_case fflag
fflag_head()
{
	atf_set "descr" "-f removes the target and makes a new file"
}
fflag_body()
{
	echo x > a
	echo old > b
	ln b keep
	atf_check $(prog) -f a b
	atf_check -o inline:"x\n" cat b
	atf_check -o inline:"old\n" cat keep
	# Without -f the target is overwritten in place.
	echo old > c
	ln c keep2
	atf_check $(prog) a c
	atf_check -o inline:"x\n" cat keep2
}

atf_test_case fflag_kept cleanup
fflag_kept_head()
{
	atf_set "descr" "-f overwrites in place a target it cannot remove," \
	    "if it can write it, as FreeBSD's cp does, and fails where that" \
	    "cannot be done"
	atf_set "require.user" "unprivileged"
}
fflag_kept_body()
{
	mkdir -p d/sub s
	seq 1 1000 > f
	seq 1 50 > s/t
	echo out > w
	echo in > d/w
	for t in t t2 t3 ro; do
		echo old > d/$t
	done
	chmod 444 d/ro
	touch -t 200102030405 f
	ln -s ../w d/l
	ln -s w d/il
	ln -s sub/../w d/il2
	chmod 555 d
	id=$(fact id d/t)
	atf_check $(prog) -f f d/t
	atf_check cmp f d/t
	atf_check_equal "$id" "$(fact id d/t)"
	atf_check $(prog) -fp f d/t2
	atf_check cmp f d/t2
	atf_check test ! d/t2 -nt f -a ! d/t2 -ot f
	atf_check $(prog) -Rf s/ d
	atf_check cmp s/t d/t
	atf_check_equal "$id" "$(fact id d/t)"
	# Whatever -f, -R or -p say, a target that cannot be written stays.
	m="Permission denied"
	for o in -f -Rf -fp -af; do
		atf_check -s exit:1 -e inline:"cp: d/ro: $m\n" $(prog) $o f d/ro
		atf_check -o inline:"old\n" cat d/ro
	done
	# A link that cannot be removed is followed: without -R anywhere,
	# under -R only while it stays inside the target tree.
	mkdir s2 s3
	echo new > s2/l
	atf_check -s exit:1 -e inline:"cp: d/l: $m\n" $(prog) -Rf s2/ d
	atf_check -o inline:"out\n" cat w
	for t in il il2; do
		echo "new $t" > s3/$t
		atf_check $(prog) -Rf s3/$t d
		atf_check -o inline:"new $t\n" cat d/w
	done
	atf_check $(prog) -f f d/l
	atf_check cmp f w
	atf_check $(prog) -f f d/il2
	atf_check cmp f d/w
	atf_check -o inline:"../w\n" readlink d/l
	atf_check -o inline:"sub/../w\n" readlink d/il2
	# A new file, a link or a node cannot be made there: each is an
	# error, and what was there stays.
	atf_check -s exit:1 -e inline:"cp: d/new: $m\n" $(prog) -f f d/new
	for o in -lf -sf; do
		atf_check -s exit:1 -e match:"^cp: d/t3: " $(prog) $o f d/t3
		atf_check -o inline:"old\n" cat d/t3
	done
	ln -s f fl
	atf_check -s exit:1 -e match:"^cp: d/t3: " $(prog) -RPf fl d/t3
	atf_check -o inline:"old\n" cat d/t3
	chmod 755 d
}
fflag_kept_cleanup()
{
	chmod 755 d 2>/dev/null || true
}

atf_test_case nflag
nflag_head()
{
	atf_set "descr" "-n leaves an existing target alone, as FreeBSD: exit 1"
}
nflag_body()
{
	echo x > a
	echo old > b
	atf_check -s exit:1 $(prog) -n a b
	atf_check -o inline:"old\n" cat b
	atf_check -s exit:1 -o inline:"b not overwritten\n" $(prog) -nv a b
	atf_check -o inline:"old\n" cat b
	atf_check $(prog) -n a c
	atf_check -o inline:"x\n" cat c
}

atf_test_case iflag
iflag_head()
{
	atf_set "descr" "-i asks on stderr; only an answer with y replaces"
}
iflag_body()
{
	echo x > a
	echo old > b
	for no in n no "" N " y"; do
		echo "$no" > answer
		atf_check -s exit:1 \
		    -e inline:"overwrite b? (y/n [n]) not overwritten\n" \
		    $(prog) -i a b < answer
		atf_check -o inline:"old\n" cat b
	done
	atf_check -s exit:1 \
	    -e inline:"overwrite b? (y/n [n]) not overwritten\n" \
	    $(prog) -i a b < /dev/null
	echo yes > answer
	atf_check -e inline:"overwrite b? (y/n [n]) " $(prog) -i a b < answer
	atf_check -o inline:"x\n" cat b
	# No question for a target that does not exist.
	atf_check $(prog) -i a c < /dev/null
	# Two targets, two answers.
	mkdir t
	echo old > t/a
	echo old > t/b
	cp a b
	printf 'y\nn\n' > answer
	q="(y/n [n])"
	atf_check -s exit:1 \
	    -e inline:"overwrite t/a? $q overwrite t/b? $q not overwritten\n" \
	    $(prog) -i a b t < answer
	atf_check -o inline:"x\n" cat t/a
	atf_check -o inline:"old\n" cat t/b
}

atf_test_case fin_last_wins
fin_last_wins_head()
{
	atf_set "descr" "Of -f, -i and -n the last one given counts"
}
fin_last_wins_body()
{
	echo x > a
	echo old > b
	atf_check -s exit:1 $(prog) -i -f -n a b < /dev/null
	atf_check -o inline:"old\n" cat b
	atf_check -s exit:1 \
	    -e inline:"overwrite b? (y/n [n]) not overwritten\n" \
	    $(prog) -n -f -i a b < /dev/null
	atf_check -o inline:"old\n" cat b
	atf_check $(prog) -n -i -f a b < /dev/null
	atf_check -o inline:"x\n" cat b
}

atf_test_case vflag
vflag_head()
{
	atf_set "descr" "-v names each copy"
}
vflag_body()
{
	mkdir -p d/e t
	touch a d/f d/e/g
	atf_check -o inline:"a -> b\n" $(prog) -v a b
	atf_check -o inline:"a -> t/a\nb -> t/b\n" $(prog) -v a b t
	atf_check -o inline:"d -> c\nd/e -> c/e\nd/e/g -> c/e/g\nd/f -> c/f\n" \
	    sh -c "$(prog) -Rv d c | sort"
}

atf_test_case lflag
lflag_head()
{
	atf_set "descr" "-l makes hard links; an existing target needs -f"
}
lflag_body()
{
	echo x > a
	atf_check $(prog) -l a b
	atf_check_equal "$(fact id a)" "$(fact id b)"
	echo old > c
	atf_check -s exit:1 -e inline:"cp: c: File exists\n" $(prog) -l a c
	atf_check -o inline:"old\n" cat c
	atf_check $(prog) -fl a c
	atf_check_equal "$(fact id a)" "$(fact id c)"
	mkdir -p d/e
	echo y > d/e/f
	atf_check $(prog) -Rl d d2
	atf_check test -d d2/e
	atf_check_equal "$(fact id d/e/f)" "$(fact id d2/e/f)"
}

atf_test_case sflag
sflag_head()
{
	atf_set "descr" "-s makes symbolic links; an existing target needs -f"
}
sflag_body()
{
	echo x > a
	atf_check $(prog) -s a b
	atf_check -o inline:"a\n" readlink b
	echo old > c
	atf_check -s exit:1 -e inline:"cp: c: File exists\n" $(prog) -s a c
	atf_check -o inline:"old\n" cat c
	atf_check $(prog) -fs a c
	atf_check -o inline:"a\n" readlink c
}

atf_test_case R_basic
R_basic_head()
{
	atf_set "descr" "-R copies a tree; into a directory under its name"
}
R_basic_body()
{
	mkdir -p d/e/f d/empty
	mkdata d/a 100
	mkdata d/e/b 2000
	mkdata d/e/f/c 3
	ln -s ../a d/e/l
	atf_check $(prog) -R d n
	atf_check diff -r d n
	atf_check -o inline:"../a\n" readlink n/e/l
	mkdir t
	atf_check $(prog) -R d t
	atf_check diff -r d t/d
	# -r is accepted.
	atf_check $(prog) -r d r
	atf_check diff -r d r
}

atf_test_case R_trailing_slash
R_trailing_slash_head()
{
	atf_set "descr" "A source ending in / has its contents copied"
}
R_trailing_slash_body()
{
	mkdir -p d/e t
	touch d/a d/e/b
	atf_check $(prog) -R d/ t
	atf_check test -f t/a -a -f t/e/b -a ! -e t/d
	atf_check $(prog) -R d/ n
	atf_check test -f n/a -a -f n/e/b
}

atf_test_case R_into_file
R_into_file_head()
{
	atf_set "descr" "A directory onto a file, or a file onto a directory"
}
R_into_file_body()
{
	mkdir -p d t/a
	touch f a
	atf_check -s exit:1 -e inline:"cp: f: Not a directory\n" \
	    $(prog) -R d f
	atf_check -s exit:1 -e inline:"cp: t/a: Is a directory\n" \
	    $(prog) a t
	# A link to a directory in the target is not a directory (-P).
	mkdir -p u s/x
	ln -s .. u/x
	atf_check -s exit:1 -e inline:"cp: u/x: Not a directory\n" \
	    $(prog) -R s/x u
}

atf_test_case R_self
R_self_head()
{
	atf_set "descr" "cp -R foo foo copies foo into foo/foo once, as FreeBSD"
}
R_self_body()
{
	mkdir foo
	echo qux > foo/bar
	cp foo/bar foo/zoo
	atf_check $(prog) -R foo foo
	atf_check -o inline:"qux\n" cat foo/foo/bar
	atf_check -o inline:"qux\n" cat foo/foo/zoo
	atf_check test ! -e foo/foo/foo
}

atf_test_case R_into_itself
R_into_itself_head()
{
	atf_set "descr" "A directory copied into itself stops at its own copy"
}
R_into_itself_body()
{
	mkdir -p foo/moo
	ln -s foo coo
	echo qux > foo/bar
	touch foo/moo/roo
	atf_check $(prog) -R foo foo/moo
	atf_check $(prog) -RH coo foo/moo
	atf_check -o inline:"qux\n" cat foo/moo/foo/bar
	atf_check -o inline:"qux\n" cat foo/moo/coo/bar
	atf_check test -f foo/moo/foo/moo/roo
	atf_check test -f foo/moo/coo/moo/roo
	atf_check test ! -e foo/moo/foo/moo/foo
	atf_check test ! -e foo/moo/coo/moo/coo
	# Into a subdirectory that does not exist yet.
	mkdir baz
	echo qux > baz/bar
	atf_check $(prog) -R baz baz/dne
	atf_check -o inline:"qux\n" cat baz/dne/bar
	atf_check test ! -e baz/dne/dne
}

# The directories an operand's copy made are skipped when met again in
# its own source, but to a later operand they are directories like any
# other: an operand that is the target, after another, is refused aloud.
atf_test_case R_operands_apart
R_operands_apart_head()
{
	atf_set "descr" "An operand is copied, or refused, alike whether" \
	    "or not an earlier operand made or wrote into it"
}
R_operands_apart_body()
{
	m="are identical (not copied)."
	mkdir src dst
	ln -s ../dst src/k
	# The target itself: refused, alone or after an operand wrote into it.
	atf_check -s exit:1 -e inline:"cp: dst and src/k/ $m\n" \
	    $(prog) -R src/k/ dst
	atf_check -s exit:1 -e inline:"cp: dst and src/k/ $m\n" \
	    $(prog) -R src/ src/k/ dst
	atf_check -o inline:"../dst\n" readlink dst/k
	# The copy an earlier operand made: refused as its own target...
	mkdir -p s/sub/x t
	echo a > s/sub/x/f
	atf_check -s exit:1 -e inline:"cp: t/s and t/s $m\n" \
	    $(prog) -R s t/s t
	atf_check -o inline:"a\n" cat t/s/sub/x/f
	# ...and copied whole to another.
	rm -rf t
	mkdir t
	atf_check $(prog) -R s t/s/sub t
	atf_check -o inline:"a\n" cat t/sub/x/f
	# Met inside a later operand's source: copied; that operand's own
	# copy is not.
	mkdir out u
	ln -s ../u out/l
	atf_check $(prog) -RL s/ out u
	atf_check -o inline:"a\n" cat u/out/l/sub/x/f
	atf_check test ! -e u/out/l/out
}

atf_test_case R_cycle
R_cycle_head()
{
	atf_set "descr" "-L through a link to an ancestor: a cycle, reported"
}
R_cycle_body()
{
	mkdir -p c/d
	touch c/d/f
	ln -s .. c/d/up
	atf_check -s exit:1 -e inline:"cp: c/d/up: directory causes a cycle\n" \
	    $(prog) -RL c n
	atf_check test -f n/d/f
	atf_check test ! -e n/d/up
	# Under -P the link is only a link.
	atf_check $(prog) -R c p
	atf_check -o inline:"..\n" readlink p/d/up
}

# A tree for the link-following cases: links to a file, to a directory
# and to nothing, inside the tree and on the command line.
mklinks()
{
	mkdir -p src/dir real
	echo file > real/file
	echo inner > real/inner
	ln -s ../real/file src/lfile
	ln -s ../real src/ldir
	ln -s ../nowhere src/ldangle
	ln -s src top
}

atf_test_case R_P
R_P_head()
{
	atf_set "descr" "-R (-P) copies every link as a link"
}
R_P_body()
{
	mklinks
	atf_check $(prog) -R src p
	atf_check test -L p/lfile -a -L p/ldir -a -L p/ldangle
	atf_check $(prog) -RP top p2
	atf_check -o inline:"src\n" readlink p2
}

atf_test_case R_H
R_H_head()
{
	atf_set "descr" "-RH follows links named on the command line only"
}
R_H_body()
{
	mklinks
	atf_check $(prog) -RH top h
	atf_check test -d h -a ! -L h
	atf_check test -L h/lfile -a -L h/ldir -a -L h/ldangle
	atf_check $(prog) -RH src/lfile hf
	atf_check test -f hf -a ! -L hf
	atf_check $(prog) -RH src/ldir hd
	atf_check test -d hd -a ! -L hd
	atf_check -o inline:"inner\n" cat hd/inner
}

atf_test_case R_L
R_L_head()
{
	atf_set "descr" "-RL follows every link; a dangling one is an error"
}
R_L_body()
{
	mklinks
	atf_check -s exit:1 \
	    -e inline:"cp: top/ldangle: No such file or directory\n" \
	    $(prog) -RL top l
	atf_check test -d l -a ! -L l
	atf_check test -f l/lfile -a ! -L l/lfile
	atf_check test -d l/ldir -a ! -L l/ldir
	atf_check -o inline:"inner\n" cat l/ldir/inner
	atf_check test ! -e l/ldangle
}

atf_test_case R_fifo
R_fifo_head()
{
	atf_set "descr" "-R makes a FIFO anew rather than reading it"
}
R_fifo_body()
{
	mkdir d
	mkfifo d/fifo
	chmod 640 d/fifo
	atf_check $(prog) -R d e
	atf_check test -p e/fifo
	atf_check_equal "640" "$(fact mode e/fifo)"
	atf_check $(prog) -R d/fifo f
	atf_check test -p f
}

atf_test_case R_chrdev
R_chrdev_head()
{
	atf_set "descr" "-R makes a device node anew; without -R it is opened"
	atf_set "require.user" "root"
}
R_chrdev_body()
{
	mkdir d
	rdev=$(fact rdev /dev/null)
	if ! mknod d/null c ${rdev%,*} ${rdev#*,}; then
		atf_skip "mknod not permitted here"
	fi
	atf_check $(prog) -R d e
	atf_check test -c e/null
	atf_check_equal "$rdev" "$(fact rdev e/null)"
	case $(uname -s) in
	FreeBSD)
		# FreeBSD opens device nodes only on devfs: this one, made
		# in the work directory, cannot be read, and cp says so and
		# makes no target, as FreeBSD's own cp does.
		atf_check -s exit:1 \
		    -e inline:"cp: d/null: Operation not supported\n" \
		    $(prog) d/null plain
		atf_check test ! -e plain
		;;
	*)
		atf_check $(prog) d/null plain
		atf_check test -f plain -a ! -s plain
		;;
	esac
}

atf_test_case chrdev_source
chrdev_source_head()
{
	atf_set "descr" "Without -R a device's content is copied"
}
chrdev_source_body()
{
	echo foo > b
	atf_check $(prog) /dev/null b
	atf_check test -f b -a ! -s b
}

atf_test_case p_times_modes
p_times_modes_head()
{
	atf_set "descr" "-p keeps modes and times to the nanosecond"
}
p_times_modes_body()
{
	mkdir -p d/e
	echo x > d/f
	echo y > d/e/g
	ln -s f d/l
	chmod 0741 d/f
	chmod 0600 d/e/g
	chmod 0750 d/e
	touch -h -d 2001-02-03T04:05:06.123456789Z d/l
	touch -d 2002-03-04T05:06:07.987654321Z d/f d/e/g
	touch -d 2003-04-05T06:07:08.000000001Z d/e d
	atf_check $(prog) -Rp d n
	# Literal times: reading the sources may have moved their atimes.
	t2=1015218367.987654321
	t3=1049522828.000000001
	for f in n/f n/e/g; do
		atf_check -o inline:"$t2 $t2\n" \
		    echo "$(fact mtime $f) $(fact atime $f)"
	done
	atf_check_equal "741" "$(fact mode n/f)"
	atf_check_equal "600" "$(fact mode n/e/g)"
	# Directory times are set after their contents are written.
	atf_check -o inline:"750 $t3 $t3\n" \
	    echo "$(fact mode n/e) $(fact mtime n/e) $(fact atime n/e)"
	atf_check_equal "$t3" "$(fact mtime n)"
	atf_check_equal "981173106.123456789" "$(fact mtime n/l)"
	atf_check $(prog) -p d/f g
	atf_check -o inline:"741 $t2\n" echo "$(fact mode g) $(fact mtime g)"
}

atf_test_case a_flag
a_flag_head()
{
	atf_set "descr" "-a is -RpP"
}
a_flag_body()
{
	mkdir d
	echo x > d/f
	ln -s f d/l
	chmod 0604 d/f
	touch -d 2002-03-04T05:06:07.5Z d/f
	atf_check $(prog) -a d n
	atf_check test -L n/l
	atf_check -o inline:"604 1015218367.500000000\n" \
	    echo "$(fact mode n/f) $(fact mtime n/f)"
}

atf_test_case modes_without_p
modes_without_p_head()
{
	atf_set "descr" "Without -p: modes less the umask and set-id bits"
}
modes_without_p_body()
{
	mkdir -p d/e
	touch d/f
	chmod 4755 d/f
	chmod 0705 d/e
	umask 022
	atf_check $(prog) -R d n
	atf_check_equal "755" "$(fact mode n/f)"
	atf_check_equal "705" "$(fact mode n/e)"
	umask 077
	atf_check $(prog) d/f g
	atf_check_equal "700" "$(fact mode g)"
}

atf_test_case p_setid_cleared
p_setid_cleared_head()
{
	atf_set "descr" "-p drops set-id bits when the owner cannot be kept"
	atf_set "require.user" "unprivileged"
}
p_setid_cleared_body()
{
	# Not one with file flags: FreeBSD's passwd and su carry schg, which
	# no unprivileged cp -p can give its copy, an error there as in
	# FreeBSD's own cp.  Its chsh is a symbolic link to chpass, so the
	# flags asked for are those of the file the link leads to.
	src=
	for f in /usr/bin/passwd /bin/su /usr/bin/su /usr/bin/newgrp \
	    /usr/bin/chsh /bin/mount /usr/bin/mount /usr/bin/crontab \
	    /usr/bin/at; do
		[ "$(uname -s)" = FreeBSD ] && [ -e "$f" ] &&
		    [ "$(stat -L -f %Xf "$f")" != 0 ] && continue
		if [ -u "$f" ] && [ -r "$f" ] && [ ! -O "$f" ]; then
			src=$f
			break
		fi
	done
	[ -n "$src" ] || atf_skip "no readable set-uid file owned by another"
	atf_check $(prog) -p "$src" copy
	mode=$(fact mode "$src")
	atf_check_equal "$(printf '%o' $((0$mode & 0777)))" \
	    "$(fact mode copy)"
	atf_check cmp "$src" copy
}

atf_test_case sparse_holes
sparse_holes_head()
{
	atf_set "descr" "Holes leading, trailing, between and alone are kept"
}
sparse_holes_body()
{
	need_faultinj
	# Leading: a hole, then data.
	sized lead 16
	mkdata d 30000
	cat d >> lead
	# Trailing: data, then a hole.
	cp d trail
	sized trail 17
	# Middle: data, hole, data.
	cp d mid
	sized mid 9
	cat d >> mid
	# Only a hole.
	sized only 16
	for f in lead trail mid only; do
		atf_check $(prog) $f $f.copy
		check_sparse $f $f.copy
		for p in $paths; do
			rm $f.copy
			atf_check $(path_env $p) $(prog) $f $f.copy
			check_sparse $f $f.copy
		done
	done
}

atf_test_case sparse_5g
sparse_5g_head()
{
	atf_set "descr" "A 5 GiB sparse file with data past 4 GiB"
	# Comparing 5 GiB takes minutes on an emulated machine.
	atf_set "timeout" 1200
}
sparse_5g_body()
{
	sized big 5120
	echo "past four gibibytes" | dd of=big bs=1 seek=4294967401 \
	    conv=notrunc 2>/dev/null
	atf_check $(prog) big copy
	atf_check_equal "5368709120" "$(fact size copy)"
	# Length and CRC (POSIX cksum): cmp over 5 GiB of holes took ten
	# times as long as the copy.
	atf_check_equal "$(cksum < big)" "$(cksum < copy)"
	check_blocks big copy
	atf_check -o inline:"past four gibibytes\n" \
	    sh -c 'dd if=copy bs=1 skip=4294967401 count=20 2>/dev/null'
	rm -f copy big
}

atf_test_case dev_full
dev_full_head()
{
	atf_set "descr" "A full device as target is an error in its name"
}
dev_full_body()
{
	need_faultinj
	[ -w /dev/full ] || atf_skip "no writable /dev/full"
	mkdata a 100
	atf_check -s exit:1 \
	    -e inline:"cp: /dev/full: No space left on device\n" \
	    $(prog) a /dev/full
	for p in $paths; do
		atf_check -s exit:1 \
		    -e inline:"cp: /dev/full: No space left on device\n" \
		    $(path_env $p) $(prog) a /dev/full
	done
}

atf_test_case engine_paths
engine_paths_head()
{
	atf_set "descr" "Each engine path copies a file and a tree the same"
}
engine_paths_body()
{
	need_faultinj
	mkdir -p d/e
	mkdata d/a 20000
	mkdata d/e/b 7
	: > d/empty
	for p in $paths; do
		atf_check $(path_env $p) $(prog) d/a a.$p
		atf_check cmp d/a a.$p
		atf_check $(path_env $p 4096) $(prog) d/a s.$p
		atf_check cmp d/a s.$p
		atf_check $(path_env $p) $(prog) -R d t.$p
		atf_check diff -r d t.$p
	done
	atf_check env BUFSZ_PATH=bogus BUFSZ_SIZE=12k $(prog) d/a x
	atf_check cmp d/a x
	atf_check -s exit:1 -o inline:'0\n' grep -c BUFSZ_ "$(prog)"
}

atf_test_case unreadable
unreadable_head()
{
	atf_set "descr" "Unreadable entries are reported, the rest copied;" \
	    "an unreadable directory still gets its target, left as made"
	atf_set "require.user" "unprivileged"
}
unreadable_body()
{
	mkdir -p d/sub d/closed
	echo x > d/a
	echo y > d/secret
	echo z > d/sub/b
	touch d/closed/c
	chmod 000 d/secret d/closed
	umask 022
	m="Permission denied"
	for p in "" -p; do
		rm -rf n
		atf_check -s exit:1 -e save:err $(prog) -R $p d n
		atf_check -o inline:"cp: d/closed: $m\ncp: d/secret: $m\n" \
		    sort err
		atf_check -o inline:"x\n" cat n/a
		atf_check -o inline:"z\n" cat n/sub/b
		atf_check test ! -e n/secret
		# Made, empty, and not given the mode of a copy it is not.
		atf_check test -d n/closed
		atf_check_equal "700" "$(fact mode n/closed)"
		atf_check -o empty ls n/closed
	done
	# An unreadable operand: the same.
	atf_check -s exit:1 -e inline:"cp: d/closed: $m\n" \
	    $(prog) -R d/closed n2
	atf_check test -d n2
	# -l and -s read no file: an unreadable one is linked all the same.
	atf_check -s exit:1 -e inline:"cp: d/closed: $m\n" $(prog) -Rl d l
	atf_check_equal "$(fact id d/secret)" "$(fact id l/secret)"
	atf_check -s exit:1 -e inline:"cp: $PWD/d/closed: $m\n" \
	    $(prog) -Rs "$PWD/d" s
	atf_check -o inline:"$PWD/d/secret\n" readlink s/secret
	chmod 755 d/closed
}

atf_test_case deep_tree
deep_tree_head()
{
	atf_set "descr" "A tree deeper than the directories kept open, and -L"
}
deep_tree_body()
{
	mkdir real
	p=real
	i=0
	while [ $i -lt 150 ]; do
		p=$p/$i
		i=$((i + 1))
	done
	mkdir -p $p
	echo leaf > $p/leaf
	echo mid > real/0/1/2/mid
	atf_check $(prog) -R real copy
	atf_check diff -r real copy
	mkdir -p top/a
	touch top/a/first top/last
	ln -s ../../real top/a/b
	atf_check $(prog) -RL top lcopy
	atf_check diff -r real lcopy/a/b
	atf_check test -f lcopy/a/first -a -f lcopy/last
}

atf_test_case xflag cleanup
xflag_head()
{
	atf_set "descr" "-x does not descend into another file system"
	atf_set "require.user" "root"
}
xflag_body()
{
	mkdir -p d/mnt
	touch d/f
	if ! mount -t tmpfs tmpfs d/mnt 2>/dev/null; then
		atf_skip "cannot mount a tmpfs here"
	fi
	touch d/mnt/inside
	$(prog) -Rx d n
	r=$?
	umount d/mnt
	atf_check_equal 0 $r
	atf_check test -f n/f -a -d n/mnt -a ! -e n/mnt/inside
}
xflag_cleanup()
{
	umount d/mnt 2>/dev/null || true
}

atf_test_case progress
progress_head()
{
	atf_set "descr" "SIGINFO/SIGUSR1 reports the file in flight, goes on"
}
progress_body()
{
	mkdata big 40000
	mkfifo fifo
	# SIGINFO where there is one, as cp(1) says.
	sig=$(info_signal)
	# Should the signal ever reach this shell, it must not end the test.
	trap : $sig
	$(prog) big fifo 2>err &
	pid=$!
	exec 3<fifo
	# The pipe is full: cp waits in a write with most still to copy.
	sleep 1
	kill -$sig $pid
	sleep 1
	cat <&3 > got
	exec 3<&-
	wait $pid
	atf_check_equal 0 $?
	atf_check cmp big got
	atf_check -o match:"^big -> fifo [ 0-9]{2}[0-9]%$" cat err
}

# Whatever the flags, the file cp reads is never the one it empties.
atf_test_case source_through_link
source_through_link_head()
{
	atf_set "descr" "A target that is a link to the source, or another" \
	    "name of it, is refused; the source is never emptied"
}
source_through_link_body()
{
	need_faultinj
	seq 1 100000 > f
	cat f > keep
	ln -s f lnk
	ln -s lnk lnk2
	ln f hard
	ln -s hard tohard
	mkdir sub
	ln -s ../sub/../f sub/up
	ln -s "$PWD/f" abs
	m="are identical (not copied)."
	# Refused before -f, -i or -n is looked at, and before -l or -s
	# would link: each link is left as it was.
	for o in "" -R -a -RP -RH -RL -p -Rp -i -Ri -n -v -f -Rf -af -pf \
	    -fv -l -lf -s -sf -Rl -Rsf; do
		for t in lnk lnk2 hard tohard sub/up abs; do
			atf_check -s exit:1 -e inline:"cp: $t and f $m\n" \
			    $(prog) $o f $t </dev/null
		done
		atf_check cmp f keep
		atf_check -o inline:"f\n" readlink lnk
		atf_check -o inline:"lnk\n" readlink lnk2
		atf_check -o inline:"hard\n" readlink tohard
		atf_check -o inline:"../sub/../f\n" readlink sub/up
		atf_check -o inline:"$PWD/f\n" readlink abs
	done
	for p in $paths; do
		atf_check -s exit:1 -e inline:"cp: lnk and f $m\n" \
		    $(path_env $p) $(prog) -R f lnk
		atf_check cmp f keep
	done
	# Into a directory: under -R the link leads out of the target, and
	# without -R it is followed, back to the source.
	mkdir t
	ln -s ../f t/f
	atf_check -s exit:1 -e inline:"cp: t/f: Permission denied\n" \
	    $(prog) -R f t
	atf_check -s exit:1 -e inline:"cp: t/f and f $m\n" $(prog) f t
	atf_check -s exit:1 -e inline:"cp: t/f and f $m\n" $(prog) -f f t
	atf_check -s exit:1 -e inline:"cp: t/f and f $m\n" $(prog) -Rf f t
	atf_check cmp f keep
	atf_check -o inline:"../f\n" readlink t/f
	# -f still replaces a link to another file with a copy.
	echo other > g
	ln -s g tog
	atf_check $(prog) -f f tog
	atf_check test -f tog -a ! -L tog
	atf_check cmp f tog
	atf_check -o inline:"other\n" cat g
}

atf_test_case link_farm
link_farm_head()
{
	atf_set "descr" "A tree copied over a farm of links into itself" \
	    "leaves the source and the links whole, -f too"
}
link_farm_body()
{
	mkdir -p src/d
	seq 1 1000 > src/a
	seq 1 50 > src/d/b
	$(prog) -R src keep
	atf_check $(prog) -Rs "$PWD/src" farm
	atf_check -o inline:"$PWD/src/a\n" readlink farm/a
	m="Permission denied"
	atf_check -s exit:1 -e save:err $(prog) -R src/ farm
	atf_check -o inline:"cp: farm/a: $m\ncp: farm/d/b: $m\n" sort err
	atf_check diff -r src keep
	# Relative links, out of the target the same.
	mkdir rel
	ln -s ../src/a rel/a
	atf_check -s exit:1 -e inline:"cp: rel/a: $m\n" $(prog) -R src/a rel
	atf_check diff -r src keep
	m="are identical (not copied)."
	for o in -Rf -af -RLf -Rfp; do
		atf_check -s exit:1 -e save:err $(prog) $o src/ farm
		atf_check -o inline:"cp: farm/a and src/a $m
cp: farm/d/b and src/d/b $m\n" sort err
		atf_check -o inline:"$PWD/src/a\n" readlink farm/a
		atf_check -o inline:"$PWD/src/d/b\n" readlink farm/d/b
		atf_check diff -r src keep
	done
	# A farm of links to a copy is replaced by -f.
	atf_check $(prog) -Rs "$PWD/keep" farm2
	atf_check $(prog) -Rf src/ farm2
	atf_check test -f farm2/a -a ! -L farm2/a -a ! -L farm2/d/b
	atf_check diff -r src farm2
	atf_check diff -r src keep
}

atf_test_case R_target_link_to_source
R_target_link_to_source_head()
{
	atf_set "descr" "-R: a link in the target tree that leads to a" \
	    "source file, by any path, is refused and left, -f or not"
}
R_target_link_to_source_body()
{
	mkdir -p s d/sub
	seq 1 10000 > s/f
	seq 1 20 > s/g
	cat s/f > keep
	mkfifo s/p
	# Links inside the tree to other names of the sources: a hard link,
	# a chain through "..", a FIFO.
	ln s/f d/h
	ln -s h d/f
	ln s/g d/g2
	ln -s sub/../g2 d/g
	ln s/p d/p2
	ln -s p2 d/p
	m="are identical (not copied)."
	for o in -R -a -Rf -af -RL -Rfp -RH; do
		atf_check -s exit:1 -e save:err $(prog) $o s/ d
		atf_check -o inline:"cp: d/f and s/f $m
cp: d/g and s/g $m
cp: d/p and s/p $m\n" sort err
		atf_check cmp s/f keep
		atf_check test -p s/p
		atf_check -o inline:"h\n" readlink d/f
		atf_check -o inline:"sub/../g2\n" readlink d/g
		atf_check -o inline:"p2\n" readlink d/p
	done
}

# A link in the target tree where a directory goes is never followed.
atf_test_case target_dir_link
target_dir_link_head()
{
	atf_set "descr" "A link where a directory goes in the target is" \
	    "never followed, whatever -H, -L or -r say"
}
target_dir_link_body()
{
	mkdir foo bar
	ln -s .. foo/bar
	touch bar/baz
	for o in -r -R -RL -RH -RP -a; do
		atf_check -s exit:1 -e inline:"cp: foo/bar: Not a directory\n" \
		    $(prog) $o bar foo
		atf_check test ! -e baz
	done
	# Deeper down, and to a directory elsewhere.
	mkdir -p src/sub elsewhere t/src
	echo x > src/sub/x
	ln -s ../../elsewhere t/src/sub
	atf_check -s exit:1 -e inline:"cp: t/src/sub: Not a directory\n" \
	    $(prog) -RL src t
	atf_check -o empty ls elsewhere
}

# The layouts of beneath_test, through cp.
atf_test_case target_link_out
target_link_out_head()
{
	atf_set "descr" "-R never writes through a link in the target tree" \
	    "that leads out of it; links inside it are followed"
}
target_link_out_body()
{
	mkdir -p dir dst/dir
	echo secret > outside
	echo new > dir/file
	m="dst/dir/file: Permission denied"
	ln -s .. dst/dir/up
	for l in ../../outside "$PWD/outside" "$PWD/dst/other" \
	    ../../dst/other up/../../outside; do
		rm -f dst/dir/file
		ln -s "$l" dst/dir/file
		echo old > dst/other
		atf_check -s exit:1 -e inline:"cp: $m\n" $(prog) -R dir dst
		atf_check -o inline:"secret\n" cat outside
		atf_check -o inline:"old\n" cat dst/other
	done
	# Inside the tree: followed, through ".." and chains.
	for l in ../other up/other chain; do
		rm -f dst/dir/file dst/dir/chain
		ln -s "$l" dst/dir/file
		ln -s ../dir/up/other dst/dir/chain
		echo old > dst/other
		atf_check $(prog) -R dir dst
		atf_check test -L dst/dir/file
		atf_check -o inline:"new\n" cat dst/other
	done
	# A loop is an error of its own.
	rm dst/dir/file
	ln -s file dst/dir/file
	atf_check -s exit:1 -e match:"^cp: dst/dir/file: " $(prog) -R dir dst
	# A file operand into a directory: the same under -R; without -R a
	# link is followed, as POSIX asks.
	mkdir t
	ln -s ../outside t/file
	atf_check -s exit:1 -e inline:"cp: t/file: Permission denied\n" \
	    $(prog) -R dir/file t
	atf_check -o inline:"secret\n" cat outside
	atf_check $(prog) dir/file t
	atf_check -o inline:"new\n" cat outside
}

# FreeBSD 15.1's to_link_outside, with its message.
atf_test_case to_link_outside
to_link_outside_head()
{
	atf_set "descr" "cp -r refuses a link in the target that leads out" \
	    "of the target tree, as FreeBSD words it"
}
to_link_outside_body()
{
	mkdir dir dst dst/dir
	echo foo > dir/file
	ln -s ../../file dst/dir/file
	atf_check -s exit:1 -e inline:"cp: dst/dir/file: Permission denied\n" \
	    $(prog) -r dir dst
	atf_check test ! -e file
	atf_check test -L dst/dir/file
	# A link out to a file that is there: refused alike, left whole.
	echo keep > file
	atf_check -s exit:1 -e inline:"cp: dst/dir/file: Permission denied\n" \
	    $(prog) -r dir dst
	atf_check -o inline:"keep\n" cat file
}

atf_test_case dangling_target_R
dangling_target_R_head()
{
	atf_set "descr" "Under -R a dangling link as a target is reported," \
	    "not written through; -f replaces it"
}
dangling_target_R_body()
{
	mkdir -p dir dst/dir
	echo new > dir/file
	ln -s nothere dst/dir/file
	m="is a dangling symbolic link (not copied)."
	atf_check -s exit:1 -e inline:"cp: dst/dir/file $m\n" \
	    $(prog) -R dir dst
	atf_check test ! -e dst/dir/nothere
	atf_check $(prog) -Rf dir dst
	atf_check test -f dst/dir/file -a ! -L dst/dir/file
	atf_check -o inline:"new\n" cat dst/dir/file
}

atf_test_case target_in_part
target_in_part_head()
{
	atf_set "descr" "A tree copied over a copy that exists in part"
}
target_in_part_body()
{
	mkdir -p src/d/e
	mkdata src/a 3000
	mkdata src/d/b 10
	mkdata src/d/e/c 500
	atf_check $(prog) -R src t
	rm t/d/b
	mkdata t/a 9000
	echo short > t/d/e/c
	ln t/d/e/c outside
	atf_check $(prog) -R src/ t
	atf_check diff -r src t
	# Overwritten in place: another name of it sees the new contents.
	atf_check cmp src/d/e/c outside
	# A directory where a file goes, and a file where a directory goes.
	rm t/a
	mkdir t/a
	rm -r t/d/e
	echo file > t/d/e
	atf_check -s exit:1 -e save:err $(prog) -R src/ t
	m="cp: t/a: Is a directory\ncp: t/d/e: Not a directory\n"
	atf_check -o inline:"$m" sort err
	atf_check diff -r src/d/b t/d/b
}

# A copy cut short gets neither the source's times nor its mode from -p.
atf_test_case p_incomplete
p_incomplete_head()
{
	atf_set "descr" "-p gives a copy cut short neither the source's" \
	    "times nor its mode"
}
p_incomplete_body()
{
	need_faultinj
	mkdata big 100000
	chmod 777 big
	touch -d 2001-02-03T04:05:06Z big
	umask 022
	for p in $paths; do
		rm -f copy
		# The file size limit: EFBIG part way, for any user.
		atf_check -s exit:1 -e match:"^cp: copy: " sh -c "trap '' XFSZ
		    ulimit -f 200; exec $(path_env $p) $(prog) -p big copy"
		atf_check test -s copy
		[ "$(fact mtime copy)" != "$(fact mtime big)" ] ||
		    atf_fail "$p: a partial copy has the source's time"
		atf_check_equal "755" "$(fact mode copy)"
	done
	# Complete, the same copy gets them.
	atf_check $(prog) -p big copy
	atf_check_equal "$(fact mtime big)" "$(fact mtime copy)"
	atf_check_equal "777" "$(fact mode copy)"
}

atf_test_case p_incomplete_full_disk cleanup
p_incomplete_full_disk_head()
{
	atf_set "descr" "-p onto a file system that fills up part way"
	atf_set "require.user" "root"
}
p_incomplete_full_disk_body()
{
	mkdata big 100000
	touch -d 2001-02-03T04:05:06Z big
	mkdir mnt
	if ! mount -t tmpfs -o size=1m tmpfs mnt 2>/dev/null; then
		atf_skip "cannot mount a tmpfs here"
	fi
	$(prog) -p big mnt/copy 2>err
	r=$?
	t=$(fact mtime mnt/copy)
	umount mnt
	atf_check_equal 1 $r
	atf_check -o inline:"cp: mnt/copy: No space left on device\n" cat err
	[ "$t" != "$(fact mtime big)" ] ||
	    atf_fail "a partial copy has the source's time"
}
p_incomplete_full_disk_cleanup()
{
	umount mnt 2>/dev/null || true
}

# A chain of N directories d, the last holding leaf.
mkchain()
{
	_p=$1
	_i=0
	while [ $_i -lt $2 ]; do
		_p=$_p/d
		_i=$((_i + 1))
	done
	mkdir -p $_p
	echo leaf > $_p/leaf
	echo $_p
}

atf_test_case fd_limit
fd_limit_head()
{
	atf_set "descr" "A tree far deeper than the descriptor limit allows" \
	    "to keep open, with descriptors inherited too"
}
fd_limit_body()
{
	mkchain real 400 > /dev/null
	atf_check sh -c "ulimit -n 100; exec $(prog) -R real c100"
	atf_check diff -r real c100
	# Less room than the budget thinks: 7 descriptors inherited.
	atf_check sh -c "ulimit -n 24; exec 3</dev/null 4</dev/null \
	    5</dev/null 6</dev/null 7</dev/null 8</dev/null 9</dev/null
	    exec $(prog) -R real c24"
	atf_check diff -r real c24
	atf_check sh -c "ulimit -n 12; exec $(prog) -RL real c12"
	atf_check diff -r real c12
}

# paused Q CMD ARGS...: run cp ARGS with -i answering from a FIFO; when
# its question about Q shows, run the shell command CMD, then answer y.
# The exit status is cp's; its stderr is left in err.
paused()
{
	_q=$1
	_act=$2
	shift 2
	rm -f answers
	mkfifo answers
	# Emptied here, not by the redirection below, which the background
	# job makes at a time of its own: a question left from a run before
	# must not be taken for this one's.
	: > err
	"$@" < answers 2>> err &
	_pid=$!
	exec 3> answers
	_n=0
	until grep -q "overwrite $_q?" err 2>/dev/null; do
		_n=$((_n + 1))
		if [ $_n -gt 600 ]; then
			kill $_pid
			atf_fail "cp never asked about $_q"
		fi
		sleep 0.1
	done
	eval "$_act"
	echo y >&3
	exec 3>&-
	wait $_pid
}

# The branches the walk exists for: a tree that changes under it.
atf_test_case walk_dir_renamed
walk_dir_renamed_head()
{
	atf_set "descr" "A source directory renamed, or a link put in its" \
	    "place, while its frame is parked: the one opened is copied"
}
walk_dir_renamed_body()
{
	deep=$(mkchain src/a 12)
	for p in src/a src/a/d src/a/d/d/d; do
		echo "in $p" > $p/f
	done
	mkdir -p t/$deep elsewhere
	echo old > t/$deep/leaf
	echo intruder > elsewhere/intruder
	act='mv src/a/d src/a/moved; mkdir src/a/d; echo x > src/a/d/impostor'
	paused "t/$deep/leaf" "$act" sh -c "ulimit -n 20
	    exec $(prog) -Ri src t"
	atf_check_equal 0 $?
	atf_check diff -r src/a/moved t/src/a/d
	atf_check test ! -e t/src/a/d/impostor
	rm -rf t src/a/d
	mv src/a/moved src/a/d
	mkdir -p t/$deep
	echo old > t/$deep/leaf
	act='mv src/a/d src/a/moved; ln -s ../../elsewhere src/a/d'
	paused "t/$deep/leaf" "$act" sh -c "ulimit -n 20
	    exec $(prog) -Ri src t"
	atf_check_equal 0 $?
	atf_check diff -r src/a/moved t/src/a/d
	atf_check test ! -e t/src/a/d/intruder
}

atf_test_case walk_dir_replaced
walk_dir_replaced_head()
{
	atf_set "descr" "Parked source directories replaced, and what they" \
	    "held moved away, while copied: reported, no impostor copied"
}
walk_dir_replaced_body()
{
	deep=$(mkchain src/a 12)
	echo "in a" > src/a/f
	mkdir -p t/$deep
	echo old > t/$deep/leaf
	# ".." of the moved part is no longer the frame above it, and the
	# way down from the top meets the impostor.
	act='mv src/a/d/d/d/d src/away; mv src/a/d src/gone; mkdir src/a/d
	    echo x > src/a/d/impostor'
	paused "t/$deep/leaf" "$act" sh -c "ulimit -n 20
	    exec $(prog) -Ri src t"
	atf_check_equal 1 $?
	atf_check -o match:"moved during the copy \\(not copied further\\)" \
	    cat err
	atf_check test ! -e t/src/a/d/impostor
	atf_check -o inline:"in a\n" cat t/src/a/f
}

# A directory is skipped as our own copy only while it is.
atf_test_case made_dir_gone cleanup
made_dir_gone_head()
{
	atf_set "descr" "A directory made by the copy and gone since does" \
	    "not hide a source directory given its number, or itself moved"
}
made_dir_gone_body()
{
	mkdir s1 s2 s3 t
	echo x > s1/x
	echo new > s2/q
	mkdir t/s2
	echo old > t/s2/q
	# Our t/s1, moved into a source not yet read: copied like any other.
	paused t/s2/q 'mv t/s1 s3/moved' $(prog) -Ri s1 s2 s3 t
	atf_check_equal 0 $?
	atf_check -o inline:"x\n" cat t/s3/moved/x
	# Deleted, its number given to new source directories (ext4 does at
	# once, and a small UFS from the inodes' rotor): each of them copied.
	# On a file system of its own where it can be had, so that no other
	# program takes the number first.
	rm -rf t s3
	if [ "$(id -u)" = 0 ] && mkdir mnt && own_file_system mnt; then
		mv s1 s2 mnt
		cd mnt
	fi
	mkdir s3 t t/s2
	echo old > t/s2/q
	act='ino=$(fact id t/s1); rm -rf t/s1
	    for k in 1 2 3 4 5 6 7 8; do
		mkdir s3/n$k; echo $k > s3/n$k/file
	    done'
	paused t/s2/q "$act" $(prog) -Ri s1 s2 s3 t
	atf_check_equal 0 $?
	for k in 1 2 3 4 5 6 7 8; do
		atf_check -o inline:"$k\n" cat t/s3/n$k/file
	done
	for k in 1 2 3 4 5 6 7 8; do
		[ "$(fact id s3/n$k)" != "$ino" ] || return 0
	done
	atf_skip "no new directory got the freed inode number here"
}
made_dir_gone_cleanup()
{
	umount mnt 2>/dev/null
	[ -f md.unit ] && mdconfig -d -u "$(cat md.unit)" 2>/dev/null
	true
}

# own_file_system DIR: a new 16 MiB file system mounted on DIR, as root:
# ext4 on a loop device (Linux), UFS on a memory disk (FreeBSD, whose
# unit is left in ./md.unit for the cleanup).  Returns 1 where neither
# can be made.
own_file_system()
{
	if command -v mdconfig >/dev/null && command -v newfs >/dev/null; then
		_md=$(mdconfig -a -t swap -s 16m 2>/dev/null) || return 1
		echo "$_md" > md.unit
		newfs "/dev/$_md" >/dev/null 2>&1 &&
		    mount "/dev/$_md" "$1" 2>/dev/null
	else
		sized img 16 && mkfs.ext4 -q -F img >/dev/null 2>&1 &&
		    mount -o loop img "$1" 2>/dev/null
	fi
}

# Closed standard descriptors.
atf_test_case closed_stdin_i
closed_stdin_i_head()
{
	atf_set "descr" "-i with stdin closed: asked, no answer is no"
}
closed_stdin_i_body()
{
	mkdata a 2000
	echo old > b
	atf_check -s exit:1 \
	    -e inline:"overwrite b? (y/n [n]) not overwritten\n" \
	    $(prog) -i a b <&-
	atf_check -o inline:"old\n" cat b
	atf_check $(prog) -i a c <&-
	atf_check cmp a c
}

atf_test_case closed_stderr_progress
closed_stderr_progress_head()
{
	atf_set "descr" "With stderr closed, a progress signal writes" \
	    "nothing into the copy"
}
closed_stderr_progress_body()
{
	progress_into_full_fifo stderr
}

# progress_into_full_fifo stderr|stdin-stderr: cp copies into a FIFO
# with those descriptors closed, and takes a progress signal while it
# waits in a write; the copy must come out whole and exactly the source.
progress_into_full_fifo()
{
	sig=$(info_signal)
	mkdata big 40000
	mkfifo fifo
	case $1 in
	stderr)		$(prog) big fifo 2>&- & ;;
	stdin-stderr)	$(prog) big fifo <&- 2>&- & ;;
	*)		atf_fail "progress_into_full_fifo: $1?" ;;
	esac
	pid=$!
	exec 3<fifo
	# The pipe is full: cp waits in a write with most still to copy,
	# its handler long in place.
	sleep 1
	kill -$sig $pid
	cat <&3 > got
	exec 3<&-
	wait $pid
	atf_check_equal 0 $?
	atf_check cmp big got
}

#
# Cases for FreeBSD's own paths.  Each skips, saying why, where the host
# is not FreeBSD or lacks what it needs; FreeBSD's own cp suite has the
# ACL and flag cases of the work directory's file system, these go
# further.
#

# fb_only WHAT: skip unless on FreeBSD, naming what needs it.
fb_only()
{
	[ "$(uname -s)" = FreeBSD ] ||
	    atf_skip "FreeBSD's $1: not on $(uname -s)"
}

# fb_have CMD...: skip unless each command is there.
fb_have()
{
	for _c; do
		command -v "$_c" >/dev/null 2>&1 || atf_skip "no $_c(8) here"
	done
}

atf_test_case fb_p_flags cleanup
fb_p_flags_head()
{
	atf_set "descr" "FreeBSD: -p keeps uchg and nodump, set after the" \
	    "times; -N leaves them out; -p onto a file clears the ones its" \
	    "source has not; an immutable target is refused"
}
fb_p_flags_body()
{
	fb_only "chflags"
	fb_have chflags
	mkdata src 100
	touch -t 200102030405.06 src
	chflags nodump src 2>/dev/null ||
	    atf_skip "chflags: the work directory's file system has no flags"
	atf_check chflags uchg src

	atf_check $(prog) -p src dst
	atf_check cmp src dst
	atf_check -o match:uchg -o match:nodump stat -f %Sf dst
	atf_check -o inline:"$(stat -f %f src)\n" stat -f %f dst
	# An immutable file takes no new times: they were set before.
	atf_check -o inline:"$(stat -f %m src)\n" stat -f %m dst

	atf_check $(prog) src plain
	atf_check -o not-match:uchg -o not-match:nodump stat -f %Sf plain
	atf_check $(prog) -pN src noflags
	atf_check -o not-match:uchg -o not-match:nodump stat -f %Sf noflags

	# Onto a target with flags its source has not: they go, as they go
	# under FreeBSD's cp.
	echo new > flagless
	echo old > tgt
	atf_check chflags nodump tgt
	atf_check $(prog) -p flagless tgt
	atf_check -o inline:"new\n" cat tgt
	atf_check -o not-match:nodump stat -f %Sf tgt

	# A tree: the directory's flags, and an immutable file in it.
	mkdir dir
	echo f > dir/f
	atf_check chflags uchg dir/f
	atf_check chflags nodump dir
	atf_check $(prog) -Rp dir dir2
	atf_check -o inline:"f\n" cat dir2/f
	atf_check -o match:uchg stat -f %Sf dir2/f
	atf_check -o match:nodump stat -f %Sf dir2

	# An immutable target cannot be written: said, and left whole.
	atf_check -s exit:1 -e match:"^cp: dst: Operation not permitted$" \
	    $(prog) flagless dst
	atf_check cmp src dst
}
fb_p_flags_cleanup()
{
	chflags -R 0 . 2>/dev/null
	true
}

atf_test_case fb_p_extattr
fb_p_extattr_head()
{
	atf_set "descr" "FreeBSD: -p keeps the user namespace's extended" \
	    "attributes, binary and of some kilobytes, of files and" \
	    "directories, read-only sources too; without -p none come"
	atf_set "require.user" "unprivileged"
}
fb_p_extattr_body()
{
	fb_only "extended attributes (extattr)"
	fb_have setextattr getextattr lsextattr
	echo data > src
	setextattr user plain "a value" src 2>/dev/null ||
	    atf_skip "setextattr: no user extended attributes here"
	# Every byte value, NUL among them, over a few kilobytes.
	i=0
	while [ $i -lt 256 ]; do
		printf "\\$(printf %o $i)"
		i=$((i + 1))
	done > bytes
	cat bytes bytes bytes bytes bytes bytes bytes bytes bytes bytes \
	    bytes bytes > blob
	atf_check -o inline:"3072\n" -x "wc -c < blob | tr -d ' '"
	atf_check setextattr -i user blob src < blob
	chmod 444 src

	atf_check $(prog) src none
	atf_check -o empty lsextattr -q user none

	atf_check $(prog) -p src kept
	atf_check -o inline:"blob\nplain\n" -x \
	    "lsextattr -q user kept | tr '\t' '\n' | sort"
	atf_check -o inline:"a value" getextattr -qq user plain kept
	getextattr -qq user blob kept > got
	atf_check cmp blob got
	atf_check -o inline:"444\n" stat -f %Lp kept

	mkdir dir
	echo f > dir/f
	atf_check setextattr user tag "of the directory" dir
	atf_check setextattr user tag "of the file" dir/f
	atf_check $(prog) -Rp dir dir2
	atf_check -o inline:"of the directory" getextattr -qq user tag dir2
	atf_check -o inline:"of the file" getextattr -qq user tag dir2/f
	atf_check $(prog) -R dir dir3
	atf_check -o empty lsextattr -q user dir3 dir3/f
}

atf_test_case fb_p_acls cleanup
fb_p_acls_head()
{
	atf_set "descr" "FreeBSD: -p keeps NFSv4 ACLs and POSIX.1e access" \
	    "and default ACLs, on a memory disk mounted with each"
	atf_set "require.user" "root"
}
fb_p_acls_body()
{
	fb_only "ACLs"
	fb_have mdconfig newfs setfacl getfacl
	# The guest's root file system has no ACLs enabled: a UFS of its
	# own, mounted with one kind and then the other, has.
	md=$(mdconfig -a -t swap -s 32m) ||
	    atf_skip "mdconfig: cannot attach a memory disk"
	echo "$md" > md.unit
	atf_check -o ignore -e ignore newfs /dev/$md
	mkdir mnt
	atf_check mount -o nfsv4acls /dev/$md mnt
	echo data > mnt/f
	atf_check setfacl -m u:nobody:w::deny mnt/f
	nfs4="user:nobody:-w-+:-+:deny"
	atf_check -o match:"$nfs4" getfacl mnt/f
	atf_check $(prog) mnt/f mnt/plain
	atf_check -o not-match:"$nfs4" getfacl mnt/plain
	atf_check $(prog) -p mnt/f mnt/kept
	atf_check -o match:"$nfs4" getfacl mnt/kept
	mkdir mnt/d
	atf_check setfacl -m u:nobody:w::deny mnt/d
	atf_check $(prog) -Rp mnt/d mnt/d2
	atf_check -o match:"$nfs4" getfacl mnt/d2
	atf_check umount mnt

	atf_check mount -o acls /dev/$md mnt
	rm -rf mnt/*
	echo data > mnt/f
	atf_check setfacl -m u:nobody:r-- mnt/f
	atf_check -o match:"^user:nobody:r--$" getfacl mnt/f
	atf_check $(prog) mnt/f mnt/plain
	atf_check -o not-match:"^user:nobody:" getfacl mnt/plain
	atf_check $(prog) -p mnt/f mnt/kept
	atf_check -o match:"^user:nobody:r--$" getfacl mnt/kept
	mkdir mnt/d
	atf_check setfacl -d -m u::rwx,g::r-x,o::r-x,m::r-x,u:nobody:r-x mnt/d
	atf_check $(prog) -Rp mnt/d mnt/d2
	atf_check -o match:"^user:nobody:r-x$" getfacl -d mnt/d2
	atf_check $(prog) -R mnt/d mnt/d3
	atf_check -o not-match:"^user:nobody:" getfacl -d mnt/d3
}
fb_p_acls_cleanup()
{
	umount mnt 2>/dev/null
	[ -f md.unit ] && mdconfig -d -u "$(cat md.unit)" 2>/dev/null
	true
}

atf_test_case rescue
rescue_head()
{
	atf_set descr "FreeBSD: the crunched /rescue/cp (libbufsz through" \
	    "CRUNCH_LIBS) copies files and trees as bin/cp does"
}
rescue_body()
{
	rescue_prog cp
	mkdir -p src/sub
	dd if=/dev/urandom of=src/big bs=64k count=40 2>/dev/null
	echo small > src/sub/small
	ln -s big src/link
	atf_check "$r" src/big copy
	atf_check cmp src/big copy
	atf_check "$r" -Rp src dst
	atf_check diff -r src dst
	atf_check -o inline:"big\n" readlink dst/link
	atf_check -s exit:1 -e inline:"cp: nosuch: No such file or directory\n" \
	    "$r" nosuch x
	atf_check test ! -e x
}

atf_init_test_cases()
{
	# The root, looked up once for the whole case: atf_config_get costs
	# three processes, and some cases run the program thousands of times.
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	add_regression_cases
	atf_add_test_case basic
	atf_add_test_case rescue
	atf_add_test_case usage
	atf_add_test_case exclusive_options
	atf_add_test_case directory_without_R
	atf_add_test_case identical
	atf_add_test_case missing_source
	atf_add_test_case not_a_directory
	atf_add_test_case symlink_source
	atf_add_test_case standalone_P
	atf_add_test_case dangling_target
	atf_add_test_case dangling_source
	atf_add_test_case target_longer
	atf_add_test_case fflag
	atf_add_test_case fflag_kept
	atf_add_test_case nflag
	atf_add_test_case iflag
	atf_add_test_case fin_last_wins
	atf_add_test_case vflag
	atf_add_test_case lflag
	atf_add_test_case sflag
	atf_add_test_case R_basic
	atf_add_test_case R_trailing_slash
	atf_add_test_case R_into_file
	atf_add_test_case R_self
	atf_add_test_case R_into_itself
	atf_add_test_case R_operands_apart
	atf_add_test_case R_cycle
	atf_add_test_case R_P
	atf_add_test_case R_H
	atf_add_test_case R_L
	atf_add_test_case R_fifo
	atf_add_test_case R_chrdev
	atf_add_test_case chrdev_source
	atf_add_test_case p_times_modes
	atf_add_test_case a_flag
	atf_add_test_case modes_without_p
	atf_add_test_case p_setid_cleared
	atf_add_test_case sparse_holes
	atf_add_test_case sparse_5g
	atf_add_test_case dev_full
	atf_add_test_case engine_paths
	atf_add_test_case unreadable
	atf_add_test_case deep_tree
	atf_add_test_case xflag
	atf_add_test_case progress
	atf_add_test_case source_through_link
	atf_add_test_case link_farm
	atf_add_test_case R_target_link_to_source
	atf_add_test_case target_dir_link
	atf_add_test_case target_link_out
	atf_add_test_case to_link_outside
	atf_add_test_case dangling_target_R
	atf_add_test_case target_in_part
	atf_add_test_case p_incomplete
	atf_add_test_case p_incomplete_full_disk
	atf_add_test_case fd_limit
	atf_add_test_case walk_dir_renamed
	atf_add_test_case walk_dir_replaced
	atf_add_test_case made_dir_gone
	atf_add_test_case closed_stdin_i
	atf_add_test_case closed_stderr_progress
	atf_add_test_case fb_p_flags
	atf_add_test_case fb_p_extattr
	atf_add_test_case fb_p_acls
}

# Behaviours the generated-tree checker (tests/safety) once pinned by seed
# and case number, written out as cases of their own.

atf_test_case dangling_target_chain
dangling_target_chain_head()
{
	atf_set "descr" "Without -R a target that is a chain of links to" \
	    "nothing is followed to the chain's end, and the file made there"
}
dangling_target_chain_body()
{
	mkdir -p src/data dst out
	echo x > src/data/e
	ln -s ../out/new dst/e
	ln -s ../src/data/new out/new
	atf_check $(prog) src/data/e dst
	atf_check -o inline:"x\n" cat src/data/new
	atf_check -o inline:"../out/new\n" readlink dst/e
	atf_check -o inline:"../src/data/new\n" readlink out/new
}

atf_test_case R_target_link_to_own_copy
R_target_link_to_own_copy_head()
{
	atf_set "descr" "-R: a link in the target tree to a file the copy" \
	    "itself made is followed; an absolute one is refused"
}
R_target_link_to_own_copy_body()
{
	mkdir -p src/a dst/src/a
	echo dash > src/-dash
	echo d > src/a/d
	ln -s ../-dash dst/src/a/d
	# -dash must be copied before a/d is written through the link: in
	# the order the directory lists them (creation order on UFS, a
	# first) the link would still dangle, and be refused.
	atf_check -o save:out $(prog) -R -L -v --sort ./src dst
	atf_check -o match:"^\./src/a/d -> dst/src/a/d$" cat out
	atf_check -o inline:"d\n" cat dst/src/-dash
	atf_check -o inline:"../-dash\n" readlink dst/src/a/d
	rm -rf dst
	mkdir -p dst/src/a
	ln -s "$PWD/dst/src/-dash" dst/src/a/d
	atf_check -s exit:1 -e inline:"cp: dst/src/a/d: Permission denied\n" \
	    -o ignore $(prog) -R -L -v --sort ./src dst
	atf_check -o inline:"dash\n" cat dst/src/-dash
	# The other order: the file is not made yet, so the link dangles.
	rm -rf dst
	mkdir -p later/a dst/later/a
	echo z > later/z
	echo d > later/a/d
	ln -s ../z dst/later/a/d
	atf_check -s exit:1 \
	    -e inline:"cp: dst/later/a/d is a dangling symbolic link (not copied).\n" \
	    -o ignore $(prog) -R -L -v --sort ./later dst
	atf_check -o inline:"z\n" cat dst/later/z
}

atf_test_case R_one_target_name_twice
R_one_target_name_twice_head()
{
	atf_set "descr" "Two operands with one last name, each refused on" \
	    "the same target: two failures, two messages, exit 1"
}
R_one_target_name_twice_body()
{
	mkdir -p src/a dst/data
	echo 1 > src/data
	echo 2 > src/a/data
	atf_check -s exit:1 \
	    -e inline:"cp: dst/data: Is a directory\ncp: dst/data: Is a directory\n" \
	    $(prog) -R src/data src/a/data dst
	atf_check test -d dst/data
}

atf_test_case Rp_dir_mode_for_later_operand
Rp_dir_mode_for_later_operand_head()
{
	atf_set "descr" "-Rp gives an existing directory its source's mode" \
	    "after the first operand, so a later one may write into it"
	atf_set "require.user" "unprivileged"
}
Rp_dir_mode_for_later_operand_body()
{
	mkdir -p src/c dst/src/c
	echo h > src/c/h
	chmod 755 src/c
	chmod 555 dst/src/c
	atf_check -s exit:1 -e inline:"cp: dst/src/c/h: Permission denied\n" \
	    $(prog) -R -p src src dst
	atf_check -o inline:"h\n" cat dst/src/c/h
	atf_check_equal "755" "$(fact mode dst/src/c)"
}

atf_test_case i_answer_not_from_source
i_answer_not_from_source_head()
{
	atf_set "descr" "-i with stdin closed: the source, opened as" \
	    "descriptor 0, is never read for the answer, whose first line is y"
}
i_answer_not_from_source_body()
{
	mkdata more 2000
	{ echo y; cat more; } > src
	for o in -i -iv; do
		echo old > dst
		atf_check -s exit:1 -o ignore \
		    -e inline:"overwrite dst? (y/n [n]) not overwritten\n" \
		    $(prog) $o src dst <&-
		atf_check -o inline:"old\n" cat dst
	done
}

atf_test_case progress_not_into_copy
progress_not_into_copy_head()
{
	atf_set "descr" "With stdin and stderr closed, so that the target" \
	    "could be descriptor 2, a progress signal writes nothing into it"
}
progress_not_into_copy_body()
{
	progress_into_full_fifo stdin-stderr
}

atf_test_case R_n_i_identical_first
R_n_i_identical_first_head()
{
	atf_set "descr" "-R with -n or -i: a link in the target tree that" \
	    "leads to a source file inside it is refused as identical before" \
	    "-n leaves it or -i asks"
}
R_n_i_identical_first_body()
{
	mkdir -p s/sub d/sub d/in
	seq 1 1000 > s/f
	seq 1 20 > s/sub/g
	echo other > s/o
	cat s/f > keep
	# Other names of the sources, inside the target: a hard link and a
	# link to it, a link through "..", a chain of links.
	ln s/f d/h
	ln -s h d/f
	ln s/sub/g d/in/g2
	ln -s ../in/g2 d/sub/l
	ln -s l d/sub/g
	# A link to another file is only in the way.
	echo mine > d/mine
	ln -s mine d/o
	m="are identical (not copied)."
	for o in -Rn -Rvn -an -Ri -Riv -ai; do
		atf_check -s exit:1 -o save:out -e save:err \
		    $(prog) $o --sort s/ d </dev/null
		atf_check -o inline:"cp: d/f and s/f $m\n" sed -n 1p err
		case $o in
		*n)	atf_check -o inline:"cp: d/sub/g and s/sub/g $m\n" \
			    sed -n 2p err
			atf_check -o inline:"2\n" \
			    sh -c 'wc -l < err | tr -d " "'
			case $o in
			*v*)	atf_check -o match:"^d/o not overwritten$" \
				    cat out ;;
			esac ;;
		*)	atf_check -o inline:"overwrite d/o? (y/n [n]) not overwritten\ncp: d/sub/g and s/sub/g $m\n" \
			    sed -n 2,3p err ;;
		esac
		atf_check -s exit:1 grep -e "d/f not" -e "overwrite d/f" \
		    -e "d/sub/g not" -e "overwrite d/sub/g" out err
		atf_check cmp s/f keep
		atf_check -o inline:"mine\n" cat d/mine
		atf_check -o inline:"h\n" readlink d/f
		atf_check -o inline:"l\n" readlink d/sub/g
	done
}

atf_test_case lf_sf_failures
lf_sf_failures_head()
{
	atf_set "descr" "-l and -s, with -f or not: a target that cannot be" \
	    "removed, or a directory, fails with the link's error, as" \
	    "FreeBSD's cp words it"
	atf_set "require.user" "unprivileged"
}
lf_sf_failures_body()
{
	echo x > a
	mkdir ro d t t/sub src src/sub
	echo old > ro/t
	mkdir d/a
	echo y > src/sub/t
	echo old > t/sub/t
	m=$(errno_message EEXIST)
	for o in -l -s -lf -sf -lfv -sfv -lfp -sfp; do
		# -p gives t/sub the mode of src/sub once done.
		chmod 555 ro t/sub
		atf_check -s exit:1 -e inline:"cp: ro/t: $m\n" $(prog) $o a ro/t
		atf_check -o inline:"old\n" cat ro/t
		atf_check -s exit:1 -e inline:"cp: d/a: $m\n" $(prog) $o a d
		atf_check test -d d/a
		atf_check -s exit:1 -e inline:"cp: t/sub/t: $m\n" -o ignore \
		    $(prog) -R $o "$PWD/src/" t
		atf_check -o inline:"old\n" cat t/sub/t
	done
	chmod 755 ro t/sub
}

add_regression_cases()
{
	atf_add_test_case dangling_target_chain
	atf_add_test_case R_target_link_to_own_copy
	atf_add_test_case R_one_target_name_twice
	atf_add_test_case Rp_dir_mode_for_later_operand
	atf_add_test_case i_answer_not_from_source
	atf_add_test_case progress_not_into_copy
	atf_add_test_case R_n_i_identical_first
	atf_add_test_case lf_sf_failures
}
