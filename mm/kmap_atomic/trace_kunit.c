// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the kmap_atomic trace events: each typed map and unmap,
 * lowmem or highmem, and each misuse the kernel reports fires its event
 * once, with the slot, the page frame, the address and the call site, in
 * the release kernel as in the debug one, where interrupts are as the
 * caller had them. The events are caught with probes of their own, as
 * perf or BPF would attach them, which run where the event records its
 * fields; the formatted records in /sys/kernel/tracing are the userspace
 * checks' part.
 *
 * brd, driven in a task, a tasklet, with interrupts off and in a hard
 * interrupt, is seen to map in the slot pair of each context.
 *
 * The reports the misuse cases provoke are bracketed on the console by
 * KMAP-EXPECT-BEGIN/END lines.
 */
#include <kunit/test.h>
#include <linux/blkdev.h>
#include <linux/file.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/kallsyms.h>
#include <linux/major.h>
#include <linux/tracepoint.h>
#include <linux/version.h>
#include <trace/events/kmap_atomic.h>

#include "kunit_pages.h"

enum event { EV_MAP, EV_UNMAP, EV_REPORT };
static const char * const event_names[] = { "map", "unmap", "report" };

struct record {
	enum event ev;
	unsigned int kind, type;
	unsigned long pfn, addr, caller;
	bool irqs_off;	/* what the event's irqs-off field says */
};

/*
 * The events of one case: the test's own task's, and an interrupt's that
 * comes in on it (the rest of the system maps too); the cases pick theirs
 * by caller.
 */
#define MAX_RECORDS	256
static struct record records[MAX_RECORDS];
static atomic_t nr_records;
static struct task_struct *tracee;

static void add(enum event ev, unsigned int kind, unsigned int type, unsigned long pfn,
		unsigned long addr, unsigned long caller)
{
	int i;

	if (current != tracee)
		return;
	i = atomic_inc_return(&nr_records) - 1;

	if (i < MAX_RECORDS)
		records[i] = (struct record){ ev, kind, type, pfn, addr, caller,
					      irqs_disabled() };
}

static void on_map(void *data, unsigned int type, unsigned long pfn, unsigned long addr,
		   unsigned long caller)
{
	add(EV_MAP, 0, type, pfn, addr, caller);
}

static void on_unmap(void *data, unsigned int type, unsigned long pfn, unsigned long addr,
		     unsigned long caller)
{
	add(EV_UNMAP, 0, type, pfn, addr, caller);
}

static void on_report(void *data, enum kmap_atomic_report kind, unsigned int type,
		      unsigned long pfn, unsigned long addr, unsigned long caller)
{
	add(EV_REPORT, kind, type, pfn, addr, caller);
}

static int probes_on(struct kunit *test)
{
	memset(records, 0, sizeof(records));
	atomic_set(&nr_records, 0);
	tracee = current;
	kmap_test_quiet_init(test);
	KUNIT_ASSERT_EQ(test, register_trace_kmap_atomic_map(on_map, NULL), 0);
	KUNIT_ASSERT_EQ(test, register_trace_kmap_atomic_unmap(on_unmap, NULL), 0);
	KUNIT_ASSERT_EQ(test, register_trace_kmap_atomic_report(on_report, NULL), 0);
	return 0;
}

static void probes_off(struct kunit *test)
{
	unregister_trace_kmap_atomic_report(on_report, NULL);
	unregister_trace_kmap_atomic_unmap(on_unmap, NULL);
	unregister_trace_kmap_atomic_map(on_map, NULL);
	tracepoint_synchronize_unregister();
	kmap_test_quiet_exit(test);
}

/*
 * Is @ip in function @fn, or in a part gcc split off (fn.cold, ...)? A
 * module's symbol is followed by " [module]"; strchr() finds the NUL
 * too, for the name alone.
 */
static bool in_function(unsigned long ip, const char *fn)
{
	char sym[KSYM_SYMBOL_LEN];
	size_t len = strlen(fn);

	sprint_symbol_no_offset(sym, ip);
	return !strncmp(sym, fn, len) && strchr(". ", sym[len]);
}

/*
 * The @nth of the @ev events whose call site is in function @fn, in the
 * order they fired; *@n is how many there were.
 */
