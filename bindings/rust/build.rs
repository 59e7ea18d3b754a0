//! Finds libidgen.so: in $IDGEN_LIB_DIR (the build directory of a checkout,
//! `make lib`), else through pkg-config (`idgen.pc`, installed by
//! `make install`). With IDGEN_LIB_DIR the crate's own tests, examples and
//! benches get an rpath to it, so that they run without LD_LIBRARY_PATH;
//! idgen.pc adds an rpath of its own to the programs it links.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=IDGEN_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    if let Some(dir) = env::var_os("IDGEN_LIB_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        let dir = dir.canonicalize().unwrap_or_else(|e| {
            panic!(
                "IDGEN_LIB_DIR={}: {e} (it should name the directory of libidgen.so, e.g. build/ after `make lib`)",
                dir.display()
            )
        });
        if !dir.join("libidgen.so").exists() {
            panic!("IDGEN_LIB_DIR={}: no libidgen.so there (run `make lib`)", dir.display());
        }
        println!("cargo:rerun-if-changed={}", dir.join("libidgen.so").display());
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=dylib=idgen");
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
        println!("cargo:lib_dir={}", dir.display());
        return;
    }
    match pkg_config::Config::new().atleast_version("0.1").probe("idgen") {
        Ok(lib) => {
            // pkg-config has emitted the link flags, idgen.pc's rpath
            // included (as a link argument of this crate's own targets).
            for dir in &lib.link_paths {
                println!("cargo:lib_dir={}", dir.display());
            }
        }
        Err(e) => panic!(
            "libidgen.so not found: set IDGEN_LIB_DIR to the directory that holds it \
             (build/ after `make lib`), or `make install` and let pkg-config find idgen.pc \
             (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig for a prefix it does not search).\n{e}"
        ),
    }
}
