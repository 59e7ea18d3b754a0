//! The rocketmq crate's own message ids, made by its message builder (its
//! `UNIQ_ID_GENERATOR`, reached the way a producer reaches it), read back by
//! idgen's `rocketmq-v1` preset field for field.
//!
//! The crate's layout (src/model/message_id.rs of rocketmq 5.0.0):
//! `01` + 6 bytes MAC + the pid's low 2 bytes + 4 bytes of time + a 4-byte
//! counter that starts at 1. Its time field is *not* the v1 definition (the
//! seconds since 2021-01-01 UTC that the Java and Node.js clients write): it
//! is the milliseconds since the first of the current month, UTC. idgen reads
//! the field as v1 defines it; the test pins both readings down.

use idgen::Generator;
use rocketmq::model::message::{Message, MessageBuilder};

/// 2021-01-01T00:00:00Z, the v1 epoch, in ms since 1970.
const V1_EPOCH_MS: i64 = 1_609_459_200_000;

fn their_id() -> String {
    let mut m = MessageBuilder::builder()
        .set_topic("interop")
        .set_body(b"x".to_vec())
        .build()
        .expect("a message with a topic and a body builds");
    m.take_message_id()
}

fn hex_field(id: &str, from: usize, to: usize) -> u64 {
    u64::from_str_radix(&id[from..to], 16).expect("hex")
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// The first of this month, 00:00 UTC, in ms since 1970 (civil-from-days).
fn month_start_ms(now_ms: i64) -> i64 {
    let days = now_ms.div_euclid(86_400_000);
    // Howard Hinnant's days -> (y, m, d); only the day of the month is needed.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    (days - (d - 1)) * 86_400_000
}

#[test]
fn idgen_reads_the_rust_clients_ids_field_for_field() {
    let g = Generator::open("preset=rocketmq-v1").expect("open");
    let mut last_seq = 0i64;
    for _ in 0..200 {
        let before = now_ms();
        let theirs = their_id();
        let after = now_ms();
        assert_eq!(theirs.len(), 34, "{theirs}");
        assert_eq!(&theirs[..2], "01", "version byte: {theirs}");
        let p = g
            .decode_text(&theirs)
            .expect("idgen decodes the client's id");

        // MAC: bytes 1..7 as the client wrote them.
        let mac: Vec<u8> = (0..6)
            .map(|i| hex_field(&theirs, 2 + 2 * i, 4 + 2 * i) as u8)
            .collect();
        assert_eq!(
            p.mac.expect("rocketmq-v1 carries a MAC").to_vec(),
            mac,
            "{theirs}"
        );
        // pid: the crate writes `process::id() as u16`.
        assert_eq!(p.pid, i64::from(std::process::id() as u16), "{theirs}");
        assert_eq!(p.pid as u64, hex_field(&theirs, 14, 18));
        // sequence: the crate's counter, one more for every message built.
        let seq = hex_field(&theirs, 26, 34) as i64;
        assert_eq!(p.sequence, seq, "{theirs}");
        if last_seq > 0 {
            assert_eq!(seq, last_seq + 1, "the counter goes up by one: {theirs}");
        }
        last_seq = seq;
        // time: idgen reads v1's seconds since 2021-01-01 ...
        let field = hex_field(&theirs, 18, 26) as i64;
        assert_eq!(p.unix_ms, V1_EPOCH_MS + field * 1000, "{theirs}");
        // ... and the crate wrote ms since the first of the month (whole
        // seconds: it multiplies a seconds difference by 1000).
        assert_eq!(field % 1000, 0, "{theirs}");
        let written = month_start_ms(before) + field;
        assert!(
            written >= before - 1000 && written <= after,
            "{theirs}: time field {field} read as ms since the month's start is {written}, made in [{before}, {after}]"
        );
        assert_eq!(p.id, -1);
        assert_eq!(p.loader_hash, -1);
        assert!(p.ip.is_none());
    }
}

#[test]
fn with_the_clients_mac_our_v1_ids_share_its_prefix() {
    // The crate's MAC is the first interface the mac_address crate lists
    // with a hardware address, up or not (on a host with ifb0 before eth0
    // it is ifb0's); idgen's mac=auto takes an interface that is up. Given
    // the client's MAC, idgen writes the client's 01 + MAC + pid bytes.
    let theirs = their_id();
    let mac: Vec<String> = (0..6)
        .map(|i| theirs[2 + 2 * i..4 + 2 * i].to_string())
        .collect();
    let g = Generator::open(&format!("preset=rocketmq-v1 mac={}", mac.join(":"))).expect("open");
    for _ in 0..50 {
        let ours = g.next_text().expect("next_text");
        assert_eq!(ours.len(), 34, "{ours}");
        assert_eq!(
            &theirs[..18],
            &ours[..18],
            "01 + MAC + pid: {ours} vs {theirs}"
        );
        let back = g.decode_text(&ours).expect("decode ours");
        let t = hex_field(&ours, 18, 26) as i64;
        assert_eq!(back.unix_ms, V1_EPOCH_MS + t * 1000);
        assert_eq!(back.sequence as u64, hex_field(&ours, 26, 34));
    }
}
