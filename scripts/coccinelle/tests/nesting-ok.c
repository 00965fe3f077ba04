// SPDX-License-Identifier: GPL-2.0
// Must leave alone (kmap_atomic_to_local.cocci): nested and sequential
// pairs.
#include <linux/highmem.h>

void copy_highpage_nested(struct page *to, struct page *from)
{
	char *vfrom, *vto;

	vfrom = kmap_atomic(from, KM_USER0);
	vto = kmap_atomic(to, KM_USER1);
	copy_page(vto, vfrom);
	kunmap_atomic(vto, KM_USER1);
	kunmap_atomic(vfrom, KM_USER0);
}

void zero_two(struct page *a, struct page *b)
{
	char *p = kmap_atomic(a, KM_USER0);

	clear_page(p);
	kunmap_atomic(p, KM_USER0);
	p = kmap_atomic(b, KM_USER0);
	clear_page(p);
	kunmap_atomic(p, KM_USER0);
}
