//! The deepest programs the compiler's caps accept (`parse::MAX_DEPTH` levels of nesting,
//! `parse::MAX_OPS` chained operators in one statement), one of each kind of recursion the
//! compiler has: what the stack the compiler runs on must hold (`ferrocl_clc::stack`). Shared
//! by the robustness tests and `examples/stack_need.rs`, which measures them.

#![allow(dead_code)]

/// Makes a case's program at nesting (or chain length) `n`.
pub type Make = fn(usize) -> String;

/// Each case: its name and its program.
pub const CASES: &[(&str, Make)] = &[
    ("parentheses", |n| {
        expr(&format!("{}x{}", "(".repeat(n), ")".repeat(n)))
    }),
    ("casts", |n| expr(&format!("{}x", "(int)".repeat(n)))),
    ("unary minus", |n| expr(&format!("{}x", "- ".repeat(n)))),
    ("calls", |n| {
        format!(
            "int f(int a) {{ return a; }}\n{}",
            expr(&format!("{}x{}", "f(".repeat(n), ")".repeat(n)))
        )
    }),
    ("subscripts", |n| {
        expr(&format!("{}0{}", "o[".repeat(n), "]".repeat(n)))
    }),
    ("conditionals", |n| {
        expr(&format!("{}x", "x ? 1 : ".repeat(n)))
    }),
    ("assignments", |n| stmt(&format!("{}x;", "x = ".repeat(n)))),
    ("sum", |n| expr(&vec!["x"; n + 1].join(" + "))),
    ("mixed operators", |n| {
        let ops = ["+", "*", "-", "<<", "|", "^", "&", "/"];
        let mut s = String::from("x");
        for i in 0..n {
            s.push_str(&format!(" {} x", ops[i % ops.len()]));
        }
        expr(&s)
    }),
    ("logical and", |n| expr(&vec!["x"; n + 1].join(" && "))),
    ("logical mix", |n| {
        let mut s = String::from("x");
        for i in 0..n {
            s.push_str(if i % 2 == 0 { " && x" } else { " || x" });
        }
        expr(&s)
    }),
    ("comma", |n| {
        expr(&format!("({})", vec!["x"; n + 1].join(", ")))
    }),
    ("blocks", |n| {
        stmt(&format!("{}x = 1;{}", "{".repeat(n), "}".repeat(n)))
    }),
    ("ifs", |n| stmt(&format!("{}x = 1;", "if (x) ".repeat(n)))),
    ("else ifs", |n| {
        let mut s = String::from("if (x == 0) x = 1;");
        for i in 1..n {
            s.push_str(&format!(" else if (x == {i}) x = {i};"));
        }
        stmt(&s)
    }),
    ("loops", |n| {
        stmt(&format!("{}x++;", "while (x--) ".repeat(n)))
    }),
    ("initializer braces", |n| {
        stmt(&format!("int a = {}1{};", "{".repeat(n), "}".repeat(n)))
    }),
    ("constant sum", |n| {
        format!(
            "__constant int c = {};\n__kernel void k(__global int *o) {{ o[0] = c; }}",
            vec!["1"; n + 1].join(" + ")
        )
    }),
    ("array size", |n| {
        stmt(&format!(
            "int a[{}]; a[0] = 1; x = a[0];",
            vec!["1"; n + 1].join(" + ")
        ))
    }),
    ("pointers", |n| {
        stmt(&format!("int {}p = 0;", "*".repeat(n)))
    }),
];

fn stmt(body: &str) -> String {
    format!("__kernel void k(__global int *o, int x) {{ {body} o[0] = x; }}")
}

fn expr(e: &str) -> String {
    stmt(&format!("o[0] = {e};"))
}
