// Tests of the idgen.hpp calls over text ids (numeric text= forms,
// rocketmq), the text forms (format/parse), the default generator, the
// version, status texts and the config string.
#include "check.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

static bool all_of_chars(const std::string &s, int (*pred)(int)) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) { return pred(static_cast<unsigned char>(c)) != 0; });
}

static int is_upper_hex(int c) { return std::isdigit(c) || (c >= 'A' && c <= 'F'); }

void test_forms() {
    CHECK(idgen::format(910499571847892992LL, 62, true) == "15G63YLn9Ae", "format base 62");
    CHECK(idgen::parse("15G63YLn9Ae") == 910499571847892992LL, "parse base 62");
    CHECK(code_of([] { idgen::parse("not base 62!"); }) == IDGEN_EINVAL, "parse garbage");
    CHECK(idgen::format(INT64_MAX, 2) == std::string(63, '1'), "format: INT64_MAX in base 2, the longest text, fits");
    CHECK(idgen::format(35, 36) == "z" && idgen::format(35, 36, true) == "000000000000z", "format base 36, fixed width 13");
    CHECK(idgen::parse("zz", 36) == 1295 && idgen::parse("000zz", 36) == 1295, "parse base 36, leading zeros");
    CHECK(code_of([] { idgen::parse("ZZ", 36); }) == IDGEN_EINVAL, "parse: upper case is not base 36");
    CHECK(code_of([] { idgen::format(-1); }) == IDGEN_EINVAL, "format of a negative id is EINVAL");
    CHECK(code_of([] { idgen::format(1, 63); }) == IDGEN_EINVAL && code_of([] { idgen::format(1, 1); }) == IDGEN_EINVAL,
          "format: a base outside 2..62 is EINVAL");
    CHECK(code_of([] { idgen::parse("8000000000000000", 16); }) == IDGEN_ERANGE, "parse above INT64_MAX is ERANGE");
    CHECK(code_of([] { idgen::parse(""); }) == IDGEN_EINVAL, "parse of empty text is EINVAL");
    CHECK(code_of([] { idgen::parse(std::string_view("12\0", 3), 10); }) == IDGEN_EINVAL, "parse: an embedded NUL is EINVAL");
}

void test_default_generator() {
    idgen::configure("preset=snowflake worker=6");
    CHECK(idgen::next_id() >= 0, "default generator");
    std::vector<int64_t> ids(500);
    idgen::next_ids(ids.data(), ids.size());
    CHECK(std::is_sorted(ids.begin(), ids.end()) && std::adjacent_find(ids.begin(), ids.end()) == ids.end(),
          "next_ids: strictly increasing");
    CHECK(idgen::decode(ids.back()).worker == 6, "decode: the default generator's layout and worker");
    CHECK(idgen::next_id() > ids.back(), "next_id after next_ids goes on above");
    CHECK(code_of([] { idgen::configure("bogus=1"); }) == IDGEN_EINVAL, "configure: a bad config is EINVAL");
    CHECK(code_of([] { idgen::configure(std::string_view("worker=1\0x", 10)); }) == IDGEN_EINVAL,
          "configure: an embedded NUL is EINVAL");
    CHECK(idgen::decode(idgen::next_id()).worker == 6, "a failed configure keeps the old generator");
    idgen::configure("preset=snowflake datacenter=2 worker=9");
    idgen_parts p = idgen::decode(idgen::next_id());
    CHECK(p.datacenter == 2 && p.worker == 9, "configure replaces the default generator");
    CHECK(code_of([] { idgen::decode(-5); }) == IDGEN_EINVAL, "decode of a negative id is EINVAL");
    CHECK(code_of([] { idgen::next_ids(nullptr, 3); }) == IDGEN_EINVAL, "next_ids into NULL is EINVAL");
}

/* A numeric preset's text= forms: fixed width, sorting like the ids. */
void test_numeric_text() {
    idgen::Generator b36("preset=snowflake worker=5 text=base36");
    std::string a = b36.next_text(), b = b36.next_text();
    CHECK(a.size() == 13 && b.size() == 13 && b > a, "text=base36: 13 chars, sorting like the ids");
    int64_t id = b36.decode_text(b).id;
    CHECK(id == idgen::parse(b, 36) && b36.decode(id).worker == 5, "decode_text: the id the text spells, of worker 5");
    CHECK(b36.stats().issued == 2, "text ids count in stats().issued");
    idgen::Generator b62("preset=snowflake worker=5 text=base62");
    std::string c = b62.next_text();
    CHECK(c.size() == 11 && b62.decode_text(c).id == idgen::parse(c, 62), "text=base62: 11 chars, decoded");
    idgen::Generator dec("preset=snowflake worker=5");
    std::string d = dec.next_text();
    CHECK(all_of_chars(d, isdigit) && dec.decode_text(d).id == std::stoll(d), "text=dec: the id in decimal");
    CHECK(code_of([&] { dec.decode_text("12a"); }) == IDGEN_EINVAL, "decode_text: a letter in dec is EINVAL");
    CHECK(code_of([&] { b36.decode_text(std::string_view("0000000000001\0", 14)); }) == IDGEN_EINVAL,
          "decode_text: an embedded NUL is EINVAL");
    b36.close();
    CHECK(code_of([&] { b36.next_text(); }) == IDGEN_ECLOSED, "next_text after close is ECLOSED");
}

/* rocketmq: every field of the id comes back from decode_text; the 56-char
 * id of an IPv6 host fits next_text's IDGEN_TEXT_MAX buffer. */
