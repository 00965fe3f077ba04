/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the KUnit suites of typed atomic kmaps: one physically contiguous
 * chunk of pages of each kind (lowmem, highmem below 4 GiB, highmem above)
 * this machine has, found once per suite. Each suite that includes this
 * has its own.
 */
#ifndef _MM_KMAP_ATOMIC_KUNIT_PAGES_H
#define _MM_KMAP_ATOMIC_KUNIT_PAGES_H

#include <kunit/test.h>

#include "test_pages.h"

static struct list_head chunk_list[PAGE_KIND_NR];
static struct page *chunks[PAGE_KIND_NR];

static struct page *test_page(enum page_kind kind, unsigned int n)
{
	return chunks[kind] + n % KMAP_TEST_CHUNK_PAGES;
}

/* One chunk of each kind this machine has, for the whole suite. */
static int test_chunks_get(struct kunit_suite *suite)
{
	unsigned int nr[PAGE_KIND_NR];
	enum page_kind kind;
	int ret;

	ret = kmap_test_chunks_get(chunk_list, nr, 1);
	if (ret)
		return ret;
	for (kind = 0; kind < PAGE_KIND_NR; kind++)
		chunks[kind] = list_first_entry_or_null(&chunk_list[kind], struct page, lru);
	return 0;
}

static void test_chunks_put(struct kunit_suite *suite)
{
	kmap_test_chunks_put(chunk_list);
	memset(chunks, 0, sizeof(chunks));
}

/*
 * Correct code draws no report: a suite of correct use checks, after each
 * case, that kmap_atomic_reports() did not move, unless the case said it
 * commits misuse (kmap_test_misuses()). Its .init and .exit.
 */
static unsigned long kmap_test_reports_before;
static bool kmap_test_misuse_expected;

static int __maybe_unused kmap_test_quiet_init(struct kunit *test)
{
	kmap_test_misuse_expected = false;
	kmap_test_reports_before = kmap_atomic_reports();
	return 0;
}

static void __maybe_unused kmap_test_misuses(void)
{
	kmap_test_misuse_expected = true;
}

static void __maybe_unused kmap_test_quiet_exit(struct kunit *test)
{
	if (!kmap_test_misuse_expected)
		KUNIT_EXPECT_EQ_MSG(test, kmap_atomic_reports(), kmap_test_reports_before,
				    "misuse reports during a case of correct code");
}

/*
 * Does this machine have pages of @kind? Highmem starts below 4 GiB; it
 * reaches above when the highmem zone ends there.
 */
static bool kind_exists(enum page_kind kind)
{
	struct page *high = chunks[HIGHMEM_BELOW_4G] ?: chunks[HIGHMEM_ABOVE_4G];

	if (kind == LOWMEM)
		return true;
	if (kind == HIGHMEM_BELOW_4G)
		return totalhigh_pages() != 0;
	return high && zone_end_pfn(page_zone(high)) > PHYS_PFN(SZ_4G);
}

/* Skip where the machine has no such page; fail where the finder missed it. */
static void need_kind(struct kunit *test, enum page_kind kind)
{
	if (chunks[kind])
		return;
	KUNIT_ASSERT_FALSE_MSG(test, kind_exists(kind),
			       "this machine has %s pages, but the bounded search found no free chunk of them (memory fragmented, or more highmem than it looks through)",
			       page_kind_names[kind]);
	kunit_skip(test, "no %s page in this machine (MEM=6G gives all three kinds)",
		   page_kind_names[kind]);
}

#endif /* _MM_KMAP_ATOMIC_KUNIT_PAGES_H */
