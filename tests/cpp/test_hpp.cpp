// Tests of include/idgen.hpp: RAII, moves, exceptions with codes, threads,
// batches, UUIDv7 and ULID, stats, metrics; test_calls.cpp the rest of the
// ABI. Prints "N passed, N failed"; exits 1 on a failure.
#include "check.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <vector>

/* Generator::stats(): a fixed worker, a leased pair, a closed generator. */
static void test_stats() {
    {
        idgen::Generator g("preset=snowflake worker=3 datacenter=1");
        idgen_stats st = g.stats();
        CHECK(st.lease_state == IDGEN_LEASE_NONE && st.datacenter == 1 && st.worker == 3, "fixed: NONE and its pair");
        CHECK(st.fence_unix_ms == -1 && st.renewed_unix_ms == -1 && st.leases_taken == 0, "fixed: no fence, no lease taken");
        CHECK(st.issued == 0 && st.skew_ms == INT64_MIN && st.segment_left == -1, "fixed: nothing issued, no skew, no segment");
        std::vector<int64_t> buf(100);
        g.next(buf.data(), buf.size());
        CHECK(g.stats().issued == 100, "a batch of 100 counts 100");
        CHECK(g.next() > buf.back() && g.stats().issued == 101, "and one next, 101");
        g.close();
        CHECK(code_of([&] { g.stats(); }) == IDGEN_ECLOSED, "stats after close throws ECLOSED");
    }
    char dir[] = "/tmp/idgen-hpp-stats-XXXXXX";
    CHECK(mkdtemp(dir) != nullptr, "mkdtemp");
    struct stat sb;
    CHECK(stat(dir, &sb) == 0 && (sb.st_mode & 0777) == 0700 && sb.st_uid == getuid(), "lease dir: ours, 0700");
    {
        int64_t before = now_ms();
        idgen::Generator g(std::string("preset=snowflake worker=lease lease_dir=") + dir);
        idgen_parts p = g.decode(g.next());
        idgen_stats st = g.stats();
        CHECK(st.lease_state == IDGEN_LEASE_HELD, "leased: HELD");
        CHECK(st.datacenter == p.datacenter && st.worker == p.worker, "leased: the pair its ids carry");
        std::string leased = "leased=" + std::to_string(st.datacenter) + "/" + std::to_string(st.worker);
        CHECK(g.config().find(leased) != std::string::npos, "leased: the pair the config string names");
        CHECK(st.fence_unix_ms > before && st.fence_unix_ms < before + 5000, "leased: fence ~ now + max_outage (1s)");
        CHECK(st.leases_taken == 1 && st.issued >= 1, "leased: one lease taken");
    }
    std::filesystem::remove_all(dir);
}

/* Generator::info(): what a generator is; a closed one throws ECLOSED. */
static void test_info() {
    idgen::Generator g("preset=snowflake worker=3 text=base36 runs=4");
    idgen_info in = g.info();
    CHECK(in.kind == IDGEN_KIND_NUMERIC && in.leased == 0 && in.tick_ns == 1000000 && in.text_len == 13 &&
              in.longest_run == 4,
          "snowflake: numeric, 1 ms, 13 chars, runs of 4");
    idgen::Generator u("preset=ulid");
    CHECK(u.info().kind == IDGEN_KIND_ULID && u.info().text_len == 26, "ulid");
    g.close();
    CHECK(code_of([&] { g.info(); }) == IDGEN_ECLOSED, "info after close throws ECLOSED");
}

static void test_basics() {
    idgen::Generator g("preset=snowflake datacenter=3 worker=7");
    int64_t a = g.next(), b = g.next();
    CHECK(a >= 0 && b > a, "next increases");
    idgen_parts p = g.decode(b);
    CHECK(p.datacenter == 3 && p.worker == 7, "decode");
    CHECK(g.compose(p) == b, "compose(decode(id)) == id");
    CHECK(g.config().find("worker=7") != std::string::npos, "config string");
    std::vector<int64_t> buf(10000);
    g.next(buf.data(), buf.size());
    CHECK(std::is_sorted(buf.begin(), buf.end()) && std::adjacent_find(buf.begin(), buf.end()) == buf.end() && buf[0] > b,
          "batch strictly increasing");
    p.worker = 32;
    CHECK(code_of([&] { g.compose(p); }) == IDGEN_ERANGE, "compose: a worker past its 5 bits is ERANGE");
    CHECK(idgen_next(g.get()) > buf.back(), "get(): the C handle, for the C calls");
}

static void test_errors() {
    CHECK(code_of([] { idgen::Generator g("bogus=1"); }) == IDGEN_EINVAL, "bad config throws EINVAL");
    try {
        idgen::Generator g("worker=99");
    } catch (const idgen::Error &e) {
        CHECK(std::string(e.what()).find("worker") != std::string::npos, "the message names the key");
    }
    CHECK(code_of([] { idgen::Generator g(std::string_view("worker=1\0x", 10)); }) == IDGEN_EINVAL, "embedded NUL");
    idgen::Generator g("preset=baidu worker=0");
    CHECK(code_of([&] { g.next(); }) == IDGEN_EOVERFLOW, "baidu's bits ran out: EOVERFLOW");
    CHECK(code_of([&] { g.decode(-1); }) == IDGEN_EINVAL, "decode of a negative id");
}

