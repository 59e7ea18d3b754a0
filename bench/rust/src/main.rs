//! make bench-rust: what one id costs a Rust program, side by side in one
//! run — a bare Rust-to-Go call into libidgen (idgen_bench_noop, bench
//! build only), idgen::Generator::next, and the rs-snowflake crate (pure
//! Rust, in-process) — printed as ns and ratios. Medians of ROUNDS rounds,
//! each measuring every row in turn. Not a test: nothing here passes or
//! fails on a time.

use std::hint::black_box;
use std::os::raw::c_int;
use std::time::Instant;

use idgen::Generator;
use snowflake::SnowflakeIdGenerator;

extern "C" {
    /// The bench build of libidgen.so adds it: a bare C-to-Go call.
    fn idgen_bench_noop() -> c_int;
}

const ROUNDS: usize = 11;
const CALLS: u32 = 1_000_000;

/// ns per call of f over CALLS calls.
fn per_call(mut f: impl FnMut() -> i64) -> f64 {
    let t = Instant::now();
    let mut last = -1i64;
    for _ in 0..CALLS {
        let v = f();
        // Every row returns increasing ids (the noop returns 0 each time).
        assert!(v >= last || v == 0, "{v} after {last}");
        last = black_box(v);
    }
    t.elapsed().as_nanos() as f64 / f64::from(CALLS)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A row of the table: its label, what it calls, its figures.
struct Row<'a> {
    name: &'static str,
    call: Box<dyn FnMut() -> i64 + 'a>,
    ns: Vec<f64>,
}

fn row<'a>(name: &'static str, call: impl FnMut() -> i64 + 'a) -> Row<'a> {
    Row { name, call: Box::new(call), ns: Vec::with_capacity(ROUNDS) }
}

fn open(config: &str) -> Generator {
    Generator::open(config).unwrap_or_else(|e| panic!("open {config}: {e}"))
}

fn main() {
    // SAFETY: idgen_bench_noop takes nothing and returns 0.
    let noop = || i64::from(unsafe { idgen_bench_noop() });
    let wide = open("layout=time:41,seq:22 worker=0");
    let sf = open("preset=snowflake worker=1");
    let sf_runs = open("preset=snowflake worker=2 runs=1024");
    let wide_runs = open("layout=time:41,seq:22 worker=0 runs=1024");
    let dir = std::env::temp_dir().join(format!("idgen-rustbench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let seg = open(&format!("preset=segment name=rustbench step=auto lease_dir={}", dir.display()));
    // Borrows ticks ahead of the clock as lazy_generate does (within 10 s).
    let sf_borrow = open("preset=snowflake worker=3 on_exhausted=borrow max_drift=10s");
    let mut peer = SnowflakeIdGenerator::new(1, 1);
    let mut peer_lazy = SnowflakeIdGenerator::new(1, 2);

    let mut rows = [
        row("bare Rust->Go call (idgen_bench_noop)", noop),
        row("Generator::next, layout=time:41,seq:22", || wide.next().unwrap()),
        row("Generator::next, preset=snowflake", || sf.next().unwrap()),
        row("Generator::next, preset=snowflake runs=1024", || sf_runs.next().unwrap()),
        row("Generator::next, time:41,seq:22 runs=1024 (runs in C)", || wide_runs.next().unwrap()),
        row("Generator::next, preset=segment (runs in C)", || seg.next().unwrap()),
        row("Generator::next, snowflake on_exhausted=borrow", || sf_borrow.next().unwrap()),
        row("rs-snowflake 0.6 real_time_generate", move || peer.real_time_generate()),
        row("rs-snowflake 0.6 lazy_generate (borrows ticks)", move || peer_lazy.lazy_generate()),
    ];
    for r in rows.iter_mut() {
        per_call(&mut r.call); // warm up: threads attached, pages touched
    }
    for _ in 0..ROUNDS {
        for r in rows.iter_mut() {
            let t = per_call(&mut r.call);
            r.ns.push(t);
        }
    }
    let ns: Vec<(&str, f64)> = rows.into_iter().map(|r| (r.name, median(r.ns))).collect();
    let bare = ns[0].1;
    let snowflake_peer = ns.iter().find(|(name, _)| name.contains("real_time_generate")).map_or(f64::NAN, |r| r.1);
    println!("Rust (bench/rust; idgen {}; medians of {ROUNDS} rounds of {CALLS} calls)", idgen::version());
    for (name, t) in &ns {
        println!("  {name:<50} {t:>8.1} ns   {:>6.2}x bare call   {:>6.2}x rs-snowflake", t / bare, t / snowflake_peer);
    }
    println!(
        "  (12 sequence bits on a 1 ms tick allow 4096 ids a ms, ~244 ns an id, to every snowflake row that waits for its tick)"
    );
}
