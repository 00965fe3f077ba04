// SPDX-License-Identifier: GPL-2.0
// Must leave alone: each unmap with its map's type, by an address inside
// the page, and a slot reused after its unmap.
#include <linux/highmem.h>

void copy_page_typed(struct page *to, struct page *from)
{
	char *src = kmap_atomic(from, KM_USER0);
	char *dst;

	dst = kmap_atomic(to, KM_USER1);
	memcpy(dst, src, PAGE_SIZE);
	kunmap_atomic(dst + PAGE_SIZE / 2, KM_USER1);
	kunmap_atomic(src, KM_USER0);

	src = kmap_atomic(to, KM_USER1);
	memset(src, 0, 64);
	kunmap_atomic(src, KM_USER1);
}
