//! Times the standard pass pipeline by pass name on a generated kernel: a chain of `N`
//! if/else diamonds over a private variable kept in a stack slot, as an unoptimized front
//! end emits it. Run with `cargo run --release -p ferrocl-ir --example pass_timings [N]`.

use std::fmt::Write;
use std::time::Instant;

use ferrocl_ir::passes::PassManager;
use ferrocl_ir::{parse_module, print_module};

fn kernel(n: usize) -> String {
    let mut s = String::from(
        "kernel @k(ptr.global, i32) {\n    arg \"out\": \"int*\" global none []\n    arg \"n\": \"int\" private none []\n    ss0 = slot 4, align 4\nblock0(v0: ptr.global, v1: i32):\n    v2: ptr.private = slotaddr ss0\n    store.private v1, v2, align 4\n    jump block1\n",
    );
    let mut v = 3;
    for i in 0..n {
        let (head, then, els, join) = (1 + 3 * i, 2 + 3 * i, 3 + 3 * i, 4 + 3 * i);
        let _ = write!(
            s,
            "block{head}:\n    v{a}: ptr.private = slotaddr ss0\n    v{b}: i32 = load.private v{a}, align 4\n    v{c}: i32 = iconst {i}\n    v{d}: i1 = icmp slt v{b}, v{c}\n    brif v{d}, block{then}, block{els}\nblock{then}:\n    v{e}: i32 = iadd v{b}, v{c}\n    store.private v{e}, v{a}, align 4\n    jump block{join}\nblock{els}:\n    v{f}: i32 = imul v{b}, v{c}\n    v{g}: i32 = iadd v{f}, v{c}\n    store.private v{g}, v{a}, align 4\n    jump block{join}\n",
            a = v,
            b = v + 1,
            c = v + 2,
            d = v + 3,
            e = v + 4,
            f = v + 5,
            g = v + 6,
        );
        v += 7;
        let _ = (head, join);
    }
    let last = 1 + 3 * n;
    let _ = write!(
        s,
        "block{last}:\n    v{v}: i32 = load.private v2, align 4\n    store.global v{v}, v0, align 4\n    return\n}}\n"
    );
    s
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let text = kernel(n);
    let start = Instant::now();
    let mut m = parse_module(&text).expect("generated IR parses");
    println!("parse: {:?} for {} bytes", start.elapsed(), text.len());
    let mut pm = PassManager::standard();
    pm.verify = false;
    let start = Instant::now();
    pm.run(&mut m).expect("pipeline");
    println!("pipeline: {:?}", start.elapsed());
    for (name, t) in pm.total_by_name() {
        println!("  {name:14} {t:?}");
    }
    println!("output: {} lines", print_module(&m).lines().count());
}
