// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the bio kmap helpers of <linux/bio-kmap.h>: bios of
 * several segments with offsets and lengths of all sorts, over lowmem,
 * highmem and above-4 GiB pages, mapped by bvec, by iterator (whole, split
 * and cloned bios) and by 2.6's index into bi_io_vec, in task context and
 * in a real hard interrupt; a bvec that crosses a page, and an index past
 * bi_vcnt, are refused. Correct use draws no report.
 */
#include <kunit/test.h>
#include <linux/bio.h>
#include <linux/irq_work.h>

#include "kunit_pages.h"

/* The byte at @off of page @n of a chunk of @kind. */
static u8 byte_at(enum page_kind kind, unsigned int n, unsigned int off)
{
	return (kind * 131 + n * 31 + off * 7 + (off >> 8)) & 0xff;
}

static int bio_kmap_suite_init(struct kunit_suite *suite)
{
	enum page_kind kind;
	unsigned int n, off;
	int ret;

	ret = test_chunks_get(suite);
	if (ret)
		return ret;
	for (kind = 0; kind < PAGE_KIND_NR; kind++) {
		for (n = 0; chunks[kind] && n < KMAP_TEST_CHUNK_PAGES; n++) {
			u8 *p = kmap_local_page(test_page(kind, n));

			for (off = 0; off < PAGE_SIZE; off++)
				p[off] = byte_at(kind, n, off);
			kunmap_local(p);
		}
	}
	return 0;
}

/*
 * The segments: whole pages, pieces at odd offsets, a bvec whose bv_offset
 * lies in its second page, and one that runs across a page boundary, which
 * bio_iter_iovec() hands out as two single-page segments.
 */
static const struct { unsigned int page, offset, len; } segments[] = {
	{ 0, 0, PAGE_SIZE },
	{ 2, 512, 1024 },
	{ 3, 100, 3000 },
	{ 4, PAGE_SIZE - 96, 96 },
	{ 5, PAGE_SIZE + 200, 100 },
	{ 8, 3000, 2000 },
};

#define NR_SEGS ARRAY_SIZE(segments)

/* A bio over the segments of @kind; @mixed takes each from another kind. */
struct test_bio {
	struct bio bio;
	struct bio_vec vecs[NR_SEGS];
	enum page_kind kinds[NR_SEGS];
};

static struct test_bio *make_bio(struct kunit *test, enum page_kind kind, bool mixed)
{
	struct test_bio *tb = kunit_kzalloc(test, sizeof(*tb), GFP_KERNEL);
	unsigned int i, size = 0;

	KUNIT_ASSERT_NOT_NULL(test, tb);
	bio_init(&tb->bio, NULL, tb->vecs, NR_SEGS, REQ_OP_WRITE);
	for (i = 0; i < NR_SEGS; i++) {
		tb->kinds[i] = mixed ? i % PAGE_KIND_NR : kind;
		need_kind(test, tb->kinds[i]);
		tb->vecs[i].bv_page = test_page(tb->kinds[i], segments[i].page);
		tb->vecs[i].bv_offset = segments[i].offset;
		tb->vecs[i].bv_len = segments[i].len;
		size += segments[i].len;
	}
	tb->bio.bi_vcnt = NR_SEGS;
	tb->bio.bi_iter.bi_size = size;
	return tb;
}

/* Does @buf hold @len bytes of page @n of @kind from @off on? */
static bool bytes_ok(const u8 *buf, enum page_kind kind, unsigned int n,
		     unsigned int off, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		if (buf[i] != byte_at(kind, n + (off + i) / PAGE_SIZE, (off + i) % PAGE_SIZE))
			return false;
	return true;
}

struct kind_case {
	enum page_kind kind;
	bool mixed;
};

static const struct kind_case kind_cases[] = {
	{ LOWMEM }, { HIGHMEM_BELOW_4G }, { HIGHMEM_ABOVE_4G }, { .mixed = true },
};

