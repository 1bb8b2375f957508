//! Delta reduction of a failing program (after Zeller and Hildebrandt's ddmin, TSE 2002, and
//! Csmith's C-Reduce in spirit, on the program tree rather than its text): statements are
//! deleted, compound statements replaced by a body, loops unrolled to one trip, guards
//! dropped and expressions replaced by an operand or a constant, each edit kept only where the
//! failure keeps its class. Every edit preserves what [`crate::gen`] guarantees (no edit moves
//! code into another context), so the reduced program is still well defined.

use std::time::Instant;

use crate::program::{Expr, Guard, Helper, Place, Program, Stmt, Trips};

/// Reduces `program` while `interesting` holds of it, until no edit helps or `deadline`.
/// Returns the smallest program found and the number of candidates tried.
pub fn reduce(
    program: &Program,
    deadline: Instant,
    interesting: &mut dyn FnMut(&Program) -> bool,
) -> (Program, usize) {
    let mut best = program.clone();
    let mut tried = 0;
    // The statement passes run to a fixed point before the expression passes, which try
    // many more edits: a program is first cut to the statements the failure needs.
    'passes: loop {
        let mut progress = false;
        for pass in [Pass::Delete, Pass::Unwrap, Pass::Expressions, Pass::Helpers] {
            if progress && matches!(pass, Pass::Expressions) {
                continue 'passes;
            }
            let mut k = 0;
            loop {
                if Instant::now() >= deadline {
                    return (best, tried);
                }
                let Some(candidate) = edit(&best, pass, k) else {
                    break;
                };
                if candidate == best {
                    k += 1;
                    continue;
                }
                tried += 1;
                if interesting(&candidate) {
                    best = candidate;
                    progress = true;
                } else {
                    k += 1;
                }
            }
        }
        if !progress {
            return (best, tried);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// Delete the k-th statement.
    Delete,
    /// Replace the k/3-th statement by one of its bodies (k%3 picks which).
    Unwrap,
    /// The k/4-th expression node replaced by its k%4-th simplification.
    Expressions,
    /// Helper k/1 emptied.
    Helpers,
}

/// The program with edit `k` of `pass` applied, or `None` where `k` is past the last edit.
/// An edit that does not apply to its target gives the program unchanged.
fn edit(p: &Program, pass: Pass, k: usize) -> Option<Program> {
    let mut q = p.clone();
    match pass {
        Pass::Delete => {
            let mut n = k;
            on_stmt(&mut q.body, &mut n, &mut |v, i| {
                v.remove(i);
            })
            .then_some(q)
        }
        Pass::Unwrap => {
            let mut n = k / 3;
            let which = k % 3;
            on_stmt(&mut q.body, &mut n, &mut |v, i| unwrap(v, i, which)).then_some(q)
        }
        Pass::Expressions => {
            let mut n = k / 4;
            let which = k % 4;
            let mut found = false;
            for root in roots(&mut q) {
                if let Some(e) = nth_node(root, &mut n) {
                    if let Some(r) = simpler(e, which) {
                        *e = r;
                    }
                    found = true;
                    break;
                }
            }
            found.then_some(q)
        }
        Pass::Helpers => {
            let h = q.helpers.get_mut(k)?;
            *h = Helper {
                steps: Vec::new(),
                looped: None,
                ret: Expr::Param(0),
            };
            Some(q)
        }
    }
}

/// Applies `f` to the list and index of the `n`-th statement in pre-order; false where there
/// are fewer.
fn on_stmt(body: &mut Vec<Stmt>, n: &mut usize, f: &mut dyn FnMut(&mut Vec<Stmt>, usize)) -> bool {
    for i in 0..body.len() {
        if *n == 0 {
            f(body, i);
            return true;
        }
        *n -= 1;
        let hit = match &mut body[i] {
            Stmt::If { then, els, .. } => on_stmt(then, n, f) || on_stmt(els, n, f),
            Stmt::For { body, .. } | Stmt::Block { body, .. } | Stmt::Exchange { body, .. } => {
                on_stmt(body, n, f)
            }
            _ => false,
        };
        if hit {
            return true;
        }
    }
    false
}

/// Replaces statement `i` of `v` by a simpler form: an `if` by its then (0) or else (1)
/// branch, a loop by one trip of its body (its `break`s dropped) and that trip by its body
/// once nothing reads the counter, an exchange's guard by
/// none, a loop's trip count by a constant (2).
fn unwrap(v: &mut Vec<Stmt>, i: usize, which: usize) {
    let s = v[i].clone();
    let replacement: Option<Vec<Stmt>> = match (s, which) {
        (Stmt::If { then, .. }, 0) => Some(then),
        (Stmt::If { els, .. }, 1) => Some(els),
        // A one-trip loop whose counter its body no longer reads: its body alone.
        (Stmt::Block { counter, body }, 0) if !reads_counter(&mut body.clone(), counter) => {
            Some(body)
        }
        (Stmt::For { counter, body, .. }, 0) => Some(vec![Stmt::Block {
            counter,
            body: without_breaks(body),
        }]),
        (
            Stmt::For {
                counter,
                trips: Trips::Mod(_) | Trips::N,
                body,
            },
            2,
        ) => Some(vec![Stmt::For {
            counter,
            trips: Trips::Const(2),
            body,
        }]),
        (
            Stmt::Exchange {
                value,
                guard: Guard::Cond(_) | Guard::Ne(_),
                body,
            },
            0,
        ) => Some(vec![Stmt::Exchange {
            value,
            guard: Guard::All,
            body,
        }]),
        _ => None,
    };
    if let Some(r) = replacement {
        v.splice(i..=i, r);
    }
}

/// Whether a statement of `body` reads the counter of loop `counter`.
fn reads_counter(body: &mut [Stmt], counter: u32) -> bool {
    let mut roots = Vec::new();
    stmt_roots(body, &mut roots);
    fn reads(e: &mut Expr, counter: u32) -> bool {
        matches!(e, Expr::Counter(k) if *k == counter)
            || e.children_mut().into_iter().any(|c| reads(c, counter))
    }
    roots.into_iter().any(|e| reads(e, counter))
}

/// `body` without the `break`s that leave its loop (those of nested loops stay).
fn without_breaks(body: Vec<Stmt>) -> Vec<Stmt> {
    body.into_iter()
        .filter(|s| !matches!(s, Stmt::Break(_)))
        .map(|s| match s {
            Stmt::If { cond, then, els } => Stmt::If {
                cond,
                then: without_breaks(then),
                els: without_breaks(els),
            },
            Stmt::Block { counter, body } => Stmt::Block {
                counter,
                body: without_breaks(body),
            },
            Stmt::Exchange { value, guard, body } => Stmt::Exchange {
                value,
                guard,
                body: without_breaks(body),
            },
            s => s,
        })
        .collect()
}

/// Every expression the program holds at the top of a tree, in a fixed order.
fn roots(p: &mut Program) -> Vec<&mut Expr> {
    let mut out: Vec<&mut Expr> = Vec::new();
    stmt_roots(&mut p.body, &mut out);
    for v in &mut p.vars {
        out.push(&mut v.init);
    }
    out.extend(p.fvars.iter_mut());
    for l in p.qvars.iter_mut().chain(p.wvars.iter_mut()) {
        out.extend(l.iter_mut());
    }
    out.extend(p.fields.iter_mut());
    out.push(&mut p.private_init);
    for h in &mut p.helpers {
        out.extend(h.steps.iter_mut());
        out.extend(h.looped.iter_mut());
        out.push(&mut h.ret);
    }
    out
}

fn stmt_roots<'a>(body: &'a mut [Stmt], out: &mut Vec<&'a mut Expr>) {
    for s in body {
        match s {
            Stmt::Assign(place, e) => {
                if let Place::Private(i) = place {
                    out.push(i);
                }
                out.push(e);
            }
            Stmt::Vector { args, .. } => out.extend(args.iter_mut()),
            Stmt::If { cond, then, els } => {
                out.push(cond);
                stmt_roots(then, out);
                stmt_roots(els, out);
            }
            Stmt::For { trips, body, .. } => {
                if let Trips::Mod(e) = trips {
                    out.push(e);
                }
                stmt_roots(body, out);
            }
            Stmt::Block { body, .. } => stmt_roots(body, out),
            Stmt::Break(c) => out.push(c),
            Stmt::Exchange { value, guard, body } => {
                out.push(value);
                if let Guard::Cond(c) = guard {
                    out.push(c);
                }
                stmt_roots(body, out);
            }
            Stmt::Narrow {
                value,
                guard,
                stored,
                ..
            } => {
                out.push(value);
                if let Guard::Cond(c) = guard {
                    out.push(c);
                }
                out.push(stored);
            }
            Stmt::LocalAtomic { value, .. } => out.push(value),
            Stmt::GlobalAtomic { value, .. } => out.push(value),
            Stmt::Collective { value, index, .. } => {
                out.push(value);
                out.push(index);
            }
            Stmt::Gather { row, .. } | Stmt::Run { row, .. } => out.push(row),
            Stmt::SubGroup { value, index, .. } => {
                out.push(value);
                out.push(index);
            }
            Stmt::HelperExchange { value, .. } => out.push(value),
            Stmt::Return { cond, value } => {
                out.push(cond);
                out.push(value);
            }
            Stmt::Bytes { index, operand, .. } => {
                out.push(index);
                out.push(operand);
            }
            Stmt::Barrier => {}
        }
    }
}

/// The `n`-th node of `e` in pre-order, `n` counting down across calls.
fn nth_node<'a>(e: &'a mut Expr, n: &mut usize) -> Option<&'a mut Expr> {
    if *n == 0 {
        return Some(e);
    }
    *n -= 1;
    for c in e.children_mut() {
        if let Some(x) = nth_node(c, n) {
            return Some(x);
        }
    }
    None
}

/// Simplification `which` of `e`: a constant (0, 1), or its operand `which - 2` where that
/// has its type.
fn simpler(e: &Expr, which: usize) -> Option<Expr> {
    let float = e.is_float();
    match which {
        0 if float => Some(Expr::FConst(0.0)),
        0 => Some(Expr::Const(0)),
        1 if float => Some(Expr::FConst(1.0)),
        1 => Some(Expr::Const(1)),
        _ => {
            let c = *e.children().get(which - 2)?;
            (c.is_float() == float).then(|| c.clone())
        }
    }
}