static void test_moves() {
    idgen::Generator a("preset=snowflake worker=1");
    int64_t first = a.next();
    idgen::Generator b(std::move(a));
    CHECK(b.next() > first, "a moved generator keeps its state");
    CHECK(code_of([&] { a.next(); }) == IDGEN_ECLOSED, "the moved-from generator throws ECLOSED");
    idgen::Generator c("preset=snowflake worker=2");
    c = std::move(b);
    CHECK(c.decode(c.next()).worker == 1, "move assignment takes the other's handle");
    c.close();
    c.close();
    CHECK(code_of([&] { c.next(); }) == IDGEN_ECLOSED, "use after close throws ECLOSED");
}

static void test_threads() {
    idgen::Generator g("preset=snowflake worker=4");
    const int threads = 4, per = 50000;
    std::vector<std::vector<int64_t>> ids(threads);
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; t++)
        ts.emplace_back([&, t] {
            for (int i = 0; i < per; i++)
                ids[t].push_back(g.next());
        });
    for (auto &t : ts)
        t.join();
    std::set<int64_t> all;
    bool ordered = true;
    for (auto &v : ids) {
        ordered &= std::is_sorted(v.begin(), v.end());
        all.insert(v.begin(), v.end());
    }
    CHECK(ordered && all.size() == static_cast<size_t>(threads * per), "4 threads: unique, increasing per thread");
}

static void test_uuid_ulid() {
    idgen::Generator u("preset=uuidv7");
    std::string a = u.next_text();
    auto b = u.next_uuid(), c = u.next_uuid();
    CHECK(a.size() == 36 && a[14] == '7' && a[8] == '-', "uuidv7 text");
    CHECK(b[6] >> 4 == 7 && (b[8] & 0xc0) == 0x80, "next_uuid: version 7, RFC variant");
    CHECK(std::lexicographical_compare(b.begin(), b.end(), c.begin(), c.end()), "next_uuid increases as bytes");
    // next_uuid's bytes (idgen_next_uuids) and next_text's text are one sequence: each text, read back as
    // 16 bytes, lies between the UUIDs made before and after it.
    bool between = true;
    for (int i = 0; i < 1000; i++) {
        std::string t = u.next_text();
        auto d = u.next_uuid();
        std::array<uint8_t, 16> tb{};
        for (size_t k = 0, j = 0; j < tb.size(); k += 2, j++) {
            k += t[k] == '-';
            tb[j] = static_cast<uint8_t>(std::stoi(t.substr(k, 2), nullptr, 16));
        }
        between = between && c < tb && tb < d;
        c = d;
    }
    CHECK(between, "next_uuid and next_text interleaved: strictly increasing");
    CHECK(u.decode_text("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").unix_ms == 1645557742000LL, "RFC 9562 example");
    CHECK(code_of([&] { u.decode_text("017f22e2-79b0-4cc3-98c4-dc0c0c07398f"); }) == IDGEN_EINVAL, "a UUIDv4");
    CHECK(code_of([&] { u.next(); }) == IDGEN_EINVAL, "no numbers from a text preset");
    idgen::Generator moved(std::move(u));
    CHECK(moved.next_uuid()[6] >> 4 == 7, "next_uuid after a move");
    idgen::Generator l("preset=ulid");
    std::string x = l.next_text(), y = l.next_text();
    CHECK(x.size() == 26 && y > x, "ulid text increases");
    CHECK(l.decode_text("01ARZ3NDEKTSV4RRFFQ69G5FAV").unix_ms == 1469922850259LL, "ULID spec example");
    CHECK(code_of([&] { l.decode_text("01ARZ3NDEKTSV4RRFFQ69G5FAI"); }) == IDGEN_EINVAL, "ULID letter I");
    CHECK(code_of([&] { l.next_uuid(); }) == IDGEN_EINVAL, "next_uuid on ulid");
    // name= applies to uuidv7 too: the generator is still one that makes UUIDs.
    idgen::Generator named("preset=uuidv7 name=orders");
    CHECK(named.next_uuid()[6] >> 4 == 7, "next_uuid on preset=uuidv7 name=orders");
    idgen::Generator named_ulid("preset=ulid name=orders");
    CHECK(code_of([&] { named_ulid.next_uuid(); }) == IDGEN_EINVAL, "next_uuid on a named ulid");
}

static void test_metrics() {
    idgen::Generator g("preset=snowflake worker=9 name=cppmetrics");
    g.next();
    g.next();
    std::string t = idgen::metrics_text();
    CHECK(t.find("# TYPE idgen_ids_issued_total counter\n") != std::string::npos, "metrics_text: a family's TYPE line");
    CHECK(t.find("idgen_ids_issued_total{name=\"cppmetrics\",generator=") != std::string::npos, "metrics_text: the generator's series");
    CHECK(t.find("store=\"none\",datacenter=\"0\",worker=\"9\"} 1\n") != std::string::npos, "metrics_text: its info");
    CHECK(idgen_metrics_text(nullptr, 0) > 0 && idgen_metrics_text(nullptr, 5) == IDGEN_EINVAL, "metrics_text: (NULL, 0) asks the length; NULL with a cap is EINVAL");
    char small[8] = "xxxxxxx";
    CHECK(idgen_metrics_text(small, sizeof small) > 8 && small[0] == 'x', "metrics_text: nothing written when it does not fit");
}

int main() {
    test_info();
    test_basics();
    test_errors();
    test_moves();
    test_threads();
    test_forms();
    test_default_generator();
    test_uuid_ulid();
    test_numeric_text();
    test_rocketmq_text();
    test_stats();
    test_metrics();
    test_version_and_config();
    test_runs();
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
