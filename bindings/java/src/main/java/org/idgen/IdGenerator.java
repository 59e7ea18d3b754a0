package org.idgen;

import java.lang.ref.Cleaner;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An id generator opened from a configuration string, e.g.
 * {@code "preset=snowflake worker=lease"}; the same string means the same
 * generator in C, Python and Java.
 *
 * <p>Thread-safe: ids strictly increase across all threads. Close it (it is
 * {@link AutoCloseable}); a {@link Cleaner} closes one that is dropped
 * unclosed. Calls after {@link #close()} throw {@link IdGenException} with
 * {@link ErrorCode#CLOSED}.
 *
 * <p>The text presets ({@code preset=rocketmq}: RocketMQ's message key, made
 * as {@code MessageClientIDSetter.createUniqID()} makes it;
 * {@code preset=rocketmq-v1}: the 5.x client's {@code MessageIdCodec} V1 id;
 * {@code preset=uuidv7}: RFC 9562 version-7 UUIDs, also as {@link UUID}
 * through {@link #nextUuid}; {@code preset=ulid}: ULIDs) make only text: use
 * {@link #nextText} and {@link #decodeText}; {@link #nextId} on them is
 * INVALID. Numeric presets make both.
 */
public final class IdGenerator implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    /** The generators of {@link #shared}, by configuration string as given. */
    private static final ConcurrentHashMap<String, IdGenerator> SHARED = new ConcurrentHashMap<>();

    /** What the cleaner needs: the handle, never the generator itself. */
    private static final class Handle implements Runnable {
        final long token;

        Handle(long token) {
            this.token = token;
        }

        @Override
        public void run() {
            Native.LIB.idgen_close(token);
        }
    }

    private final long token;
    private final Cleaner.Cleanable cleanable;
    /** One of {@link #shared}'s: {@link #close()} does nothing. */
    private final boolean shared;
    private volatile boolean closed;

    /**
     * runs=N through JNA: ids handed out in Java from runs the library
     * reserved (a JNA call costs ~110 ns); null without runs, and through
     * java.lang.foreign, whose downcall to idgen_next, served in C from the
     * same runs, costs less than the Java side's clock reading.
     */
    private final Runs runs;
    /**
     * Through java.lang.foreign, with runs=N or a segment counter: the id
     * in hand is asked first (idgen_next_in_hand, a critical downcall that
     * never enters Go), idgen_next only when there is none.
     */
    private final boolean inHand;
    /** A segment counter's runs handed out from the library's memory; null when not one, or not reachable. */
    private final SharedRuns sharedRuns;
    /** A uuidv7 generator's UUIDs, made by the library 64 at a time and handed out in Java; null on any other preset. */
    private final UuidRuns uuidRuns;
    /**
     * runs', sharedRuns' or uuidRuns' lock (null with none): a call that
     * issues ids in the library holds it, with Java's hand-out stopped first.
     */
    private final HandOut handOut;
    private final java.util.function.LongSupplier handleFn = this::handle;

    private IdGenerator(long token, boolean shared) {
        this.token = token;
        this.shared = shared;
        this.cleanable = CLEANER.register(this, new Handle(token));
        long[] in = new long[INFO_FIELDS];
        Status.check(Native.LIB.idgen_get_info(token, in, 8L * in.length));
        boolean jna = Native.LIB.name().equals("jna");
        this.runs = in[4] > 1 && jna ? new Runs((int) in[4]) : null;
        this.inHand = !jna && (in[4] > 1 || in[0] == KIND_COUNTER);
        this.sharedRuns = in[0] == KIND_COUNTER ? SharedRuns.of(token) : null;
        this.uuidRuns = in[0] == KIND_UUIDV7 ? new UuidRuns() : null;
        this.handOut = runs != null ? runs : sharedRuns != null ? sharedRuns : uuidRuns;
    }

    /**
     * Opens a generator; null or "" means the defaults.
     *
     * @throws IdGenException INVALID for a bad configuration (the message
     *     names the key), WORKER when no worker id can be leased, CLOCK when
     *     a lease's recorded time is not passed within max_wait
     */
    public static IdGenerator open(String config) {
        return open(config, false);
    }

    private static IdGenerator open(String config, boolean shared) {
        long[] out = new long[1];
        Status.check(Native.LIB.idgen_open(CString.of(config, "config"), out));
        return new IdGenerator(out[0], shared);
    }

    /**
     * The one generator of this JVM for {@code config} (compared as given;
     * null is ""), opened on the first call: for frameworks that make an id
     * generator per entity, table or rule (the Hibernate and ShardingSphere
     * adapters), so that one configuration leases one pair however often it
     * is named. It is never closed ({@link #close()} on it does nothing):
     * the process's exit ends it, as any exit without a close does.
     *
     * @throws IdGenException as {@link #open} does; nothing is kept then,
     *     and the next call tries again
     */
    public static IdGenerator shared(String config) {
        String key = config == null ? "" : config;
        IdGenerator g = SHARED.get(key);
        return g != null ? g : SHARED.computeIfAbsent(key, k -> open(k, true));
    }

    private long handle() {
        if (closed) {
            throw closedError(null);
        }
        return token;
    }

    private static IdGenException closedError(IdGenException cause) {
        return cause != null ? cause : new IdGenException(ErrorCode.CLOSED, "the generator is closed");
    }

    /** The next id (always &gt;= 0). */
    public long nextId() {
        SharedRuns m = sharedRuns;
        if (m != null) {
            return m.next(handleFn);
        }
        long id = inHand ? Native.LIB.idgen_next_in_hand(token) : -1;
        if (id >= 0) {
            return id; // -1 when none in hand, and after a close: idgen_next below says why
        }
        Runs r = runs;
        if (r != null) {
            return r.next(handleFn);
        }
        return Status.id(Native.LIB.idgen_next(handle()));
    }

    /** How {@link #nextId} hands out (for tests): "memory", "in-hand", "runs" or "call". */
    String nextIdPath() {
        return sharedRuns != null ? "memory" : inHand ? "in-hand" : runs != null ? "runs" : "call";
    }

    /** {@code n} strictly increasing ids. */
    public long[] nextIds(int n) {
        if (n < 0) {
            throw new IdGenException(ErrorCode.INVALID, "n must be >= 0, got " + n);
        }
        long[] out = new long[n];
        nextIds(out);
        return out;
    }

    /** Fills {@code out} with strictly increasing ids in one native call. */
    public void nextIds(long[] out) {
        if (out == null) {
            throw new IdGenException(ErrorCode.INVALID, "out is null");
        }
        if (out.length == 0) {
            handle();
            return;
        }
        if (handOut == null) {
            Status.check(Native.LIB.idgen_next_batch(handle(), out, out.length));
            return;
        }
        synchronized (handOut) { // no run taken meanwhile, none of the old one handed out after
            handOut.stopLocked();
            Status.check(Native.LIB.idgen_next_batch(handle(), out, out.length));
        }
    }

    /** The fields of an id of this generator's layout. */
    public IdParts decode(long id) {
        long[] p = new long[7];
        Status.check(Native.LIB.idgen_decode_with(handle(), id, p));
        return IdParts.fromArray(p);
    }

    /**
     * Builds an id from its fields, the inverse of {@link #decode}. unixMillis
     * is used unless it is negative, then the raw time; a field the layout
     * lacks must be -1 or 0; a value that does not fit is RANGE. The id field
     * is ignored.
     */
    public long compose(IdParts parts) {
        if (parts == null) {
            throw new IdGenException(ErrorCode.INVALID, "parts is null");
        }
        long[] out = new long[1];
        Status.check(Native.LIB.idgen_compose(handle(), parts.toArray(), out));
        return out[0];
    }

    /**
     * The next id as text: a text preset's own form ({@code rocketmq}: 32
     * upper-hex chars, 56 on an IPv6 address; {@code rocketmq-v1}: 34;
     * {@code uuidv7}: 36, canonical lower case; {@code ulid}: 26), a
     * numeric preset's id in its {@code text=} form ({@code dec}, the
     * default; {@code base36}: 13 chars; {@code base62}: 11, both sorting
     * like the numbers). The text goes through a per-thread native buffer:
     * nothing is allocated but the String.
     *
     * @throws IdGenException as {@link #nextId} does
     */
    public String nextText() {
        if (handOut == null) {
            return TextIds.next(handle());
        }
        synchronized (handOut) {
            handOut.stopLocked();
            return TextIds.next(handle());
        }
    }

    /**
     * The next id of a {@code preset=uuidv7} generator as a {@link UUID}
     * ({@code version() == 7}, {@code variant() == 2}), strictly increasing
     * across threads and with {@link #nextText}, as text, as bytes and by
     * {@link UUID#compareTo}. The library makes them 64 at a time
     * (idgen_next_uuids) and they are handed out in Java, each within 1 ms
     * of when its run was made: its time is at most that much before the
     * call; a run not used up by then, or stopped by {@link #nextText} or
     * {@link #close}, is dropped.
     *
     * @throws IdGenException INVALID on any other preset, consuming nothing
     *     (a ULID is not a UUID: take {@code ulid}'s ids as text, {@link
     *     #nextText}); otherwise as {@link #nextId} does
     */
    public UUID nextUuid() {
        UuidRuns u = uuidRuns;
        if (u == null) { // asked of the library as it opened, whatever name= says
            throw new IdGenException(ErrorCode.INVALID,
                    "nextUuid: " + config() + " makes no UUIDs; only preset=uuidv7 does (every preset's ids come as text from nextText())");
        }
        return u.next(handleFn);
    }

    /**
     * The fields of text of this generator's form (hex and base32 in either
     * case; uuidv7 and ulid fill {@code unixMs} only, and read any UUIDv7 or
     * ULID).
     *
     * @throws IdGenException INVALID for null or for text that is not
     *     exactly the form (wrong length, a stray character, white space, a
     *     sign, {@code 0x}); the message says what is wrong
     */
    public TextParts decodeText(String text) {
        if (text == null) {
            throw new IdGenException(ErrorCode.INVALID, "text is null");
        }
        return TextIds.decode(handle(), text);
    }

    /**
     * What this generator has done and where its lease stands: ids issued,
     * tick waits, clock steps back, the pair held, the lease's state and
     * fence, renewals (see {@link Stats}). For monitoring: each call is one
     * native call and allocates the record.
     *
     * @throws IdGenException CLOSED once closed
     */
    public Stats stats() {
        long[] s = new long[Stats.FIELDS];
        if (sharedRuns == null) {
            Status.check(Native.LIB.idgen_get_stats(handle(), s, 8L * s.length));
        } else {
            synchronized (sharedRuns) { // a tail held in Java counts as not issued
                sharedRuns.stopLocked();
                Status.check(Native.LIB.idgen_get_stats(handle(), s, 8L * s.length));
            }
        }
        return Stats.fromArray(s);
    }

    /** IDGEN_KIND_UUIDV7: idgen_info's kind of a {@code preset=uuidv7} generator. */
    static final long KIND_UUIDV7 = 2;

    /** The int64 fields of idgen_info this binding reads: kind, leased, tick_ns, text_len, longest_run. */
    static final int INFO_FIELDS = 5;
    /** idgen_info.kind of a segment counter (IDGEN_KIND_COUNTER). */
    private static final long KIND_COUNTER = 5;

    /** What the generator is (idgen_get_info), field for field: the library says, nothing is probed. */
    long[] info() {
        long[] in = new long[INFO_FIELDS];
        Status.check(Native.LIB.idgen_get_info(handle(), in, 8L * in.length));
        return in;
    }

    /** The effective configuration, worker and datacenter resolved. */
    public String config() {
        for (int cap = 512; ; cap *= 4) {
            byte[] buf = new byte[cap];
            int rc = Native.LIB.idgen_config_string(handle(), buf, cap);
            if (rc == ErrorCode.RANGE.code() && cap < (1 << 20)) {
                continue;
            }
            if (rc != 0) {
                throw Status.error(rc);
            }
            return CString.read(buf);
        }
    }

    /**
     * Closes the generator and releases its lease. Idempotent; does nothing
     * on a generator of {@link #shared}.
     */
    @Override
    public void close() {
        if (shared) {
            return;
        }
        if (handOut != null) {
            synchronized (handOut) {
                closed = true;
                handOut.stopLocked();
            }
        }
        closed = true;
        cleanable.clean();
    }

    @Override
    public String toString() {
        return closed ? "IdGenerator[closed]" : "IdGenerator[" + config() + "]";
    }
}
