//! The repository README's Rust examples are doc-tested: each ```rust block
//! there must appear, byte for byte, in this crate's README.md, whose
//! blocks run as doctests (src/lib.rs includes it).

use std::path::Path;

fn rust_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```rust") => current = Some(String::new()),
            (Some(b), "```") => {
                blocks.push(std::mem::take(b));
                current = None;
            }
            (Some(b), _) => {
                b.push_str(line);
                b.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn the_repository_readme_shows_only_tested_rust() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let Ok(root) = std::fs::read_to_string(here.join("../../README.md")) else {
        // Built from the packaged crate, outside the repository.
        return;
    };
    let ours = std::fs::read_to_string(here.join("README.md")).unwrap();
    let shown = rust_blocks(&root);
    assert!(!shown.is_empty(), "README.md has a Rust section with an example");
    let tested = rust_blocks(&ours);
    for block in shown {
        assert!(tested.contains(&block), "README.md's block is not in bindings/rust/README.md:\n{block}");
    }
}
