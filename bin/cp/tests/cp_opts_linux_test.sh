# SPDX-License-Identifier: BSD-2-Clause
#
# Tests for cp -p of what only Linux has: POSIX ACLs as Linux's acl tools
# set them, and a ramfs, which takes no attributes.  Installed on Linux
# alone (MK_LINUX_TESTS).
#

. "$(atf_get_srcdir)/../../common/portable.subr"
. "$(atf_get_srcdir)/cp.subr"

need_acl()
{
	command -v setfacl >/dev/null 2>&1 && command -v getfacl \
	    >/dev/null 2>&1 || atf_skip "setfacl/getfacl (Debian: acl) \
are not installed"
	# FreeBSD's ACLs have cases of their own (cp_test:fb_p_acls).
	getfacl -c -p / >/dev/null 2>&1 ||
	    atf_skip "getfacl has no -c and -p (Linux's acl tools)"
	touch aprobe
	setfacl -m u:nobody:r aprobe 2>/dev/null ||
	    atf_skip "this file system has no POSIX ACLs"
	rm aprobe
}

# The ACL of $1 without its header, to compare two files'.
acl()
{
	getfacl -c -p "$1"
}

atf_test_case p_acls
p_acls_head()
{
	atf_set "descr" "-p keeps POSIX ACLs, a directory's default ACL too"
}
p_acls_body()
{
	need_acl
	mkdir d
	echo x > d/f
	setfacl -m u:nobody:rw,g:nogroup:r d/f
	setfacl -m u:nobody:rwx d
	setfacl -d -m u:nobody:rx,o::- d
	echo y > plainf
	atf_check $(prog) -Rp d e
	acl d/f > want
	acl e/f > got
	atf_check cmp want got
	acl d > want
	acl e > got
	atf_check cmp want got
	atf_check -o match:"default:user:nobody:r-x" getfacl -c e
	# What e's new entries inherit is e's, not the copier's.
	atf_check $(prog) plainf e/new
	atf_check -o match:"user:nobody:r-x" getfacl -c e/new
	# Without -p, no ACL.
	atf_check $(prog) d/f nop
	atf_check -o not-match:"nobody" getfacl -c nop
}

atf_test_case p_refused cleanup
p_refused_head()
{
	atf_set "descr" "A target file system without xattrs, ACLs or flags"
	atf_set "require.user" "root"
}
p_refused_body()
{
	need_xattr
	need_acl
	need_chattr d
	echo x > f
	xattr_set f a 1
	xattr_set f b 2
	setfacl -m u:nobody:rw f
	file_flags f +d
	echo y > plain
	mkdir mnt
	mount -t ramfs cptest mnt 2>/dev/null ||
	    atf_skip "cannot mount a ramfs here"
	# Reported once each, as FreeBSD and NetBSD report them; the data
	# and the rest of the attributes are kept.
	atf_check -s exit:1 -e save:err $(prog) -p f mnt/f
	msg=$(errno_message EOPNOTSUPP)
	cat > want <<EOF
cp: chflags: mnt/f: $msg
cp: failed to set acl entries for mnt/f: $msg
cp: mnt/f: error copying extended attributes: $msg
EOF
	atf_check -o file:want sort err
	atf_check -o inline:"x\n" cat mnt/f
	atf_check test ! mnt/f -nt f -a ! mnt/f -ot f
	# A source without them is copied with -p without a word.
	touch -t 200101010000 plain
	atf_check $(prog) -p plain mnt/plain
	atf_check test ! mnt/plain -nt plain
	umount mnt
}
p_refused_cleanup()
{
	umount mnt 2>/dev/null || true
	unflag
}

atf_init_test_cases()
{
	! atf_config_has rootdir || ROOTDIR=$(atf_config_get rootdir)
	atf_add_test_case p_acls
	atf_add_test_case p_refused
}
