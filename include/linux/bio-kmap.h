/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mapping a bio's pages with the typed atomic kmaps: KM_BIO_SRC_IRQ with
 * local interrupts off, or a slot of the caller's choosing. Included by
 * <linux/bio.h>.
 *
 * Each mapping covers one page and never hands out more: the single-page
 * segment at an iterator, as bio_iter_iovec() gives it, or a bvec that
 * fits in one page (one that does not is refused).
 */
#ifndef _LINUX_BIO_KMAP_H
#define _LINUX_BIO_KMAP_H

#include <linux/bvec.h>
#include <linux/highmem.h>
#include <linux/irqflags.h>

/**
 * bvec_kmap_irq - map a bvec's page with interrupts off
 * @bvec: the bvec; the page holding bv_offset is mapped
 * @flags: where to save the interrupt state, for bvec_kunmap_irq()
 *
 * Saves and disables local interrupts, then maps the page in this CPU's
 * KM_BIO_SRC_IRQ slot, which every _irq helper uses: one at a time per
 * CPU. Usable from any context, hard interrupts included.
 *
 * The mapping is one page. A bvec from bio_for_each_segment() always fits
 * in it; one from bio_for_each_bvec() or bi_io_vec[] (a multi-page bvec)
 * may not, and one whose bv_offset + bv_len crosses a page boundary is
 * refused: that is reported (WARN, once per file that calls this) and
 * NULL returned, with nothing mapped. Split such a bvec with
 * bio_for_each_segment().
 *
 * Return: the address of the data at bv_offset, for bv_len bytes; NULL
 * for a bvec that crosses a page.
 */
static __always_inline char *bvec_kmap_irq(struct bio_vec *bvec, unsigned long *flags)
{
	unsigned int offset = offset_in_page(bvec->bv_offset);
	char *buf;

	local_irq_save(*flags);
	if (WARN_ONCE(bvec->bv_len > PAGE_SIZE - offset,
		      "%s: %pS maps a bvec of %u bytes at offset %u, which crosses a page: refused (map it by bio_for_each_segment())\n",
		      __func__, (void *)_THIS_IP_, bvec->bv_len, offset))
		return NULL;
	buf = kmap_atomic(bvec->bv_page + bvec->bv_offset / PAGE_SIZE, KM_BIO_SRC_IRQ);
	if (!buf)	/* only in an NMI that finds every spare in use */
		return NULL;
	return buf + offset;
}

/**
 * bvec_kunmap_irq - undo bvec_kmap_irq()
 * @buffer: the address bvec_kmap_irq() returned (NULL too), or any inside
 *	its page
 * @flags: the interrupt state bvec_kmap_irq() saved
 */
static __always_inline void bvec_kunmap_irq(char *buffer, unsigned long *flags)
{
	if (buffer)
		kunmap_atomic(buffer, KM_BIO_SRC_IRQ);
	local_irq_restore(*flags);
}

/**
 * bio_kmap_irq - map the current segment of a bio with interrupts off
 * @bio: the bio; its segment at bi_iter is mapped
 * @flags: where to save the interrupt state, for bio_kunmap_irq()
 *
 * The segment is the single-page one bio_iter_iovec() gives: its length is
 * bio_iter_len(bio, bio->bi_iter), never past the mapped page. Cloned and
 * split bios work: the segment is found from bi_iter. See bvec_kmap_irq().
 *
 * Return: the address of the segment's data.
 */
static __always_inline char *bio_kmap_irq(struct bio *bio, unsigned long *flags)
{
	struct bio_vec bv = bio_iter_iovec(bio, bio->bi_iter);

	return bvec_kmap_irq(&bv, flags);
}

/**
 * bio_kunmap_irq - undo bio_kmap_irq()
 * @buffer: the address bio_kmap_irq() returned, or any inside its page
 * @flags: the interrupt state bio_kmap_irq() saved
 */
static __always_inline void bio_kunmap_irq(char *buffer, unsigned long *flags)
{
	bvec_kunmap_irq(buffer, flags);
}

/*
 * The segment bi_io_vec[@idx], 2.6's bio_iovec_idx(), as a bvec in one
 * page: the page that holds its bv_offset (2.6's bvecs were one page; a
 * bvec may span pages since 5.1). One whose data runs past that page, or
 * an index past bi_vcnt, is reported (WARN once per file that maps by
 * index) and gives a bvec with no page, which
 * the callers below refuse: 2.6 code takes the length from bv_len and
 * would run past a one-page mapping.
 */
static __always_inline struct bio_vec __bio_kmap_idx_segment(struct bio *bio, u64 idx)
{
	struct bio_vec bv = {};

	if (WARN_ONCE(idx >= bio->bi_vcnt,
		      "bio_kmap: %pS maps segment %llu of a bio of %u: refused, NULL returned\n",
		      (void *)_THIS_IP_, idx, bio->bi_vcnt))
		return bv;
	bv = bio->bi_io_vec[idx];
	bv.bv_page += bv.bv_offset / PAGE_SIZE;
	bv.bv_offset = offset_in_page(bv.bv_offset);
	if (WARN_ONCE(bv.bv_len > PAGE_SIZE - bv.bv_offset,
		      "bio_kmap: %pS maps segment %llu, %u bytes at offset %u, which crosses a page: refused, NULL returned (map it by bio_for_each_segment())\n",
		      (void *)_THIS_IP_, idx, bv.bv_len, bv.bv_offset))
		bv.bv_page = NULL;
	return bv;
}

