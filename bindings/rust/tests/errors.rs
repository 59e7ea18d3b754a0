//! Every status the safe API can provoke, each with the library's message,
//! and bad input: a NUL inside a string, garbage text, buffers too small.
//! (Closed: src/generator.rs's unit test, the only place a handle can be
//! closed under its owner; Forked: tests/fork.rs; Internal is a bug.)

mod common;

use common::{crc32, TempDir};
use idgen::{Code, Error, Generator, Parts};

fn err<T: std::fmt::Debug>(r: idgen::Result<T>) -> Error {
    r.expect_err("a failure")
}

fn assert_says(e: &Error, code: Code, words: &[&str]) {
    assert_eq!(e.code(), code, "{e}");
    assert_eq!(e.status(), code.status());
    assert!(!e.message().is_empty());
    assert_eq!(e.to_string(), e.message());
    for w in words {
        assert!(e.message().contains(w), "{:?} does not say {w:?}", e.message());
    }
}

#[test]
fn bad_configurations_are_invalid_and_name_the_key() {
    for (config, key) in [
        ("preset=nope", "preset"),
        ("preset=snowflake worker=99", "worker"),
        ("preset=snowflake colour=blue", "colour"),
        ("preset=snowflake worker=1 worker=2", "worker"),
        ("worker=lease lease_dir=/nonexistent/idgen", "/nonexistent/idgen"),
        ("preset=uuidv7 worker=1", "worker"),
        ("preset=snowflake layout=time:60,seq:12 worker=1", "layout"),
    ] {
        assert_says(&err(Generator::open(config)), Code::Invalid, &[key]);
    }
}

#[test]
fn a_nul_inside_a_string_is_invalid_and_never_reaches_c() {
    let e = err(Generator::open("preset=snowflake\0 worker=3"));
    assert_says(&e, Code::Invalid, &["config", "NUL", "16"]);
    let g = Generator::open("preset=uuidv7").unwrap();
    let good = g.next_text().unwrap();
    assert_says(&err(g.decode_text(&format!("{good}\0"))), Code::Invalid, &["text", "NUL"]);
}

#[test]
fn garbage_text_is_invalid() {
    let g = Generator::open("preset=uuidv7").unwrap();
    for bad in [
        "",
        "garbage",
        "017f22e2-79b0-4cc3-98c4-dc0c0c07398f", // version 4
        "017f22e279b07cc398c4dc0c0c07398f",     // no hyphens
        "{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}",
        " 017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398g",
        "017f22e2-79b0-7cc3-98c4-dc0c0c07398f\u{e9}",
    ] {
        assert_says(&err(g.decode_text(bad)), Code::Invalid, &[]);
    }
    let u = Generator::open("preset=ulid").unwrap();
    for bad in ["01ARZ3NDEKTSV4RRFFQ69G5FAI", "8ZZZZZZZZZZZZZZZZZZZZZZZZZ", "01ARZ3NDEKTSV4RRFFQ69G5FA"] {
        assert_says(&err(u.decode_text(bad)), Code::Invalid, &[]);
    }
    let n = Generator::open("preset=snowflake worker=1 text=base62").unwrap();
    for bad in ["", "0x10", "-1", "abc", "zzzzzzzzzzzzzzzzzzzz", "0000000001 "] {
        assert_says(&err(n.decode_text(bad)), Code::Invalid, &[]);
    }
    let d = Generator::open("preset=snowflake worker=1").unwrap();
    for bad in ["01", "+1", "1.0", "99999999999999999999999"] {
        assert!(matches!(err(d.decode_text(bad)).code(), Code::Invalid | Code::Range), "{bad}");
    }
}

#[test]
fn ids_outside_the_layout_do_not_decode() {
    let g = Generator::open("preset=js53 worker=1").unwrap();
    assert_says(&err(g.decode(-1)), Code::Invalid, &[]);
    assert_says(&err(g.decode(i64::MAX)), Code::Invalid, &[]);
    let t = Generator::open("preset=uuidv7").unwrap();
    assert_says(&err(t.decode(1)), Code::Invalid, &[]);
}