static const struct record *find(struct kunit *test, enum event ev, const char *fn,
				 unsigned int nth, unsigned int *n)
{
	const struct record *found = NULL;
	int i, total = atomic_read(&nr_records);

	KUNIT_ASSERT_LE_MSG(test, total, MAX_RECORDS, "more events than the test keeps");
	*n = 0;
	for (i = 0; i < total; i++) {
		if (records[i].ev != ev || !in_function(records[i].caller, fn))
			continue;
		if (*n == nth)
			found = &records[i];
		(*n)++;
	}
	return found;
}

/* For a failure: every event caught, with its call site. */
static void dump_records(struct kunit *test)
{
	int i, total = min(atomic_read(&nr_records), MAX_RECORDS);

	for (i = 0; i < total; i++)
		kunit_info(test, "event %d: %s kind %u slot %u pfn %#lx addr %#lx irqs %s caller %pS\n",
			   i, event_names[records[i].ev], records[i].kind, records[i].type,
			   records[i].pfn, records[i].addr, records[i].irqs_off ? "off" : "on",
			   (void *)records[i].caller);
}

static void expect_event(struct kunit *test, const struct record *r, unsigned int type,
			 unsigned long pfn, const void *addr, bool irqs_off, const char *what)
{
	if (!r)
		dump_records(test);
	KUNIT_ASSERT_NOT_NULL_MSG(test, r, "no %s event", what);
	KUNIT_EXPECT_EQ_MSG(test, r->type, type, "the slot of the %s event", what);
	KUNIT_EXPECT_EQ_MSG(test, r->pfn, pfn, "the page frame of the %s event", what);
	KUNIT_EXPECT_EQ_MSG(test, r->addr, (unsigned long)addr & PAGE_MASK,
			    "the address of the %s event", what);
	KUNIT_EXPECT_EQ_MSG(test, r->irqs_off, irqs_off,
			    "interrupts off at the %s event: the caller's state", what);
}

/* One report event from function @fn, of @kind, @type, @pfn and @addr. */
static void expect_report(struct kunit *test, const char *fn, enum kmap_atomic_report kind,
			  unsigned int type, unsigned long pfn, const void *addr)
{
	unsigned int n;
	const struct record *r = find(test, EV_REPORT, fn, 0, &n);

	KUNIT_EXPECT_EQ_MSG(test, n, 1, "report events of one misuse");
	if (!r)
		dump_records(test);
	KUNIT_ASSERT_NOT_NULL_MSG(test, r, "no report event");
	KUNIT_EXPECT_EQ_MSG(test, r->kind, kind, "the report's kind");
	KUNIT_EXPECT_EQ_MSG(test, r->type, type, "the report's slot");
	KUNIT_EXPECT_EQ_MSG(test, r->pfn, pfn, "the report's page frame");
	KUNIT_EXPECT_EQ_MSG(test, r->addr, (unsigned long)addr, "the report's address");
}

struct trace_case {
	enum page_kind kind;
	unsigned int type;
	bool irqs_off;
	const char *desc;
};

static const struct trace_case trace_cases[] = {
	{ LOWMEM, KM_USER0, false, "lowmem page, KM_USER0" },
	{ HIGHMEM_BELOW_4G, KM_USER0, false, "highmem page, KM_USER0" },
	{ HIGHMEM_ABOVE_4G, KM_USER1, false, "page above 4 GiB, KM_USER1" },
	{ HIGHMEM_BELOW_4G, KM_IRQ0, true, "highmem page, KM_IRQ0, interrupts off" },
};

