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

	local_irq_save(*flags);
	if (WARN_ONCE(bvec->bv_len > PAGE_SIZE - offset,
		      "%s: %pS maps a bvec of %u bytes at offset %u, which crosses a page: refused (map it by bio_for_each_segment())\n",
		      __func__, (void *)_THIS_IP_, bvec->bv_len, offset))
		return NULL;
	return (char *)kmap_atomic(bvec->bv_page + bvec->bv_offset / PAGE_SIZE,
				   KM_BIO_SRC_IRQ) + offset;
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

/**
 * __bio_kmap_atomic - map a bio's segment at an iterator in a slot of the caller's
 * @bio: the bio
 * @iter: a struct bvec_iter into it, as bio_for_each_segment() gives
 * @type: the slot, for the context the caller is in
 *
 * Maps the single-page segment bio_iter_iovec(@bio, @iter): its length is
 * bio_iter_len(@bio, @iter), never past the mapped page. 2.6 took an index
 * into bi_io_vec; 6.1's bio_for_each_segment() gives a struct bvec_iter,
 * which this takes, so that cloned and split bios work (an int does not
 * compile). Preemption and page faults are off until
 * __bio_kunmap_atomic().
 *
 * Return: the address of the segment's data.
 */
#define __bio_kmap_atomic(bio, iter, type)				\
({									\
	struct bio_vec __bv = bio_iter_iovec((bio), (iter));		\
									\
	(char *)kmap_atomic(__bv.bv_page, type) + __bv.bv_offset;	\
})

/**
 * __bio_kunmap_atomic - undo __bio_kmap_atomic()
 * @addr: the address __bio_kmap_atomic() returned, or any inside its page
 * @type: the slot it was mapped in
 */
#define __bio_kunmap_atomic(addr, type)	kunmap_atomic(addr, type)

#endif /* _LINUX_BIO_KMAP_H */
