// SPDX-License-Identifier: GPL-2.0
// Must leave alone: every map's address kept, in a variable, an
// initialiser, an argument, a return.
#include <linux/highmem.h>

u32 peek(struct page *page)
{
	u32 *p = kmap_atomic(page, KM_USER0);
	u32 v = p[0];

	kunmap_atomic(p, KM_USER0);
	return v;
}

void fill(struct page *page, struct sg_mapping_iter *miter)
{
	miter->addr = kmap_atomic(page, KM_USER1);
}

void *map_for_caller(struct page *page)
{
	return kmap_atomic(page, KM_USER0);
}
