//! Threads: 8 threads on one generator, and 8 threads each with its own
//! leased generator on one lease directory; no id twice in either.

mod common;

use std::collections::HashSet;
use std::sync::{Arc, Barrier};
use std::thread;

use common::TempDir;
use idgen::{Generator, LeaseState};

const THREADS: usize = 8;
const PER_THREAD: usize = 50_000;

/// Every id once; per thread, strictly increasing.
fn assert_unique(per_thread: &[Vec<i64>]) {
    let mut all = HashSet::with_capacity(THREADS * PER_THREAD);
    for ids in per_thread {
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "increasing within a thread");
        for &id in ids {
            assert!(id >= 0);
            assert!(all.insert(id), "duplicate id {id}");
        }
    }
    assert_eq!(all.len(), per_thread.iter().map(Vec::len).sum::<usize>());
}

#[test]
fn eight_threads_share_one_generator_without_duplicates() {
    let g = Generator::open("preset=snowflake worker=1").unwrap();
    let barrier = Barrier::new(THREADS);
    let per_thread: Vec<Vec<i64>> = thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (g, barrier) = (&g, &barrier);
                s.spawn(move || {
                    barrier.wait();
                    let mut ids = Vec::with_capacity(PER_THREAD);
                    while ids.len() < PER_THREAD {
                        if t % 2 == 0 {
                            ids.push(g.next().unwrap());
                        } else {
                            ids.extend(g.next_ids(100).unwrap());
                        }
                    }
                    ids
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_unique(&per_thread);
    assert_eq!(g.stats().unwrap().issued, (THREADS * PER_THREAD) as i64);
}

#[test]
fn an_arc_generator_moves_into_threads() {
    let g = Arc::new(Generator::open("preset=snowflake worker=2 runs=128").unwrap());
    let handles: Vec<_> = (0..THREADS)
        .map(|_| {
            let g = Arc::clone(&g);
            thread::spawn(move || (0..10_000).map(|_| g.next().unwrap()).collect::<Vec<_>>())
        })
        .collect();
    let per_thread: Vec<Vec<i64>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let mut all: Vec<i64> = per_thread.concat();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), THREADS * 10_000);
}

#[test]
fn eight_leased_generators_on_one_lease_dir_without_duplicates() {
    let dir = TempDir::new("threads");
    let config = format!("preset=snowflake worker=lease {}", dir.lease_dir());
    let barrier = Barrier::new(THREADS);
    let results: Vec<(i64, i64, Vec<i64>)> = thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                let (config, barrier) = (&config, &barrier);
                s.spawn(move || {
                    // All eight open at once, then all eight issue at once.
                    barrier.wait();
                    let g = Generator::open(config).unwrap();
                    barrier.wait();
                    let mut ids = vec![0i64; PER_THREAD / 2];
                    g.next_batch(&mut ids).unwrap();
                    ids.extend((0..PER_THREAD / 2).map(|_| g.next().unwrap()));
                    let st = g.stats().unwrap();
                    assert_eq!(st.lease_state, LeaseState::Held);
                    let last = g.decode(ids[ids.len() - 1]).unwrap();
                    assert_eq!((last.datacenter, last.worker), (st.datacenter, st.worker));
                    // Held until every thread is done issuing.
                    barrier.wait();
                    (st.datacenter, st.worker, ids)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let pairs: HashSet<(i64, i64)> = results.iter().map(|(d, w, _)| (*d, *w)).collect();
    assert_eq!(pairs.len(), THREADS, "eight different pairs: {pairs:?}");
    let per_thread: Vec<Vec<i64>> = results.into_iter().map(|(_, _, ids)| ids).collect();
    assert_unique(&per_thread);
}
