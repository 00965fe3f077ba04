// SPDX-License-Identifier: GPL-2.0
// Must catch: a return between the map and its unmap.
#include <linux/highmem.h>

int check_header(struct page *page)
{
	u32 *p = kmap_atomic(page, KM_USER0);

	if (p[0] != 0x12345678)
		return -EINVAL;	// EXPECT: unmap-missing
	kunmap_atomic(p, KM_USER0);
	return 0;
}

int sum_page(struct page *page, u32 *sum)
{
	u32 *p;
	int i;

	p = kmap_atomic(page, KM_USER1);
	for (i = 0; i < PAGE_SIZE / 4; i++) {
		if (!p[i])
			goto out;
		*sum += p[i];
	}
	kunmap_atomic(p, KM_USER1);
out:
	return 0;	// EXPECT: unmap-missing
}

/* Returning what the mapping holds is not handing the mapping over. */
u32 first_word(struct page *page)
{
	u32 *p = kmap_atomic(page, KM_USER0);

	return p[0];	// EXPECT: unmap-missing
}

int check_page(struct page *page)
{
	u32 *p;

	p = kmap_atomic(page, KM_USER1);
	return validate(p);	// EXPECT: unmap-missing
}

/* A pointer into the mapping kept in a local is no hand-out. */
int copy_in(struct page *page, unsigned int offset, const char *src, size_t len)
{
	char *kaddr, *dst;

	kaddr = kmap_atomic(page, KM_USER0);
	dst = kaddr + offset;
	if (len > PAGE_SIZE - offset)
		return -EINVAL;	// EXPECT: unmap-missing
	memcpy(dst, src, len);
	kunmap_atomic(kaddr, KM_USER0);
	return 0;
}

int copy_words(struct page *page, const u32 *src, size_t n)
{
	char *kaddr = kmap_atomic(page, KM_USER1);
	u32 *w = (u32 *)kaddr;

	if (n > PAGE_SIZE / sizeof(u32))
		return -EINVAL;	// EXPECT: unmap-missing
	memcpy(w, src, n * sizeof(u32));
	kunmap_atomic(kaddr, KM_USER1);
	return 0;
}
