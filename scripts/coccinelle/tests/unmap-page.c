// SPDX-License-Identifier: GPL-2.0
// Must catch: the page passed to kunmap_atomic() instead of the address.
#include <linux/highmem.h>

struct buf {
	struct page *page;
	unsigned int len;
};

void clear_buf(struct buf *b)
{
	void *addr = kmap_atomic(b->page, KM_USER0);

	memset(addr, 0, b->len);
	kunmap_atomic(b->page, KM_USER0);	// EXPECT: unmap-page
}

void touch(struct page *page)
{
	kmap_atomic(page, KM_USER1);	// EXPECT: map-discarded
	kunmap_atomic(page, KM_USER1);	// EXPECT: unmap-page
}
