// SPDX-License-Identifier: GPL-2.0
// Must leave alone: every path unmaps; a function that hands the mapping
// to its caller; an unmap through another pointer into the page.
#include <linux/highmem.h>

int check_header(struct page *page)
{
	u32 *p = kmap_atomic(page, KM_USER0);

	if (p[0] != 0x12345678) {
		kunmap_atomic(p, KM_USER0);
		return -EINVAL;
	}
	kunmap_atomic(p, KM_USER0);
	return 0;
}

/* The caller unmaps, and restores interrupts (as bvec_kmap_irq()). */
char *map_segment(struct page *page, unsigned int offset, unsigned long *flags)
{
	char *addr;

	local_irq_save(*flags);
	addr = kmap_atomic(page, KM_IRQ1);
	return addr + offset;
}

int find_zero(struct page *page)
{
	u32 *p, *cur;
	int i = 0;

	p = kmap_atomic(page, KM_USER1);
	for (cur = p; *cur; cur++)
		i++;
	kunmap_atomic(cur, KM_USER1);
	return i;
}

/* The caller unmaps: the address, cast. */
void *map_at(struct page *page, unsigned int offset)
{
	char *addr = kmap_atomic(page, KM_USER0);

	return (void *)(addr + offset);
}

u32 *map_words(struct page *page)
{
	void *addr;

	addr = kmap_atomic(page, KM_USER1);
	return (u32 *)addr;
}

/* The caller unmaps: the address, with an offset, handed out by pointer. */
int map_out(struct page *page, unsigned int offset, char **out)
{
	char *addr = kmap_atomic(page, KM_USER0);

	*out = addr + offset;
	return 0;
}

int map_words_out(struct page *page, u32 **out)
{
	void *addr;

	addr = kmap_atomic(page, KM_USER1);
	*out = (u32 *)addr;
	return 0;
}

struct holder {
	char *buf;
};

/* Handed out through a field: the holder unmaps. */
int hand_out(struct page *page, unsigned int off, struct holder *h)
{
	char *addr = kmap_atomic(page, KM_USER1);

	h->buf = addr + off;
	return 0;
}

char *dev_last_buf;

/* Handed out through an array, a field of an element, a global, a cast. */
int hand_out_array(struct page *page, unsigned int off, char **bufs)
{
	char *addr = kmap_atomic(page, KM_USER1);

	bufs[1] = addr + off;
	return 0;
}

int hand_out_element(struct page *page, unsigned int off, struct holder *hs)
{
	char *addr = kmap_atomic(page, KM_USER1);

	hs[1].buf = addr + off;
	return 0;
}

int hand_out_global(struct page *page, unsigned int off)
{
	char *addr = kmap_atomic(page, KM_USER1);

	dev_last_buf = addr + off;
	return 0;
}

int hand_out_cast(struct page *page, struct holder *h)
{
	void *raw = kmap_atomic(page, KM_USER0);

	h->buf = (char *)raw;
	return 0;
}