static void kind_case_desc(const struct kind_case *c, char *desc)
{
	strscpy(desc, c->mixed ? "mixed lowmem, highmem and above-4G" : page_kind_names[c->kind],
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(kinds, kind_cases, kind_case_desc);

/* Which page of the test chunk, and which offset in it, an iterator is at. */
static void where(struct test_bio *tb, struct bvec_iter iter, unsigned int *seg,
		  unsigned int *page, unsigned int *off)
{
	struct bio_vec bv = mp_bvec_iter_bvec(tb->vecs, iter);
	unsigned int at = bv.bv_offset;

	*seg = iter.bi_idx;
	*page = segments[*seg].page + at / PAGE_SIZE;
	*off = at % PAGE_SIZE;
}

/*
 * __bio_kmap_atomic(bio, iter, type) on each segment from @start on: the
 * right data, the right page, never more than the mapped page.
 */
struct iter_walk {
	unsigned int segments, bytes, bad_data, bad_page, bad_offset;
	unsigned long reports;
};

static void walk_with_bio_kmap_atomic(struct test_bio *tb, struct bio *bio,
				      struct bvec_iter start, struct iter_walk *w)
{
	unsigned int seg, page, off;
	unsigned long reports = kmap_atomic_reports();
	struct bvec_iter iter;
	struct bio_vec bv;
	char *addr;

	__bio_for_each_segment(bv, bio, iter, start) {
		where(tb, iter, &seg, &page, &off);
		addr = __bio_kmap_atomic(bio, iter, KM_USER0);
		w->bad_data += !bytes_ok((u8 *)addr, tb->kinds[seg], page, off, bv.bv_len);
		/* The page and offset the test's own table gives, not the helper's. */
		w->bad_page += kmap_atomic_to_page(addr) != test_page(tb->kinds[seg], page);
		w->bad_offset += offset_in_page(addr) != off;
		__bio_kunmap_atomic(addr, KM_USER0);
		w->segments++;
		w->bytes += bv.bv_len;
	}
	w->reports = kmap_atomic_reports() - reports;
}

static void iter_walk_check(struct kunit *test, const struct iter_walk *w,
			    unsigned int segments, unsigned int bytes)
{
	KUNIT_EXPECT_EQ(test, w->segments, segments);
	KUNIT_EXPECT_EQ(test, w->bytes, bytes);
	KUNIT_EXPECT_EQ_MSG(test, w->bad_data, 0U, "segments with the wrong data");
	KUNIT_EXPECT_EQ_MSG(test, w->bad_page, 0U, "segments whose kmap_atomic_to_page() is wrong");
	KUNIT_EXPECT_EQ_MSG(test, w->bad_offset, 0U,
			    "segments mapped at another offset in their page than the bio's");
	KUNIT_EXPECT_EQ_MSG(test, w->reports, 0UL, "correct use drew a report");
	KUNIT_EXPECT_TRUE(test, preemptible());
}

/* Along the whole bio: seven single-page segments of the six bvecs. */
static void map_atomic_along_iter(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct test_bio *tb = make_bio(test, c->kind, c->mixed);
	struct iter_walk w = {};

	walk_with_bio_kmap_atomic(tb, &tb->bio, tb->bio.bi_iter, &w);
	iter_walk_check(test, &w, NR_SEGS + 1, tb->bio.bi_iter.bi_size);
}

/*
 * From inside the second bvec on, as a split or cloned bio sees it: its
 * iterator starts 5000 bytes in, 904 bytes into the second bvec.
 */
static void map_atomic_split_bio(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct test_bio *tb = make_bio(test, c->kind, c->mixed);
	struct bvec_iter start = tb->bio.bi_iter;
	struct iter_walk w = {};

	bio_advance_iter(&tb->bio, &start, 5000);
	KUNIT_ASSERT_EQ(test, start.bi_idx, 1U);
	walk_with_bio_kmap_atomic(tb, &tb->bio, start, &w);
	iter_walk_check(test, &w, NR_SEGS, tb->bio.bi_iter.bi_size - 5000);
}

/* A clone shares the bvecs; its own iterator, here 5000 bytes in, rules. */
static void map_atomic_cloned_bio(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct test_bio *tb = make_bio(test, c->kind, c->mixed);
	struct bio clone;
	struct iter_walk w = {};

	KUNIT_ASSERT_EQ(test, bio_init_clone(NULL, &clone, &tb->bio, GFP_KERNEL), 0);
	bio_advance(&clone, 5000);
	walk_with_bio_kmap_atomic(tb, &clone, clone.bi_iter, &w);
	bio_uninit(&clone);
	iter_walk_check(test, &w, NR_SEGS, tb->bio.bi_iter.bi_size - 5000);
}

/*
 * 2.6's form, as 2.6 drivers wrote it: an int index into bi_io_vec, in a
 * loop over bi_vcnt. Each maps the page of its bvec that holds bv_offset,
 * all bv_len bytes of it, with no report; the last bvec, which crosses a
 * page (6.1's bio_add_page() builds such bvecs, 2.6's never did), is
 * refused: NULL, a WARN, nothing mapped, and the unmap of NULL does nothing.
 */
struct index_walk {
	unsigned int segments, bytes, bad_data, bad_page, bad_offset, irqs_on_during;
	bool crossing_refused;
	int preempt_after;
	unsigned long reports;
};

static char *map_by_index(struct bio *bio, int i, bool irq, unsigned long *flags)
{
	return irq ? __bio_kmap_irq(bio, i, flags) : __bio_kmap_atomic(bio, i, KM_USER0);
}

static void walk_by_index(struct kunit *test, struct test_bio *tb, bool irq, struct index_walk *w)
{
	struct bio *bio = &tb->bio;
	unsigned long reports = kmap_atomic_reports();
	int preempt = preempt_count();
	unsigned int page, off;
	unsigned long flags;
	char *addr;
	int i;

	for (i = 0; i < bio->bi_vcnt - 1; i++) {
		page = segments[i].page + segments[i].offset / PAGE_SIZE;
		off = segments[i].offset % PAGE_SIZE;
		addr = map_by_index(bio, i, irq, &flags);
		w->irqs_on_during += irq && !irqs_disabled();
		w->bad_data += !addr || !bytes_ok((u8 *)addr, tb->kinds[i], page, off,
						  segments[i].len);
		w->bad_page += !addr || kmap_atomic_to_page(addr) != test_page(tb->kinds[i], page);
		w->bad_offset += !addr || offset_in_page(addr) != off;
		if (irq)
			bio_kunmap_irq(addr, &flags);
		else
			__bio_kunmap_atomic(addr, KM_USER0);
		w->segments++;
		w->bytes += addr ? segments[i].len : 0;
	}
	w->reports = kmap_atomic_reports() - reports;
	pr_info("KMAP-EXPECT-BEGIN a bio segment by index that crosses a page\n");
	addr = map_by_index(bio, i, irq, &flags);
	w->crossing_refused = !addr;
	if (irq)
		bio_kunmap_irq(addr, &flags);
	else
		__bio_kunmap_atomic(addr, KM_USER0);
	pr_info("KMAP-EXPECT-END a bio segment by index that crosses a page\n");
	w->preempt_after = preempt_count() - preempt;
	KUNIT_EXPECT_EQ(test, w->segments, (unsigned int)NR_SEGS - 1);
	KUNIT_EXPECT_EQ_MSG(test, w->bytes, 4096U + 1024 + 3000 + 96 + 100,
			    "bytes mapped by the segments that fit a page");
	KUNIT_EXPECT_EQ_MSG(test, w->bad_data, 0U, "segments with the wrong data");
	KUNIT_EXPECT_EQ_MSG(test, w->bad_page, 0U, "segments whose kmap_atomic_to_page() is wrong");
	KUNIT_EXPECT_EQ_MSG(test, w->bad_offset, 0U,
			    "segments mapped at another offset in their page than the bvec's");
	KUNIT_EXPECT_EQ_MSG(test, w->irqs_on_during, 0U, "__bio_kmap_irq() left interrupts on");
	KUNIT_EXPECT_EQ_MSG(test, w->reports, 0UL, "correct 2.6 code drew a report");
	KUNIT_EXPECT_TRUE_MSG(test, w->crossing_refused, "a bvec that crosses a page was mapped");
	KUNIT_EXPECT_EQ(test, w->preempt_after, 0);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_EQ_MSG(test, kmap_atomic_reports() - reports, 0UL,
			    "the refused map or its unmap of NULL drew a misuse report");
}

static void map_atomic_by_index(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct index_walk w = {};

	walk_by_index(test, make_bio(test, c->kind, c->mixed), false, &w);
}

static void map_irq_by_index(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct index_walk w = {};

	walk_by_index(test, make_bio(test, c->kind, c->mixed), true, &w);
}

/* An index past bi_vcnt maps nothing: NULL, and the counts as they were. */
static void map_index_past_end(struct kunit *test)
{
	struct test_bio *tb = make_bio(test, HIGHMEM_BELOW_4G, false);
	unsigned long reports = kmap_atomic_reports();
	int preempt = preempt_count();
	unsigned long flags;
	char *atomic, *irq;
	bool irqs_off;

	pr_info("KMAP-EXPECT-BEGIN a bio segment index past bi_vcnt\n");
	atomic = __bio_kmap_atomic(&tb->bio, tb->bio.bi_vcnt, KM_USER0);
	__bio_kunmap_atomic(atomic, KM_USER0);
	irq = __bio_kmap_irq(&tb->bio, -1, &flags);
	irqs_off = irqs_disabled();
	bio_kunmap_irq(irq, &flags);
	pr_info("KMAP-EXPECT-END a bio segment index past bi_vcnt\n");

	KUNIT_EXPECT_NULL(test, atomic);
	KUNIT_EXPECT_NULL(test, irq);
	KUNIT_EXPECT_TRUE_MSG(test, irqs_off,
			      "__bio_kmap_irq() saves and disables interrupts even when it refuses");
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	KUNIT_EXPECT_EQ(test, preempt_count(), preempt);
	KUNIT_EXPECT_EQ_MSG(test, kmap_atomic_reports() - reports, 0UL,
			    "the unmap of a refused map's NULL drew a misuse report");
}

/* What walking a bio with bio_kmap_irq() or bvec_kmap_irq() saw. */
struct walk {
	unsigned int segments, bytes, bad_data, irqs_on_during, irqs_wrong_after;
	bool irqs_before;
	unsigned long reports;
};

static void walk_check(struct kunit *test, const struct walk *w, bool in_irq)
{
	/* Seven single-page segments: the page-crossing bvec gives two. */
	KUNIT_EXPECT_EQ(test, w->segments, NR_SEGS + 1);
	KUNIT_EXPECT_EQ(test, w->bytes, 4096U + 1024 + 3000 + 96 + 100 + 2000);
	KUNIT_EXPECT_EQ_MSG(test, w->bad_data, 0U, "segments with the wrong data");
	KUNIT_EXPECT_EQ_MSG(test, w->irqs_on_during, 0U,
			    "segments mapped with interrupts on");
	KUNIT_EXPECT_EQ_MSG(test, w->irqs_wrong_after, 0U,
			    "unmaps that did not restore the interrupt state");
	KUNIT_EXPECT_EQ_MSG(test, w->irqs_before, in_irq,
			    "interrupts off before the walk");
	KUNIT_EXPECT_EQ_MSG(test, w->reports, 0UL, "correct use drew a report");
}

static void walk_with_bio_kmap_irq(struct test_bio *tb, struct walk *w)
{
	struct bio *bio = &tb->bio;
	unsigned long flags, reports = kmap_atomic_reports();
	unsigned int seg, page, off, len;
	char *buf;

	w->irqs_before = irqs_disabled();
	while (bio->bi_iter.bi_size) {
		len = bio_iter_len(bio, bio->bi_iter);
		where(tb, bio->bi_iter, &seg, &page, &off);
		buf = bio_kmap_irq(bio, &flags);
		w->irqs_on_during += !irqs_disabled();
		w->bad_data += !bytes_ok((u8 *)buf, tb->kinds[seg], page, off, len);
		bio_kunmap_irq(buf, &flags);
		w->irqs_wrong_after += irqs_disabled() != w->irqs_before;
		w->segments++;
		w->bytes += len;
		bio_advance(bio, len);
	}
	w->reports = kmap_atomic_reports() - reports;
}

/* bio_kmap_irq() along bi_iter, in task context. */
static void map_irq_along_iter(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct test_bio *tb = make_bio(test, c->kind, c->mixed);
	struct walk w = {};

	walk_with_bio_kmap_irq(tb, &w);
	walk_check(test, &w, false);
}

/* bvec_kmap_irq() on each segment bio_for_each_segment() gives. */
static void map_irq_each_bvec(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct test_bio *tb = make_bio(test, c->kind, c->mixed);
	unsigned int seg, page, off;
	struct bvec_iter iter;
	struct bio_vec bv;
	struct walk w = { .irqs_before = irqs_disabled() };
	unsigned long flags, reports = kmap_atomic_reports();
	char *buf;

	bio_for_each_segment(bv, &tb->bio, iter) {
		where(tb, iter, &seg, &page, &off);
		buf = bvec_kmap_irq(&bv, &flags);
		w.irqs_on_during += !irqs_disabled();
		w.bad_data += !bytes_ok((u8 *)buf, tb->kinds[seg], page, off, bv.bv_len);
		bvec_kunmap_irq(buf, &flags);
		w.irqs_wrong_after += irqs_disabled() != w.irqs_before;
		w.segments++;
		w.bytes += bv.bv_len;
	}
	w.reports = kmap_atomic_reports() - reports;
	walk_check(test, &w, false);
}

/* bio_kmap_irq() in a real hard interrupt (irq_work). */
struct irq_walk {
	struct irq_work work;
	struct test_bio *tb;
	struct walk w;
	bool in_hardirq, done;
};

static void irq_walk_fn(struct irq_work *work)
{
	struct irq_walk *iw = container_of(work, struct irq_walk, work);

	iw->in_hardirq = in_hardirq();
	walk_with_bio_kmap_irq(iw->tb, &iw->w);
	WRITE_ONCE(iw->done, true);
}

static void map_irq_in_hardirq(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct irq_walk *iw = kunit_kzalloc(test, sizeof(*iw), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, iw);
	iw->tb = make_bio(test, c->kind, c->mixed);
	/* HARD: PREEMPT_RT runs other irq_work in a thread. */
	iw->work = IRQ_WORK_INIT_HARD(irq_walk_fn);
	irq_work_queue(&iw->work);
	irq_work_sync(&iw->work);
	KUNIT_ASSERT_TRUE(test, READ_ONCE(iw->done));
	KUNIT_EXPECT_TRUE_MSG(test, iw->in_hardirq, "irq_work did not run in a hard interrupt");
	walk_check(test, &iw->w, true);
}

/*
 * A whole bvec whose bv_offset lies in its second page (the fifth: 100
 * bytes at PAGE_SIZE + 200), which bio_for_each_segment() never hands out.
 */
static void bvec_in_second_page(struct kunit *test, struct test_bio *tb)
{
	struct bio_vec *bv = &tb->vecs[4];
	unsigned long flags;
	bool ok;
	char *buf;

	buf = bvec_kmap_irq(bv, &flags);
	ok = buf && bytes_ok((u8 *)buf, tb->kinds[4], segments[4].page + 1, 200, bv->bv_len);
	bvec_kunmap_irq(buf, &flags);
	KUNIT_EXPECT_TRUE_MSG(test, ok, "bvec_kmap_irq() of a bvec at PAGE_SIZE + 200");
}

/*
 * A bvec that crosses a page (the last one: 2000 bytes from offset 3000)
 * is refused by bvec_kmap_irq(): NULL, nothing mapped, and the interrupt
 * state and preemption count back as they were after the unmap.
 */
static void map_irq_refuses_crossing_bvec(struct kunit *test)
{
	const struct kind_case *c = test->param_value;
	struct test_bio *tb = make_bio(test, c->kind, c->mixed);
	struct bio_vec *crossing = &tb->vecs[NR_SEGS - 1];
	int preempt = preempt_count();
	bool irqs_off_during, irqs_off_after;
	unsigned long flags;
	char *buf;

	KUNIT_ASSERT_GT(test, offset_in_page(crossing->bv_offset) + crossing->bv_len,
			(unsigned long)PAGE_SIZE);
	pr_info("KMAP-EXPECT-BEGIN bvec_kmap_irq of a bvec that crosses a page\n");
	buf = bvec_kmap_irq(crossing, &flags);
	irqs_off_during = irqs_disabled();
	bvec_kunmap_irq(buf, &flags);
	irqs_off_after = irqs_disabled();
	pr_info("KMAP-EXPECT-END bvec_kmap_irq of a bvec that crosses a page\n");

	KUNIT_EXPECT_NULL_MSG(test, buf, "a bvec that crosses a page was mapped");
	bvec_in_second_page(test, tb);
	KUNIT_EXPECT_TRUE(test, irqs_off_during);
	KUNIT_EXPECT_FALSE(test, irqs_off_after);
	KUNIT_EXPECT_EQ(test, preempt_count(), preempt);
}

static struct kunit_case bio_kmap_cases[] = {
	KUNIT_CASE_PARAM(map_atomic_along_iter, kinds_gen_params),
	KUNIT_CASE_PARAM(map_atomic_split_bio, kinds_gen_params),
	KUNIT_CASE_PARAM(map_atomic_cloned_bio, kinds_gen_params),
	KUNIT_CASE_PARAM(map_atomic_by_index, kinds_gen_params),
	KUNIT_CASE_PARAM(map_irq_by_index, kinds_gen_params),
	KUNIT_CASE(map_index_past_end),
	KUNIT_CASE_PARAM(map_irq_along_iter, kinds_gen_params),
	KUNIT_CASE_PARAM(map_irq_each_bvec, kinds_gen_params),
	KUNIT_CASE_PARAM(map_irq_in_hardirq, kinds_gen_params),
	KUNIT_CASE_PARAM(map_irq_refuses_crossing_bvec, kinds_gen_params),
	{}
};

static struct kunit_suite bio_kmap_suite = {
	.name = "bio_kmap",
	.suite_init = bio_kmap_suite_init,
	.suite_exit = test_chunks_put,
	.init = kmap_test_quiet_init,
	.exit = kmap_test_quiet_exit,
	.test_cases = bio_kmap_cases,
};

kunit_test_suite(bio_kmap_suite);

MODULE_DESCRIPTION("KUnit tests for the bio kmap helpers on typed atomic kmaps");
MODULE_LICENSE("GPL");
