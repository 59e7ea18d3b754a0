/*
 * idgen.hpp — header-only C++17 RAII over the C ABI of idgen.h.
 *
 *     #include "idgen.hpp"
 *
 *     idgen::Generator g("preset=snowflake worker=lease");
 *     int64_t id = g.next();                  // throws idgen::Error on failure
 *     idgen_parts p = g.decode(id);
 *     idgen_stats st = g.stats();             // st.lease_state == IDGEN_LEASE_HELD, st.fence_unix_ms, ...
 *
 *     idgen::Generator u("preset=uuidv7");    // text presets: next_text()
 *     std::string s = u.next_text();          // "01a2...-....-7...-8...-............"
 *     std::array<uint8_t, 16> b = u.next_uuid();  // the same kind of id as 16 bytes
 *
 *     idgen::configure("preset=snowflake worker=3");  // the process-wide default generator
 *     int64_t d = idgen::next_id();           // and idgen::next_ids, idgen::decode
 *     std::string m = idgen::metrics_text();  // every open generator, Prometheus text
 *     std::string t = idgen::format(d, 36);   // and idgen::parse(t, 36) == d
 *
 * It covers the whole C ABI: every idgen_* function has a call here (the
 * handle itself is Generator::get()). A Generator owns one handle: it is
 * movable, not copyable, and closes the handle in its destructor. Every
 * failure throws idgen::Error, which carries the IDGEN_E* status (code())
 * and the library's message (what()). All member functions may be called
 * from any thread on the same Generator.
 */
#ifndef IDGEN_HPP
#define IDGEN_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "idgen.h"

namespace idgen {

/* A failed call: code() is the IDGEN_E* status, what() the message. */
class Error : public std::runtime_error {
public:
    Error(int code, const std::string &message) : std::runtime_error(message), code_(code) {}
    int code() const noexcept { return code_; }

private:
    int code_;
};

/* The library's version, "MAJOR.MINOR.PATCH" (idgen_version). */
inline std::string_view version() { return idgen_version(); }

/* Static text naming a status code (idgen_strerror; not called strerror,
 * which a `using namespace idgen` would make ambiguous with ::strerror). */
inline std::string_view status_text(int code) { return idgen_strerror(code); }

namespace detail {
inline Error last(int code) {
    const char *msg = idgen_last_error();
    std::string text = (msg && *msg) ? msg : idgen_strerror(code);
    return Error(code, text);
}

inline void check(int code) {
    if (code != IDGEN_OK)
        throw last(code);
}

inline int64_t check_id(int64_t id) {
    if (id < 0)
        throw last(static_cast<int>(id));
    return id;
}

/* text as a NUL-terminated string for a C call; Error(IDGEN_EINVAL) naming
 * what when it holds a NUL (C would see only the text before it). */
inline std::string c_string(std::string_view text, const char *what) {
    std::string c(text);
    if (c.find('\0') != std::string::npos)
        throw Error(IDGEN_EINVAL, std::string(what) + ": contains a NUL character");
    return c;
}
} // namespace detail

class Generator {
public:
    /* Opens a generator from a configuration string ("" means the
     * defaults: preset=snowflake with a host lease). */
    explicit Generator(std::string_view config = {}) {
        detail::check(idgen_open(detail::c_string(config, "config").c_str(), &g_));
        // Asked of the library, not read off the configuration string (which
        // may carry name=): only a uuidv7 generator reads a UUIDv7 as its id.
        idgen_text_parts p;
        uuid_ = idgen_decode_text(g_, "00000000-0000-7000-8000-000000000000", &p) == IDGEN_OK;
    }

    Generator(const Generator &) = delete;
    Generator &operator=(const Generator &) = delete;
    Generator(Generator &&other) noexcept : g_(std::exchange(other.g_, nullptr)), uuid_(other.uuid_) {}
    Generator &operator=(Generator &&other) noexcept {
        if (this != &other) {
            close();
            g_ = std::exchange(other.g_, nullptr);
            uuid_ = other.uuid_;
        }
        return *this;
    }
    ~Generator() { close(); }

    /* Closes the handle (releasing its lease); later calls throw
     * Error(IDGEN_ECLOSED). Closing twice is harmless. */
    void close() noexcept {
        if (g_) {
            idgen_close(g_);
            g_ = nullptr;
        }
    }

    /* The next id (>= 0). */
    int64_t next() const { return detail::check_id(idgen_next(handle())); }

    /* Fills out[0..n) with strictly increasing ids in one call. */
    void next(int64_t *out, size_t n) const { detail::check(idgen_next_batch(handle(), out, n)); }

    /* With runs=N: the generator's next run, whole (up to cap ids written
     * to out); returns how many and sets fresh_ns to how long they may be
     * handed out. Without runs: one id and fresh_ns == 0. cap == 0 writes
     * nothing and returns N (1 without runs). See idgen_next_run. */
    size_t next_run(int64_t *out, size_t cap, int64_t &fresh_ns) const {
        int rc = idgen_next_run(handle(), out, cap, &fresh_ns);
        detail::check(rc < 0 ? rc : IDGEN_OK);
        return static_cast<size_t>(rc);
    }

    /* The fields of an id of this generator's layout. */
    idgen_parts decode(int64_t id) const {
        idgen_parts p;
        detail::check(idgen_decode_with(handle(), id, &p));
        return p;
    }

