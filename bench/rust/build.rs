//! The bench binary runs against the library the idgen crate linked (the
//! bench build, which exports idgen_bench_noop): an rpath to its directory,
//! which idgen's build script publishes as DEP_IDGEN_LIB_DIR.

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_IDGEN_LIB_DIR");
    if let Ok(dir) = std::env::var("DEP_IDGEN_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
