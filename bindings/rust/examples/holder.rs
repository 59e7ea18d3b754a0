//! A generator held until stdin closes: opens the configuration given as
//! the first argument, takes one id, prints the effective configuration
//! (its `leased=` pair) and waits. The fleet's mixed-language pool test
//! runs it beside C, Python, Java and Node.js holders.

use std::io::Read;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = std::env::args().nth(1).ok_or("usage: holder CONFIG")?;
    let g = idgen::Generator::open(&config)?;
    g.next()?;
    println!("{}", g.config()?);
    let mut rest = Vec::new();
    std::io::stdin().read_to_end(&mut rest)?;
    drop(g);
    Ok(())
}
