// SPDX-License-Identifier: GPL-2.0
// Must catch: an unmap with another type than the map's.
#include <linux/highmem.h>

void copy_page_typed(struct page *to, struct page *from)
{
	char *src = kmap_atomic(from, KM_USER0);
	char *dst;

	dst = kmap_atomic(to, KM_USER1);
	memcpy(dst, src, PAGE_SIZE);
	kunmap_atomic(dst, KM_USER0);	// EXPECT: unmap-type
	kunmap_atomic(src, KM_USER1);	// EXPECT: unmap-type
}

void zero_tail(struct page *page, unsigned int from)
{
	char *addr = kmap_atomic_prot(page, KM_USER0, PAGE_KERNEL);

	memset(addr + from, 0, PAGE_SIZE - from);
	kunmap_atomic(addr + from, KM_USER1);	// EXPECT: unmap-type
}