void test_rocketmq_text() {
    int64_t before = now_ms();
    idgen::Generator v4("preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=0x12345678 tz=UTC");
    std::string t = v4.next_text();
    CHECK(t.size() == 32 && all_of_chars(t, is_upper_hex), "rocketmq, IPv4: 32 upper-hex chars");
    idgen_text_parts p = v4.decode_text(t);
    CHECK(p.addr_len == 4 && p.addr[0] == 10 && p.addr[1] == 1 && p.addr[2] == 2 && p.addr[3] == 3, "rocketmq: the IP");
    CHECK(p.pid == 4660 && p.loader_hash == 0x12345678 && p.id == -1, "rocketmq: pid and loader hash, no number");
    CHECK(p.unix_ms >= before - 1 && p.unix_ms <= now_ms() + 1, "rocketmq: made now");
    std::string lower = t;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
    CHECK(v4.decode_text(lower).sequence == p.sequence, "rocketmq: hex in either case");
    CHECK(code_of([&] { v4.decode_text(t.substr(1)); }) == IDGEN_EINVAL, "rocketmq: a char short is EINVAL");
    idgen::Generator v6("preset=rocketmq ip=2001:db8::7 pid=1");
    std::string u = v6.next_text();
    CHECK(u.size() == 56 && static_cast<size_t>(IDGEN_TEXT_MAX) == u.size() + 1, "rocketmq, IPv6: 56 chars, the longest form");
    idgen_text_parts q = v6.decode_text(u);
    CHECK(q.addr_len == 16 && q.addr[0] == 0x20 && q.addr[1] == 0x01 && q.addr[15] == 7, "rocketmq, IPv6: the address");
    CHECK(code_of([&] { v6.next(); }) == IDGEN_EINVAL, "rocketmq makes no numbers");
}

void test_version_and_config() {
    CHECK(idgen::version() == IDGEN_VERSION_STRING, "version: the header's");
    CHECK(idgen::status_text(IDGEN_ECLOSED) == idgen_strerror(IDGEN_ECLOSED) &&
              idgen::status_text(IDGEN_ECLOSED) != idgen::status_text(IDGEN_EINVAL),
          "status_text: the library's text, one per code");
    CHECK(idgen::status_text(12345) == "unknown status", "status_text of an unknown code");
    char top[] = "/tmp/idgen-hpp-config-XXXXXX";
    CHECK(mkdtemp(top) != nullptr, "mkdtemp");
    std::string dir = top;
    for (int i = 0; i < 4; i++) /* a lease_dir past the first 256-byte buffer */
        dir += "/" + std::string(60, static_cast<char>('a' + i));
    std::filesystem::create_directories(dir);
    {
        idgen::Generator g("preset=snowflake worker=lease lease_dir=" + dir);
        std::string c = g.config();
        CHECK(c.size() > 256 && c.find("lease_dir=" + dir) != std::string::npos, "config: a string past the first buffer, whole");
        idgen_stats st = g.stats();
        std::string pair = "leased=" + std::to_string(st.datacenter) + "/" + std::to_string(st.worker);
        CHECK(c.find(pair) != std::string::npos, "config: the leased pair");
        idgen::Generator again(c);
        CHECK(again.config().find("lease_dir=" + dir) != std::string::npos, "config: opening the string gives one with it");
    }
    std::filesystem::remove_all(top);
    try {
        idgen::Generator bad("preset=snowflake worker=1 seq_start=x");
        CHECK(false, "a bad seq_start opens");
    } catch (const idgen::Error &e) {
        CHECK(e.code() == IDGEN_EINVAL && std::string(e.what()).find("seq_start") != std::string::npos,
              "Error: the code and the library's message naming the key");
    }
}

// runs=N: next hands out ids of runs reserved in one step; next_run hands a
// run over whole. Ids increase across both calls and batches; without runs
// next_run is one id and no freshness.
void test_runs() {
    idgen::Generator g("layout=time:41,seq:22 worker=0 runs=64");
    int64_t fresh = -1, buf[1024];
    CHECK(g.next_run(buf, 0, fresh) == 64 && fresh == 0, "next_run with no room says the longest run");
    std::vector<int64_t> ids;
    for (int i = 0; i < 5000; i++) {
        if (i % 500 == 0) {
            size_t n = g.next_run(buf, sizeof buf / sizeof buf[0], fresh);
            CHECK(n >= 1 && n <= 64 && fresh > 0 && fresh <= 1000000, "next_run: a run and its freshness (<= 1 ms)");
            ids.insert(ids.end(), buf, buf + n);
        } else if (i % 333 == 0) {
            g.next(buf, 7);
            ids.insert(ids.end(), buf, buf + 7);
        } else {
            ids.push_back(g.next());
        }
    }
    CHECK(std::is_sorted(ids.begin(), ids.end()) && std::adjacent_find(ids.begin(), ids.end()) == ids.end(),
          "runs: ids strictly increase across next, next_run and batches");
    idgen::Generator plain("layout=time:41,seq:22 worker=0");
    CHECK(plain.next_run(buf, 0, fresh) == 1, "no runs: next_run with no room says 1");
    CHECK(plain.next_run(buf, 4, fresh) == 1 && fresh == 0 && buf[0] >= 0, "no runs: one id, no freshness");
    CHECK(code_of([] { idgen::Generator("preset=sonyflake worker=0 runs=8"); }) == IDGEN_EINVAL, "runs on a 10 ms tick is EINVAL");
    CHECK(idgen_next_run(g.get(), buf, 4, nullptr) == IDGEN_EINVAL, "a NULL fresh_ns is EINVAL");
    CHECK(idgen_next_run(g.get(), nullptr, 4, &fresh) == IDGEN_EINVAL, "a NULL out with room is EINVAL");
}
