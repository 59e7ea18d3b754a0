//! Every method of Generator and the crate's functions, on the generators
//! they apply to: what each returns, and that it agrees with the others.

mod common;

use std::net::IpAddr;

use common::{now_ms, TempDir};
use idgen::{Generator, Kind, LeaseState, Parts, TEXT_MAX};

/// How far an id's time may lie from the wall clock read around it: the
/// library's clock is monotonic, anchored to the wall clock at open.
const SLACK_MS: i64 = 1000;

#[test]
fn version_is_the_headers() {
    assert_eq!(idgen::version(), "0.1.0");
}

#[test]
fn next_is_increasing_and_decodes_to_the_fixed_pair_and_now() {
    let g = Generator::open("preset=snowflake datacenter=2 worker=3").unwrap();
    let before = now_ms();
    let ids: Vec<i64> = (0..10_000).map(|_| g.next().unwrap()).collect();
    let after = now_ms();
    assert!(ids[0] >= 0);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "strictly increasing");
    for &id in ids.iter().step_by(997) {
        let p = g.decode(id).unwrap();
        assert_eq!(p.id, id);
        assert_eq!((p.datacenter, p.worker, p.epoch), (2, 3, -1), "{p:?}");
        assert!(before - SLACK_MS <= p.unix_ms && p.unix_ms <= after + SLACK_MS, "{p:?} not in [{before}, {after}]");
        assert!((0..4096).contains(&p.sequence));
        assert_eq!(p.time, p.unix_ms - 1_288_834_974_657, "snowflake's epoch");
    }
}

#[test]
fn next_batch_fills_the_slice_after_next_and_empty_is_fine() {
    let g = Generator::open("preset=leaf worker=7").unwrap();
    let first = g.next().unwrap();
    let mut buf = [0i64; 5000];
    g.next_batch(&mut buf).unwrap();
    assert!(buf[0] > first);
    assert!(buf.windows(2).all(|w| w[0] < w[1]));
    g.next_batch(&mut []).unwrap();
    let v = g.next_ids(3).unwrap();
    assert_eq!(v.len(), 3);
    assert!(v[0] > buf[4999] && v[0] < v[1] && v[1] < v[2]);
    assert!(g.next_ids(0).unwrap().is_empty());
    assert_eq!(g.decode(v[2]).unwrap().worker, 7);
    assert_eq!(g.decode(v[2]).unwrap().datacenter, -1, "leaf has no datacenter field");
}

#[test]
fn compose_inverts_decode_on_every_numeric_preset() {
    for config in [
        "preset=snowflake worker=1",
        "preset=leaf worker=1",
        "preset=sonyflake worker=1",
        "preset=js53 worker=1",
        "preset=zk-session worker=1",
        "preset=snowflake layout=time:41,backwards:2,datacenter:4,worker:4,seq:12 worker=1",
    ] {
        let g = Generator::open(config).unwrap();
        let id = g.next().unwrap();
        let p = g.decode(id).unwrap();
        assert_eq!(g.compose(&p).unwrap(), id, "{config}: {p:?}");
        // From the raw time instead of unix_ms.
        let raw = Parts { unix_ms: -1, ..p };
        assert_eq!(g.compose(&raw).unwrap(), id, "{config}: raw time");
    }
    // Default: unix_ms and time -1, the rest 0, so a caller sets what it has.
    let g = Generator::open("preset=snowflake worker=0").unwrap();
    let id = g.compose(&Parts { unix_ms: 1_505_914_988_849, datacenter: 17, worker: 25, ..Parts::default() }).unwrap();
    assert_eq!(id, 910_499_571_847_892_992);
}

#[test]
fn zxid_has_epoch_and_counter_and_no_time() {
    let g = Generator::open("preset=zxid zxid_epoch=5 worker=0").unwrap();
    let id = g.next().unwrap();
    let p = g.decode(id).unwrap();
    assert_eq!(p.epoch, 5);
    assert_eq!((p.unix_ms, p.time), (-1, -1));
    assert_eq!(id >> 32, 5);
    assert_eq!(g.info().unwrap().tick_ns, 0);
}

#[test]
fn next_text_follows_the_text_key_and_decodes_back() {
    for (config, len) in [("text=dec", 0), ("text=base36", 13), ("text=base62", 11)] {
        let g = Generator::open(&format!("preset=snowflake worker=4 {config}")).unwrap();
        assert_eq!(g.info().unwrap().text_len, len, "{config}");
        let a = g.next_text().unwrap();
        let mut buf = [0u8; TEXT_MAX];
        let b = g.next_text_into(&mut buf).unwrap().to_owned();
        if len > 0 {
            assert_eq!((a.len(), b.len()), (len as usize, len as usize));
            assert!(a < b, "fixed width: sorts like the numbers");
        }
        let (pa, pb) = (g.decode_text(&a).unwrap(), g.decode_text(&b).unwrap());
        assert!(pa.id >= 0 && pa.id < pb.id, "{a} {b}");
        assert_eq!(g.decode(pa.id).unwrap().worker, 4);
        assert_eq!(pa.unix_ms, g.decode(pa.id).unwrap().unix_ms);
        if config == "text=dec" {
            assert_eq!(a, pa.id.to_string());
        }
        // A buffer exactly as long as the form's longest text and its NUL.
        let need = if len == 0 { 20 } else { len as usize + 1 };
        let mut exact = vec![0u8; need];
        assert!(g.next_text_into(&mut exact).is_ok());
    }
}

