// SPDX-License-Identifier: GPL-2.0
// Must leave alone: the address unmapped, the page only mapped.
#include <linux/highmem.h>

struct buf {
	struct page *page;
	unsigned int len;
};

void clear_buf(struct buf *b)
{
	void *addr = kmap_atomic(b->page, KM_USER0);

	memset(addr, 0, b->len);
	kunmap_atomic(addr, KM_USER0);
	flush_dcache_page(b->page);
}