static void trace_case_desc(const struct trace_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(trace_case, trace_cases, trace_case_desc);

/* One typed pair, interrupts off if @c says so: the events' call site. */
static noinline void *map_and_unmap(const struct trace_case *c, struct page *page)
{
	unsigned long flags = 0;
	void *addr;

	if (c->irqs_off)
		local_irq_save(flags);
	addr = kmap_atomic(page, c->type);
	kunmap_atomic(addr, c->type);
	if (c->irqs_off)
		local_irq_restore(flags);
	return addr;
}

/* One map and one unmap event each, with their call site. */
static void map_and_unmap_are_traced(struct kunit *test)
{
	const struct trace_case *c = test->param_value;
	const struct record *map, *unmap;
	unsigned int maps, unmaps, reports;
	struct page *page;
	void *addr;

	need_kind(test, c->kind);
	page = test_page(c->kind, 0);
	addr = map_and_unmap(c, page);

	map = find(test, EV_MAP, "map_and_unmap", 0, &maps);
	unmap = find(test, EV_UNMAP, "map_and_unmap", 0, &unmaps);
	find(test, EV_REPORT, "map_and_unmap", 0, &reports);
	KUNIT_EXPECT_EQ_MSG(test, maps, 1, "map events of one kmap_atomic()");
	KUNIT_EXPECT_EQ_MSG(test, unmaps, 1, "unmap events of one kunmap_atomic()");
	KUNIT_EXPECT_EQ_MSG(test, reports, 0, "report events of correct code");
	expect_event(test, map, c->type, page_to_pfn(page), addr, c->irqs_off, "map");
	expect_event(test, unmap, c->type, page_to_pfn(page), addr, c->irqs_off, "unmap");
}

/* A collision: a report, and the spare's map and unmap, traced. */
static void collision_is_traced(struct kunit *test)
{
	struct page *a, *b;
	unsigned int n;
	void *pa, *pb;

	need_kind(test, HIGHMEM_BELOW_4G);
	a = test_page(HIGHMEM_BELOW_4G, 0);
	b = test_page(HIGHMEM_BELOW_4G, 1);
	kmap_test_misuses();
	pr_info("KMAP-EXPECT-BEGIN trace collision\n");
	pa = kmap_atomic(a, KM_USER0);
	pb = kmap_atomic(b, KM_USER0);
	kunmap_atomic(pb, KM_USER0);
	kunmap_atomic(pa, KM_USER0);
	pr_info("KMAP-EXPECT-END trace collision\n");

	expect_report(test, __func__, KMAP_REPORT_COLLISION, KM_USER0, page_to_pfn(b), NULL);

	expect_event(test, find(test, EV_MAP, __func__, 0, &n), KM_USER0, page_to_pfn(a),
		     pa, false, "first map");
	expect_event(test, find(test, EV_MAP, __func__, 1, &n), KM_USER0, page_to_pfn(b),
		     pb, false, "second map, in a spare");
	KUNIT_EXPECT_EQ_MSG(test, n, 2, "map events");
	expect_event(test, find(test, EV_UNMAP, __func__, 0, &n), KM_USER0, page_to_pfn(b),
		     pb, false, "spare's unmap");
	expect_event(test, find(test, EV_UNMAP, __func__, 1, &n), KM_USER0, page_to_pfn(a),
		     pa, false, "slot's unmap");
	KUNIT_EXPECT_EQ_MSG(test, n, 2, "unmap events");
}

/*
 * An unmap with the wrong type of a map's own address: the map is
 * released (its unmap event, with the type passed) and reported.
 */
static void wrong_unmap_is_traced(struct kunit *test)
{
	struct page *page;
	unsigned int n;
	void *addr;

	need_kind(test, HIGHMEM_BELOW_4G);
	page = test_page(HIGHMEM_BELOW_4G, 0);
	kmap_test_misuses();
	pr_info("KMAP-EXPECT-BEGIN trace wrong unmap\n");
	addr = kmap_atomic(page, KM_USER0);
	kunmap_atomic(addr, KM_USER1);
	pr_info("KMAP-EXPECT-END trace wrong unmap\n");

	expect_report(test, __func__, KMAP_REPORT_WRONG_ADDRESS, KM_USER1, page_to_pfn(page), addr);
	expect_event(test, find(test, EV_UNMAP, __func__, 0, &n), KM_USER1, page_to_pfn(page),
		     addr, false, "the wrong type's unmap");
	KUNIT_EXPECT_EQ_MSG(test, n, 1, "unmap events");
}

/*
 * More collisions than a task's spares: the slot, the spares, then NULL;
 * each map and unmap traced with its page and address, released last in
 * first out. Each collision given a spare is reported, and the NULL as no
 * spare left.
 */
#define FALLBACK_MAPS	(1 + KM_SPARE_SLOTS - KM_NMI_SPARES + 1)

/* How many report events of @kind came from function @fn. */
static unsigned int reports_of(struct kunit *test, const char *fn,
			       enum kmap_atomic_report kind)
{
	unsigned int i, n, total;
	const struct record *r;

	find(test, EV_REPORT, fn, 0, &total);
	for (i = 0, n = 0; i < total; i++) {
		r = find(test, EV_REPORT, fn, i, &total);
		n += r->kind == kind;
	}
	return n;
}

static void spares_exhausted_is_traced(struct kunit *test)
{
	struct page *pages[FALLBACK_MAPS];
	void *p[FALLBACK_MAPS];
	unsigned int i, maps, unmaps, reports;

	need_kind(test, HIGHMEM_BELOW_4G);
	for (i = 0; i < FALLBACK_MAPS; i++)
		pages[i] = test_page(HIGHMEM_BELOW_4G, i);
	kmap_test_misuses();
	pr_info("KMAP-EXPECT-BEGIN trace spares exhausted\n");
	for (i = 0; i < FALLBACK_MAPS; i++)
		p[i] = kmap_atomic(pages[i], KM_USER0);
	for (i = FALLBACK_MAPS - 1; i-- > 0;)
		kunmap_atomic(p[i], KM_USER0);
	pr_info("KMAP-EXPECT-END trace spares exhausted\n");

	KUNIT_EXPECT_NULL_MSG(test, p[FALLBACK_MAPS - 1], "the map past the last spare");
	for (i = 0; i < FALLBACK_MAPS - 1; i++) {
		expect_event(test, find(test, EV_MAP, __func__, i, &maps), KM_USER0,
			     page_to_pfn(pages[i]), p[i], false, "map");
		expect_event(test, find(test, EV_UNMAP, __func__, FALLBACK_MAPS - 2 - i, &unmaps),
			     KM_USER0, page_to_pfn(pages[i]), p[i], false, "unmap");
	}
	KUNIT_EXPECT_EQ_MSG(test, maps, FALLBACK_MAPS - 1, "map events");
	KUNIT_EXPECT_EQ_MSG(test, unmaps, FALLBACK_MAPS - 1, "unmap events");
	KUNIT_EXPECT_EQ_MSG(test, reports_of(test, __func__, KMAP_REPORT_COLLISION),
			    FALLBACK_MAPS - 2, "collision report events");
	KUNIT_EXPECT_EQ_MSG(test, reports_of(test, __func__, KMAP_REPORT_NO_SPARE), 1,
			    "no-spare report events");
	find(test, EV_REPORT, __func__, 0, &reports);
	KUNIT_EXPECT_EQ_MSG(test, reports, FALLBACK_MAPS - 1, "report events");
}

/*
 * brd in each context it can be driven from: a write and a read back of
 * two highmem pages, one sector into the device's last pages, so that each
 * bvec spans two of brd's store pages. submit_bio() may sleep; the case
 * calls brd's ->submit_bio itself, as the block layer would, with the
 * device held open. brd allocates store pages only where it may sleep: the
 * task first reads what the disk holds there and writes it back, which
 * allocates them, and writes it back again at the end.
 */
enum brd_where { BRD_TASK, BRD_TASKLET, BRD_IRQS_OFF, BRD_HARDIRQ };

static const struct brd_case {
	enum brd_where where;
	enum km_type bio_slot, store_slot;
	bool irqs_off;
	const char *desc;
} brd_cases[] = {
	{ BRD_TASK, KM_USER0, KM_USER1, false, "task: KM_USER0, KM_USER1" },
	{ BRD_TASKLET, KM_SOFTIRQ0, KM_SOFTIRQ1, false, "tasklet: KM_SOFTIRQ0, KM_SOFTIRQ1" },
	{ BRD_IRQS_OFF, KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ, true,
	  "interrupts off: KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ" },
	{ BRD_HARDIRQ, KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ, true,
	  "hard interrupt: KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ" },
};

static void brd_case_desc(const struct brd_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(brd_case, brd_cases, brd_case_desc);

#define BRD_PAGES	2

struct brd_run {
	struct block_device *bdev;
	struct file *bdev_file;		/* 6.9 on: the open bdev is a file */
	sector_t sector;
	struct page *src[BRD_PAGES], *dst[BRD_PAGES], *saved[BRD_PAGES];
	struct bio bio;
	struct bio_vec vecs[BRD_PAGES];
	int ended;			/* bios that completed */
	blk_status_t status;		/* the first error, if any */
	struct tasklet_struct tasklet;
	struct hrtimer timer;
	struct completion done;
};

static void brd_end_io(struct bio *bio)
{
	struct brd_run *r = container_of(bio, struct brd_run, bio);

	r->status = r->status ?: bio->bi_status;
	r->ended++;
}

/* One bio of @op over @pages, handed to brd directly. */
static void brd_io(struct brd_run *r, enum req_op op, struct page **pages)
{
	unsigned int i;

	bio_init(&r->bio, r->bdev, r->vecs, BRD_PAGES, op);
	r->bio.bi_iter.bi_sector = r->sector;
	r->bio.bi_end_io = brd_end_io;
	for (i = 0; i < BRD_PAGES; i++)
		__bio_add_page(&r->bio, pages[i], PAGE_SIZE, 0);
	r->bdev->bd_disk->fops->submit_bio(&r->bio);
}

/* The write and the read back, traced whatever task runs them. */
static void brd_write_read(struct brd_run *r)
{
	WRITE_ONCE(tracee, current);
	brd_io(r, REQ_OP_WRITE, r->src);
	brd_io(r, REQ_OP_READ, r->dst);
	WRITE_ONCE(tracee, NULL);
}

static void brd_tasklet(struct tasklet_struct *t)
{
	struct brd_run *r = from_tasklet(r, t, tasklet);

	brd_write_read(r);
	complete(&r->done);
}

static enum hrtimer_restart brd_hrtimer(struct hrtimer *t)
{
	struct brd_run *r = container_of(t, struct brd_run, timer);

	brd_write_read(r);
	complete(&r->done);
	return HRTIMER_NORESTART;
}

static void brd_run_in(struct brd_run *r, enum brd_where where)
{
	unsigned long flags;

	init_completion(&r->done);
	switch (where) {
	case BRD_TASK:
		brd_write_read(r);
		break;
	case BRD_IRQS_OFF:
		local_irq_save(flags);
		brd_write_read(r);
		local_irq_restore(flags);
		break;
	case BRD_TASKLET:
		tasklet_setup(&r->tasklet, brd_tasklet);
		tasklet_schedule(&r->tasklet);
		wait_for_completion(&r->done);
		tasklet_kill(&r->tasklet);
		break;
	case BRD_HARDIRQ:
		hrtimer_init(&r->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		r->timer.function = brd_hrtimer;
		hrtimer_start(&r->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_HARD);
		wait_for_completion(&r->done);
		hrtimer_cancel(&r->timer);
		break;
	}
}

/* Is @ip in brd's code? Its map and unmap events are the case's. */
static bool in_brd(unsigned long ip)
{
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(sym, ip);
	return strstr(sym, "brd");
}

static bool pages_equal(struct page *a, struct page *b)
{
	void *pa = kmap_local_page(a), *pb = kmap_local_page(b);
	bool same = !memcmp(pa, pb, PAGE_SIZE);

	kunmap_local(pb);
	kunmap_local(pa);
	return same;
}

static bool is_bio_page(const struct brd_run *r, unsigned long pfn)
{
	unsigned int i;

	for (i = 0; i < BRD_PAGES; i++)
		if (page_to_pfn(r->src[i]) == pfn || page_to_pfn(r->dst[i]) == pfn)
			return true;
	return false;
}

/*
 * Each of brd's map and unmap events is in the context's pair: the bio's
 * page in the first slot, the store page in the second. Per bvec brd maps
 * the bio's page once and, the bvec spanning two store pages, the store
 * twice.
 */
static void brd_check_events(struct kunit *test, const struct brd_case *c,
			     const struct brd_run *r)
{
	unsigned int n[2][2] = {}, bvecs = 2 * BRD_PAGES;
	int i, total = atomic_read(&nr_records);
	bool ok = true;

	KUNIT_ASSERT_LE_MSG(test, total, MAX_RECORDS, "more events than the test keeps");
	for (i = 0; i < total; i++) {
		const struct record *e = &records[i];
		bool bio_page = is_bio_page(r, e->pfn);

		if (e->ev == EV_REPORT || !in_brd(e->caller))
			continue;
		n[e->ev][bio_page]++;
		ok &= e->type == (bio_page ? c->bio_slot : c->store_slot);
		ok &= e->irqs_off == c->irqs_off;
	}
	if (!ok)
		dump_records(test);
	KUNIT_EXPECT_TRUE_MSG(test, ok,
			      "brd mapped outside the slot pair %u/%u of its context, or with interrupts %s",
			      c->bio_slot, c->store_slot, c->irqs_off ? "on" : "off");
	KUNIT_EXPECT_EQ_MSG(test, n[EV_MAP][true], bvecs, "maps of the bio's pages");
	KUNIT_EXPECT_EQ_MSG(test, n[EV_UNMAP][true], bvecs, "unmaps of the bio's pages");
	KUNIT_EXPECT_EQ_MSG(test, n[EV_MAP][false], 2 * bvecs, "maps of brd's store pages");
	KUNIT_EXPECT_EQ_MSG(test, n[EV_UNMAP][false], 2 * bvecs, "unmaps of brd's store pages");
}

/* brd's /dev/ram1, opened for I/O: since 6.9 an open block device is a file. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
static struct block_device *brd_open(struct brd_run *r)
{
	r->bdev_file = bdev_file_open_by_dev(MKDEV(RAMDISK_MAJOR, 1),
					     BLK_OPEN_READ | BLK_OPEN_WRITE, NULL, NULL);
	return IS_ERR(r->bdev_file) ? ERR_CAST(r->bdev_file) : file_bdev(r->bdev_file);
}

static void brd_close(struct brd_run *r)
{
	fput(r->bdev_file);
}
#else
static struct block_device *brd_open(struct brd_run *r)
{
	return blkdev_get_by_dev(MKDEV(RAMDISK_MAJOR, 1), FMODE_READ | FMODE_WRITE, NULL);
}

static void brd_close(struct brd_run *r)
{
	blkdev_put(r->bdev, FMODE_READ | FMODE_WRITE);
}
#endif

static void brd_maps_in_its_context_pair(struct kunit *test)
{
	const struct brd_case *c = test->param_value;
	struct brd_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	if (!IS_ENABLED(CONFIG_BLK_DEV_RAM))
		kunit_skip(test, "no brd (CONFIG_BLK_DEV_RAM) in this kernel");
	need_kind(test, HIGHMEM_BELOW_4G);
	r->bdev = brd_open(r);
	if (IS_ERR(r->bdev))
		kunit_skip(test, "brd's /dev/ram1 did not open (%ld): brd.rd_nr=2 gives it",
			   PTR_ERR(r->bdev));
	r->sector = bdev_nr_sectors(r->bdev) - ((BRD_PAGES + 1) << (PAGE_SHIFT - SECTOR_SHIFT)) + 1;
	for (i = 0; i < BRD_PAGES; i++) {
		r->src[i] = test_page(HIGHMEM_BELOW_4G, i);
		r->dst[i] = test_page(HIGHMEM_BELOW_4G, BRD_PAGES + i);
		r->saved[i] = test_page(HIGHMEM_BELOW_4G, 2 * BRD_PAGES + i);
		memset_page(r->src[i], 0, 0x5a ^ i ^ c->where, PAGE_SIZE);
		memset_page(r->dst[i], 0, 0, PAGE_SIZE);
	}
	/* In task context: what the disk held, written back to allocate its store. */
	brd_io(r, REQ_OP_READ, r->saved);
	brd_io(r, REQ_OP_WRITE, r->saved);
	KUNIT_ASSERT_EQ_MSG(test, r->ended, 2, "the task's bios completed");
	r->ended = 0;
	atomic_set(&nr_records, 0);

	brd_run_in(r, c->where);

	KUNIT_EXPECT_EQ_MSG(test, r->ended, 2, "bios completed");
	KUNIT_EXPECT_EQ_MSG(test, r->status, BLK_STS_OK, "bio status");
	for (i = 0; i < BRD_PAGES; i++)
		KUNIT_EXPECT_TRUE_MSG(test, pages_equal(r->src[i], r->dst[i]),
				      "page %u read back as written", i);
	brd_check_events(test, c, r);
	brd_io(r, REQ_OP_WRITE, r->saved);
	brd_close(r);
}

static struct kunit_case kmap_atomic_trace_cases[] = {
	KUNIT_CASE_PARAM(map_and_unmap_are_traced, trace_case_gen_params),
	KUNIT_CASE(collision_is_traced),
	KUNIT_CASE(wrong_unmap_is_traced),
	KUNIT_CASE(spares_exhausted_is_traced),
	KUNIT_CASE_PARAM(brd_maps_in_its_context_pair, brd_case_gen_params),
	{}
};

static struct kunit_suite kmap_atomic_trace_suite = {
	.name = "kmap_atomic_trace",
	.suite_init = test_chunks_get,
	.suite_exit = test_chunks_put,
	.init = probes_on,
	.exit = probes_off,
	.test_cases = kmap_atomic_trace_cases,
};

kunit_test_suite(kmap_atomic_trace_suite);

MODULE_DESCRIPTION("KUnit tests for the kmap_atomic trace events");
MODULE_LICENSE("GPL");
