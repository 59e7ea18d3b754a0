//! In a child forked after the library was loaded every call is
//! Code::Forked at once (the library's shim never enters Go there). A test
//! binary of its own: the fork copies only the forking thread.

use idgen::{Code, Generator};

extern "C" {
    fn fork() -> i32;
    fn waitpid(pid: i32, status: *mut i32, options: i32) -> i32;
    fn _exit(code: i32) -> !;
}

/// 0 when every call in the child is Forked with a message, else the step
/// that was not.
fn in_child(g: &Generator) -> i32 {
    let forked = |e: idgen::Error| e.code() == Code::Forked && e.status() == -7 && !e.message().is_empty();
    if !g.next().is_err_and(forked) {
        return 1;
    }
    if !g.next_ids(2).is_err_and(forked) {
        return 2;
    }
    if !g.stats().is_err_and(forked) {
        return 3;
    }
    if !Generator::open("preset=snowflake worker=2").is_err_and(forked) {
        return 4;
    }
    if !g.decode(910_499_571_847_892_992).is_err_and(forked) {
        return 5;
    }
    0
}

#[test]
fn a_forked_child_gets_forked() {
    let g = Generator::open("preset=snowflake worker=1").unwrap();
    let before = g.next().unwrap();
    // SAFETY: the child runs only in_child (the library's calls return at
    // once there; glibc's malloc is fork-safe) and leaves with _exit,
    // without running destructors or the test harness.
    let pid = unsafe { fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let code = in_child(&g);
        // SAFETY: ends the child at once.
        unsafe { _exit(code) };
    }
    let mut status = 0;
    // SAFETY: waits for the child just made.
    assert_eq!(unsafe { waitpid(pid, &mut status, 0) }, pid);
    assert_eq!(status & 0x7f, 0, "the child was killed by signal {}", status & 0x7f);
    assert_eq!((status >> 8) & 0xff, 0, "step {} in the child was not Code::Forked", (status >> 8) & 0xff);
    assert!(g.next().unwrap() > before, "the parent goes on");
}
