// SPDX-License-Identifier: GPL-2.0
// Correct 2.6 usage: a process-context copy with KM_USER0 and KM_USER1,
// released in either order (2.6's copy_user_highpage() unmapped KM_USER0
// first).
#include <linux/highmem.h>

void copy_user_highpage_26(struct page *to, struct page *from)
{
	char *vfrom, *vto;

	vfrom = kmap_atomic(from, KM_USER0);
	vto = kmap_atomic(to, KM_USER1);
	copy_page(vto, vfrom);
	kunmap_atomic(vfrom, KM_USER0);
	kunmap_atomic(vto, KM_USER1);
}

void copy_highpage_nested(struct page *to, struct page *from)
{
	char *vfrom = kmap_atomic(from, KM_USER0);
	char *vto = kmap_atomic(to, KM_USER1);

	copy_page(vto, vfrom);
	kunmap_atomic(vto, KM_USER1);
	kunmap_atomic(vfrom, KM_USER0);
}
