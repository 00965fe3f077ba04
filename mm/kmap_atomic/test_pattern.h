/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the KUnit suites of typed atomic kmaps: fill a page with words that
 * depend on a seed and on their place, and check it still holds them, so
 * that a mapping of the wrong page, or a write by another user, shows.
 */
#ifndef _MM_KMAP_ATOMIC_TEST_PATTERN_H
#define _MM_KMAP_ATOMIC_TEST_PATTERN_H

#include <linux/highmem.h>
#include <linux/uaccess.h>

#define WORDS (PAGE_SIZE / sizeof(u32))

/* Word @i of a page filled from @seed; the multiplier spreads the values. */
static inline u32 pattern(u32 seed, unsigned int i)
{
	return seed ^ (i * 2654435761u);
}

static inline void fill(u32 *p, u32 seed)
{
	unsigned int i;

	for (i = 0; i < WORDS; i++)
		p[i] = pattern(seed, i);
}

static inline bool holds(const u32 *p, u32 seed)
{
	unsigned int i;

	for (i = 0; i < WORDS; i++)
		if (p[i] != pattern(seed, i))
			return false;
	return true;
}

/* The same through a kmap_local_page() of @page, which every kernel has. */
static inline void fill_page(struct page *page, u32 seed)
{
	u32 *p = kmap_local_page(page);

	fill(p, seed);
	kunmap_local(p);
}

static inline bool page_holds(struct page *page, u32 seed)
{
	u32 *p = kmap_local_page(page);
	bool ok = holds(p, seed);

	kunmap_local(p);
	return ok;
}

/* Does reading @addr fault: an unmapped page, as after its unmap? */
static inline bool faults(const void *addr)
{
	u32 word;

	return copy_from_kernel_nofault(&word, addr, sizeof(word)) == -EFAULT;
}

#endif /* _MM_KMAP_ATOMIC_TEST_PATTERN_H */