#[test]
fn uuidv7_and_ulid_make_text_of_now() {
    let g = Generator::open("preset=uuidv7").unwrap();
    let before = now_ms();
    let (a, b) = (g.next_text().unwrap(), g.next_text().unwrap());
    let after = now_ms();
    assert_eq!(a.len(), 36);
    assert_eq!(&a[14..15], "7", "version 7: {a}");
    assert!(a < b);
    let p = g.decode_text(&a).unwrap();
    assert!(before - SLACK_MS <= p.unix_ms && p.unix_ms <= after + SLACK_MS);
    assert_eq!((p.id, p.sequence, p.pid, p.loader_hash, p.ip, p.mac), (-1, -1, -1, -1, None, None));
    assert_eq!(g.config().unwrap(), "preset=uuidv7");

    let u = Generator::open("preset=ulid").unwrap();
    let (a, b) = (u.next_text().unwrap(), u.next_text().unwrap());
    assert_eq!(a.len(), 26);
    assert!(a < b);
    let t = u.decode_text(&b).unwrap().unix_ms;
    assert!(before - SLACK_MS <= t && t <= now_ms() + SLACK_MS);
    let info = u.info().unwrap();
    assert_eq!((info.kind, info.leased, info.text_len), (Kind::Ulid, false, 26));
}

#[test]
fn rocketmq_ids_carry_ip_pid_and_loader_hash() {
    let g = Generator::open("preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC").unwrap();
    let t = g.next_text().unwrap();
    assert_eq!(t.len(), 32);
    assert!(t.starts_with("0A010203" /* ip */), "{t}");
    assert_eq!(&t[8..20], "123412345678", "pid, loader hash: {t}");
    let p = g.decode_text(&t).unwrap();
    assert_eq!(p.ip, Some("10.1.2.3".parse::<IpAddr>().unwrap()));
    assert_eq!((p.pid, p.loader_hash, p.mac, p.id), (4660, 305_419_896, None, -1));
    assert!((now_ms() - p.unix_ms).abs() < 5000);
    assert_eq!(g.decode_text(&t.to_lowercase()).unwrap(), p, "hex in either case");
    assert_eq!(g.info().unwrap().kind, Kind::Rocketmq);

    let g6 = Generator::open("preset=rocketmq ip=fd00::2 pid=7 loader_hash=1").unwrap();
    let t6 = g6.next_text().unwrap();
    assert_eq!(t6.len(), 56);
    assert_eq!(g6.decode_text(&t6).unwrap().ip, Some("fd00::2".parse::<IpAddr>().unwrap()));

    let v1 = Generator::open("preset=rocketmq-v1 mac=02:fc:00:00:00:01 pid=70000").unwrap();
    let t1 = v1.next_text().unwrap();
    assert_eq!(t1.len(), 34);
    assert!(t1.starts_with("0102FC000000011170"), "version, mac, pid & 0xffff: {t1}");
    let p1 = v1.decode_text(&t1).unwrap();
    assert_eq!((p1.mac, p1.ip, p1.pid), (Some([0x02, 0xfc, 0, 0, 0, 1]), None, 4464));
    assert_eq!(p1.unix_ms % 1000, 0, "the form keeps seconds");
}

#[test]
fn info_says_what_each_generator_is() {
    let dir = TempDir::new("info");
    let cases = [
        ("preset=snowflake worker=1".to_owned(), Kind::Numeric, false, 1_000_000, 1),
        (format!("preset=snowflake worker=lease {}", dir.lease_dir()), Kind::Numeric, true, 1_000_000, 1),
        ("preset=snowflake worker=1 runs=64".to_owned(), Kind::Numeric, false, 1_000_000, 64),
        ("preset=sonyflake worker=1".to_owned(), Kind::Numeric, false, 10_000_000, 1),
        ("preset=snowflake lease=off".to_owned(), Kind::Numeric, false, 1_000_000, 1),
        ("preset=uuidv7".to_owned(), Kind::Uuidv7, false, 1_000_000, 1),
    ];
    for (config, kind, leased, tick_ns, longest_run) in cases {
        let i = Generator::open(&config).unwrap().info().unwrap();
        assert_eq!((i.kind, i.leased, i.tick_ns, i.longest_run), (kind, leased, tick_ns, longest_run), "{config}");
    }
}