#[test]
fn compose_refuses_what_does_not_fit() {
    let g = Generator::open("preset=snowflake worker=1").unwrap();
    let now = common::now_ms();
    assert_says(&err(g.compose(&Parts { unix_ms: now, worker: 32, ..Parts::default() })), Code::Range, &[]);
    assert_says(&err(g.compose(&Parts { unix_ms: now, sequence: 4096, ..Parts::default() })), Code::Range, &[]);
    let leaf = Generator::open("preset=leaf worker=1").unwrap();
    assert_says(&err(leaf.compose(&Parts { unix_ms: now, datacenter: 3, ..Parts::default() })), Code::Invalid, &[]);
}

#[test]
fn numeric_calls_on_text_and_decode_only_generators_are_invalid() {
    let t = Generator::open("preset=ulid").unwrap();
    assert_says(&err(t.next()), Code::Invalid, &[]);
    assert_says(&err(t.next_ids(2)), Code::Invalid, &[]);
    let off = Generator::open("preset=snowflake lease=off").unwrap();
    assert_says(&err(off.next()), Code::Invalid, &["lease=off"]);
    assert_says(&err(off.next_text()), Code::Invalid, &["lease=off"]);
    // decoding still works there
    assert_eq!(off.decode(910_499_571_847_892_992).unwrap().worker, 25);
}

#[test]
fn a_tiny_text_buffer_is_range_and_consumes_nothing() {
    let g = Generator::open("preset=snowflake worker=1 text=base62").unwrap();
    let before = g.stats().unwrap().issued;
    for cap in [0, 1, 5, 11] {
        let mut buf = vec![0u8; cap];
        assert_says(&err(g.next_text_into(&mut buf)), Code::Range, &[]);
        assert!(buf.iter().all(|&b| b == 0), "nothing written");
    }
    assert_eq!(g.stats().unwrap().issued, before, "nothing consumed");
    let mut buf = [0u8; 12];
    assert_eq!(g.next_text_into(&mut buf).unwrap().len(), 11);
    let u = Generator::open("preset=uuidv7").unwrap();
    assert_says(&err(u.next_text_into(&mut [0u8; 36])), Code::Range, &[]);
}

#[test]
fn baidus_used_up_time_is_overflow() {
    let g = Generator::open("preset=baidu worker=0").unwrap();
    assert_says(&err(g.next()), Code::Overflow, &[]);
    assert_says(&err(g.next_batch(&mut [0; 4])), Code::Overflow, &[]);
}

#[test]
fn a_full_pool_is_worker() {
    let dir = TempDir::new("pool");
    let config = format!("layout=time:41,worker:1,seq:21 worker=lease {}", dir.lease_dir());
    let (a, b) = (Generator::open(&config).unwrap(), Generator::open(&config).unwrap());
    let (wa, wb) = (a.stats().unwrap().worker, b.stats().unwrap().worker);
    assert_ne!(wa, wb);
    assert_says(&err(Generator::open(&config)), Code::Worker, &["2"]);
}

#[test]
fn a_lease_record_ahead_of_the_clock_is_clock() {
    let dir = TempDir::new("clock");
    let config = format!("layout=time:41,seq:22 worker=lease {}", dir.lease_dir());
    Generator::open(&config).unwrap().next().unwrap();
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "lease"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    // A predecessor's record far in the future (the clock was set back).
    let body = format!("idgen-lease 1 {:020} {:03} ", 1u64 << 41, 0);
    std::fs::write(&files[0], format!("{body}{:08x}\n", crc32(body.as_bytes()))).unwrap();
    let e = err(Generator::open(&format!("{config} max_wait=20ms")));
    assert_says(&e, Code::Clock, &["max_wait"]);
}

#[test]
fn codes_describe_themselves_with_the_librarys_names() {
    assert_eq!(Code::Invalid.to_string(), Code::Invalid.describe());
    let descriptions: std::collections::HashSet<_> = [
        Code::Invalid,
        Code::Clock,
        Code::Overflow,
        Code::Closed,
        Code::Worker,
        Code::Range,
        Code::Forked,
        Code::Internal,
    ]
    .iter()
    .map(|c| c.describe())
    .collect();
    assert_eq!(descriptions.len(), 8, "one text per code");
}
