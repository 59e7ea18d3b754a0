package org.idgen;

/**
 * A thread's buffers for the text-id calls ({@link TextIds}): text on its
 * way in or out, an idgen_text_parts on its way out. Each {@link Native}
 * extends it with the native memory its calls pass, and hands out one per
 * thread ({@link Native#textBuffers}), so that a call makes one thread-local
 * lookup and allocates nothing but its result.
 */
class TextBuffers {
    final byte[] text = new byte[Native.TEXT_MAX];
    final byte[] parts = new byte[Native.TEXT_PARTS_SIZE];
}
