//! The vectors every host passes (the same numbers in C, Python, Java).

use idgen::{Generator, Parts};

const SEED: i64 = 910_499_571_847_892_992;

#[test]
fn the_seed_vector_decodes_to_17_25_and_its_time() {
    for config in ["preset=snowflake worker=0", "preset=snowflake lease=off"] {
        let g = Generator::open(config).unwrap();
        let p = g.decode(SEED).unwrap();
        assert_eq!(p.id, SEED);
        assert_eq!(p.datacenter, 17, "{config}");
        assert_eq!(p.worker, 25, "{config}");
        assert_eq!(p.unix_ms, 1_505_914_988_849, "{config}");
        assert_eq!(p.sequence, 0);
        assert_eq!(p.time, 1_505_914_988_849 - 1_288_834_974_657);
        assert_eq!(g.compose(&p).unwrap(), SEED);
        assert_eq!(g.compose(&Parts { id: 12345, ..p }).unwrap(), SEED, "compose ignores id");
    }
}

#[test]
fn the_rfc_9562_uuidv7_example_and_the_ulid_spec_example() {
    let g = Generator::open("preset=uuidv7").unwrap();
    assert_eq!(g.decode_text("017f22e2-79b0-7cc3-98c4-dc0c0c07398f").unwrap().unix_ms, 1_645_557_742_000);
    assert_eq!(g.decode_text("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").unwrap().unix_ms, 1_645_557_742_000);
    let u = Generator::open("preset=ulid").unwrap();
    assert_eq!(u.decode_text("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap().unix_ms, 1_469_922_850_259);
    assert_eq!(u.decode_text("01arz3ndektsv4rrffq69g5fav").unwrap().unix_ms, 1_469_922_850_259);
}

#[test]
fn the_seed_vector_in_dec_base36_and_base62() {
    for (text_key, text) in [("dec", "910499571847892992"), ("base36", "06x155swzxs74"), ("base62", "15G63YLn9Ae")] {
        let g = Generator::open(&format!("preset=snowflake lease=off text={text_key}")).unwrap();
        let p = g.decode_text(text).unwrap();
        assert_eq!(p.id, SEED, "{text_key}");
        assert_eq!(p.unix_ms, 1_505_914_988_849, "{text_key}");
    }
}