static __always_inline struct bio_vec __bio_kmap_iter_segment(struct bio *bio,
							      struct bvec_iter iter)
{
	return bio_iter_iovec(bio, iter);
}

struct bio_vec __bio_kmap_bad_where(struct bio *bio, ...)
	__compiletime_error("give an int index (2.6's form) or a struct bvec_iter");

/*
 * The segment @where names: an integer is 2.6's index into bi_io_vec, a
 * struct bvec_iter today's iterator; chosen by its type at compile time.
 * _Generic does not evaluate @where: it is evaluated once, in the call.
 */
#define __bio_kmap_segment(bio, where)					\
	_Generic((where),						\
		struct bvec_iter : __bio_kmap_iter_segment,		\
		char : __bio_kmap_idx_segment,				\
		signed char : __bio_kmap_idx_segment,			\
		unsigned char : __bio_kmap_idx_segment,			\
		short : __bio_kmap_idx_segment,				\
		unsigned short : __bio_kmap_idx_segment,		\
		int : __bio_kmap_idx_segment,				\
		unsigned int : __bio_kmap_idx_segment,			\
		long : __bio_kmap_idx_segment,				\
		unsigned long : __bio_kmap_idx_segment,			\
		long long : __bio_kmap_idx_segment,			\
		unsigned long long : __bio_kmap_idx_segment,		\
		default :						\
			__bio_kmap_bad_where)((bio), (where))

/**
 * __bio_kmap_atomic - map one segment of a bio in a slot of the caller's
 * @bio: the bio
 * @where: which segment: 2.6's int index into bi_io_vec, or a struct
 *	bvec_iter into the bio, as 6.1's bio_for_each_segment() gives
 * @type: the slot, for the context the caller is in
 *
 * Both of 2.6's callers' loops compile as they are: ``for (i = 0; i <
 * bio->bi_vcnt; i++) __bio_kmap_atomic(bio, i, KM_USER0)``, and today's
 * ``bio_for_each_segment(bv, bio, iter) __bio_kmap_atomic(bio, iter,
 * KM_USER0)``, which also works for cloned and split bios. Either way one
 * page is mapped and no more is handed out: an index maps the page of
 * bi_io_vec[@where] that holds its bv_offset, all bv_len bytes of it (2.6's
 * bvecs never crossed a page; one that does, which 6.1's bio_add_page()
 * may build, is refused); an iterator maps the single-page segment
 * bio_iter_iovec() gives, bio_iter_len() bytes. Any other type of @where
 * does not compile. Preemption and page faults are off until
 * __bio_kunmap_atomic().
 *
 * Return: the address of the segment's data; NULL, with a report (WARN
 * once per call site), for an index past bi_vcnt or a bvec that crosses a
 * page (WARN once per file that calls this), or where kmap_atomic() gives
 * NULL (an NMI with every spare in use): nothing is mapped then, and
 * __bio_kunmap_atomic(NULL, type) does nothing. The index form counts from
 * bi_io_vec[0] as 2.6 did, whatever bi_iter says: a split or cloned bio
 * (whose bi_vcnt is 0) is walked by its iterator instead.
 */
#define __bio_kmap_atomic(bio, where, type)				\
({									\
	struct bio_vec __bv = __bio_kmap_segment(bio, where);		\
	char *__p = __bv.bv_page ? kmap_atomic(__bv.bv_page, type) : NULL; \
									\
	__p ? __p + __bv.bv_offset : NULL;				\
})

/**
 * __bio_kmap_irq - map one segment of a bio with interrupts off
 * @bio: the bio
 * @where: which segment, as for __bio_kmap_atomic(): 2.6's int index, or a
 *	struct bvec_iter
 * @flags: where to save the interrupt state, for bio_kunmap_irq()
 *
 * 2.6's __bio_kmap_irq(bio, idx, flags): bvec_kmap_irq() of that segment's
 * page, in KM_BIO_SRC_IRQ.
 *
 * Return: the address of the segment's data; NULL, as __bio_kmap_atomic()
 * refuses, with interrupts saved and off all the same, for bio_kunmap_irq().
 */
#define __bio_kmap_irq(bio, where, flags)				\
({									\
	struct bio_vec __bv = __bio_kmap_segment(bio, where);		\
	unsigned long *__flags = (flags);				\
	char *__buf = NULL;						\
									\
	if (__bv.bv_page)						\
		__buf = bvec_kmap_irq(&__bv, __flags);			\
	else								\
		local_irq_save(*__flags);				\
	__buf;								\
})

/**
 * __bio_kunmap_atomic - undo __bio_kmap_atomic()
 * @addr: the address __bio_kmap_atomic() returned, or any inside its page;
 *	NULL (a refused map) does nothing
 * @type: the slot it was mapped in
 */
#define __bio_kunmap_atomic(addr, type)					\
do {									\
	typeof(addr) __addr = (addr);					\
									\
	if (__addr)							\
		kunmap_atomic(__addr, type);				\
} while (0)

#endif /* _LINUX_BIO_KMAP_H */