#[test]
fn runs_hand_out_increasing_ids_through_next() {
    let g = Generator::open("preset=snowflake worker=2 runs=256").unwrap();
    let ids: Vec<i64> = (0..20_000).map(|_| g.next().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let batch = g.next_ids(10).unwrap();
    assert!(batch[0] > ids[ids.len() - 1]);
}

#[test]
fn stats_count_ids_and_report_a_fixed_pair() {
    let g = Generator::open("preset=snowflake datacenter=1 worker=9").unwrap();
    assert_eq!(g.stats().unwrap().issued, 0);
    g.next().unwrap();
    g.next_ids(10).unwrap();
    g.next_text().unwrap();
    let s = g.stats().unwrap();
    assert_eq!(s.issued, 12);
    assert_eq!(s.lease_state, LeaseState::None);
    assert_eq!((s.datacenter, s.worker), (1, 9));
    assert_eq!((s.fence_unix_ms, s.renewed_unix_ms, s.leases_taken), (-1, -1, 0));
    assert_eq!(s.segment_left, -1);
}

#[test]
fn a_lease_is_held_shown_in_config_and_given_back_on_drop() {
    let dir = TempDir::new("lease");
    // layout time:41,seq:22 has no datacenter or worker: a pool of one pair.
    let config = format!("layout=time:41,seq:22 worker=lease {}", dir.lease_dir());
    let g = Generator::open(&config).unwrap();
    g.next().unwrap();
    let s = g.stats().unwrap();
    assert_eq!(s.lease_state, LeaseState::Held);
    assert_eq!(s.leases_taken, 1);
    assert!(s.fence_unix_ms >= now_ms() - 1000, "{s:?}");
    assert!(g.info().unwrap().leased);
    let effective = g.config().unwrap();
    assert!(effective.contains("leased="), "{effective}");
    assert!(effective.contains(&dir.path().display().to_string()), "{effective}");
    assert_eq!(Generator::open(&config).unwrap_err().code(), idgen::Code::Worker, "the one pair is held");
    drop(g);
    let again = Generator::open(&config).expect("drop gave the pair back");
    assert!(again.next().unwrap() > 0);
    // The effective configuration opens a generator of the same layout.
    drop(again);
    let reopened = Generator::open(&effective).unwrap();
    assert!(reopened.config().unwrap().contains("leased="));
}

#[test]
fn config_resolves_and_reopens_to_the_same_layout() {
    let g = Generator::open("preset=leaf worker=12 name=orders").unwrap();
    let c = g.config().unwrap();
    assert!(c.contains("preset=leaf") && c.contains("worker=12") && c.contains("name=orders"), "{c}");
    let h = Generator::open(&c).unwrap();
    let id = g.next().unwrap();
    assert_eq!(h.decode(id).unwrap(), g.decode(id).unwrap());
    // Longer than config's first buffer (256 bytes): it grows.
    let long = format!("preset=snowflake worker=1 name={}", "n".repeat(64));
    let epoch = "epoch=2020-01-01T00:00:00Z";
    let g = Generator::open(&format!("{long} {epoch} max_drift=1s on_exhausted=borrow")).unwrap();
    assert!(g.config().unwrap().contains(&"n".repeat(64)));
}

#[test]
fn metrics_text_lists_open_generators() {
    let g = Generator::open("preset=snowflake worker=5 name=rust_metrics_test").unwrap();
    g.next().unwrap();
    let text = idgen::metrics_text().unwrap();
    assert!(text.contains("idgen_ids_issued_total"), "{text}");
    assert!(text.contains("name=\"rust_metrics_test\""), "{text}");
    drop(g);
    assert!(!idgen::metrics_text().unwrap().contains("rust_metrics_test"), "closed: its series go away");
}

#[test]
fn generator_is_send_sync_and_debug() {
    fn send_sync<T: Send + Sync + std::fmt::Debug>() {}
    send_sync::<Generator>();
    fn error_traits<T: std::error::Error + Send + Sync + Clone + 'static>() {}
    error_traits::<idgen::Error>();
    let g = Generator::open("worker=1").unwrap();
    assert!(format!("{g:?}").starts_with("Generator"));
}

#[test]
fn an_empty_config_is_the_defaults_a_leased_snowflake() {
    let g = Generator::open("").unwrap();
    let info = g.info().unwrap();
    assert_eq!((info.kind, info.leased, info.tick_ns), (Kind::Numeric, true, 1_000_000));
    let c = g.config().unwrap();
    assert!(c.contains("preset=snowflake") && c.contains("leased="), "{c}");
    let id = g.next().unwrap();
    let s = g.stats().unwrap();
    let p = g.decode(id).unwrap();
    assert_eq!((p.datacenter, p.worker), (s.datacenter, s.worker), "ids carry the leased pair");
}