    /* The inverse of decode. */
    int64_t compose(const idgen_parts &p) const {
        int64_t id = 0;
        detail::check(idgen_compose(handle(), &p, &id));
        return id;
    }

    /* The next id as text: a text preset's form (rocketmq, rocketmq-v1,
     * uuidv7: 36 chars, canonical lower case; ulid: 26 chars), or a numeric
     * preset's id in its text= form. */
    std::string next_text() const {
        char buf[IDGEN_TEXT_MAX];
        int n = idgen_next_text(handle(), buf, sizeof buf);
        if (n < 0)
            throw detail::last(n);
        return std::string(buf, static_cast<size_t>(n));
    }

    /* The fields of text of this generator's form; Error(IDGEN_EINVAL) for
     * text that is not exactly that form. */
    idgen_text_parts decode_text(std::string_view text) const {
        idgen_text_parts p;
        detail::check(idgen_decode_text(handle(), detail::c_string(text, "text").c_str(), &p));
        return p;
    }

    /* The next id of a preset=uuidv7 generator as its 16 bytes (RFC 9562
     * order: they compare with memcmp as the ids were made).
     * Error(IDGEN_EINVAL) on any other preset, consuming nothing. */
    std::array<uint8_t, 16> next_uuid() const {
        if (!uuid_)
            throw Error(IDGEN_EINVAL, "next_uuid: only preset=uuidv7 makes UUIDs (the others: next_text())");
        std::array<uint8_t, 16> b{};
        detail::check(idgen_next_uuids(handle(), b.data(), 1));
        return b;
    }

    /* What this generator has done and where its lease stands, read at once:
     * idgen_stats (lease_state an IDGEN_LEASE_* value; -1 where a field does
     * not apply, skew_ms INT64_MIN while unknown). */
    idgen_stats stats() const {
        idgen_stats s{}; /* a library older than this header fills a prefix */
        detail::check(idgen_get_stats(handle(), &s, sizeof s));
        return s;
    }

    /* What this generator is: idgen_info (kind an IDGEN_KIND_* value,
     * leased, tick_ns, text_len, longest_run). */
    idgen_info info() const {
        idgen_info in{}; /* a library older than this header fills a prefix */
        detail::check(idgen_get_info(handle(), &in, sizeof in));
        return in;
    }

    /* The effective configuration string. */
    std::string config() const {
        std::string buf(256, '\0');
        for (;;) {
            int rc = idgen_config_string(handle(), buf.data(), buf.size());
            if (rc == IDGEN_OK)
                return std::string(buf.c_str());
            if (rc != IDGEN_ERANGE || buf.size() > (1u << 20))
                throw detail::last(rc);
            buf.resize(buf.size() * 2);
        }
    }

    /* The C handle, for calls this class does not wrap. */
    idgen_t *get() const noexcept { return g_; }

private:
    idgen_t *handle() const {
        if (!g_)
            throw Error(IDGEN_ECLOSED, "the generator is closed (or was moved from)");
        return g_;
    }

    idgen_t *g_ = nullptr;
    bool uuid_ = false; /* preset=uuidv7: next_uuid works */
};

/* The process-wide default generator: built on first use from
 * $IDGEN_CONFIG, or from the defaults (a host lease). configure replaces it
 * ("" means the defaults); on an error the old one stays. */
inline void configure(std::string_view config) {
    detail::check(idgen_configure(detail::c_string(config, "config").c_str()));
}

/* The default generator's next id (>= 0). */
inline int64_t next_id() { return detail::check_id(idgen_next_id()); }

/* Fills out[0..n) with strictly increasing ids of the default generator. */
inline void next_ids(int64_t *out, size_t n) { detail::check(idgen_next_ids(out, n)); }

/* The fields of an id of the default generator's layout. */
inline idgen_parts decode(int64_t id) {
    idgen_parts p;
    detail::check(idgen_decode(id, &p));
    return p;
}

/* Every open generator of the process in the Prometheus text exposition
 * format (idgen_metrics_text): serve it as text/plain; version=0.0.4. */
inline std::string metrics_text() {
    std::string buf(4096, '\0');
    for (;;) {
        int64_t n = idgen_metrics_text(buf.data(), buf.size());
        if (n < 0)
            throw detail::last(static_cast<int>(n));
        if (static_cast<uint64_t>(n) < buf.size()) {
            buf.resize(static_cast<size_t>(n));
            return buf;
        }
        buf.assign(static_cast<size_t>(n + n / 4 + 256), '\0'); /* the text grows between calls */
    }
}

/* Text forms: base 2..62; fixed_width pads so equal-width strings sort like
 * the numbers. */
inline std::string format(int64_t id, int base = 62, bool fixed_width = false) {
    char buf[64]; /* the longest: INT64_MAX in base 2, 63 digits, and the NUL */
    detail::check(idgen_format(id, base, fixed_width ? 1 : 0, buf, sizeof buf));
    return std::string(buf);
}

inline int64_t parse(std::string_view text, int base = 62) {
    int64_t v = 0;
    detail::check(idgen_parse(detail::c_string(text, "text").c_str(), base, &v));
    return v;
}

} // namespace idgen

#endif /* IDGEN_HPP */
