//! Load elimination keeps results on random straight-line sequences of loads and stores
//! through pointers that may or may not alias at run time (constant offsets from one base,
//! and offsets computed from an argument), of several types.

use ferrocl_ir::interp::{Interpreter, Val};
use ferrocl_ir::passes::load_elim::load_elim;
use ferrocl_ir::*;

#[test]
fn random_access_sequences_keep_their_results() {
    let mut state = 0x1357_9bdf_2468_ace0u64;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut removed_total = 0;
    for case in 0..400 {
        let mut m = Module::new();
        let g = Type::ptr(AddrSpace::Global);
        let f = m.add_function(
            "f",
            Signature::new(&[g, Type::I64, Type::I64], Some(Type::I64)),
        );
        let mut b = FunctionBuilder::new(&mut m.funcs[f]);
        let e = b.create_entry_block();
        let ps = b.block_params(e).to_vec();
        // Pointers: base + 0, 1, 4, 6, 8 (constants), base + a, base + c (arguments).
        let mut ptrs = vec![ps[0]];
        for off in [1, 4, 6, 8] {
            let k = b.iconst(Type::I64, off);
            ptrs.push(b.ptradd(ps[0], k));
        }
        ptrs.push(b.ptradd(ps[0], ps[1]));
        ptrs.push(b.ptradd(ps[0], ps[2]));
        let mut acc = b.iconst(Type::I64, 0);
        let mut vals32 = vec![b.iconst(Type::I32, 5)];
        for _ in 0..12 {
            let p = ptrs[below(ptrs.len())];
            match below(4) {
                0 | 1 => {
                    let ty = [Type::I32, Type::I64, Type::I8][below(3)];
                    let x = b.load(ty, p, 1, false);
                    let x64 = if ty == Type::I64 {
                        x
                    } else {
                        b.convert(ConvOp::Zext, x, Type::I64)
                    };
                    let k = b.iconst(Type::I64, 31);
                    let shifted = b.imul(acc, k);
                    acc = b.iadd(shifted, x64);
                    if ty == Type::I32 {
                        vals32.push(x);
                    }
                }
                2 => {
                    let x = vals32[below(vals32.len())];
                    let one = b.iconst(Type::I32, 1 + below(9) as i64);
                    let y = b.iadd(x, one);
                    b.store(y, p, 1, false);
                }
                _ => {
                    let y = b.iconst(Type::I64, below(1000) as i64);
                    b.store(y, p, 1, false);
                }
            }
        }
        b.ret(Some(acc));
        b.finish();
        verify_module(&m).expect("valid");
        let mut opt = m.clone();
        load_elim(&mut opt.funcs[f]);
        verify_module(&opt).unwrap_or_else(|e| panic!("{e:?}\n{opt}"));
        let count = |m: &Module| {
            m.funcs[f]
                .layout
                .block_insts(m.funcs[f].layout.entry_block().expect("entry"))
                .len()
        };
        removed_total += count(&m) - count(&opt);
        // Offsets that alias the constant ones, overlap them partly, or miss them.
        for (a, c) in [(0, 4), (4, 8), (2, 6), (8, 8), (12, 1), (0, 0)] {
            let run = |m: &Module| {
                let mut it = Interpreter::new(m);
                let buf = it.memory().alloc((0..32u8).collect());
                let r = it
                    .call(f, &[Val::scalar(buf), Val::scalar(a), Val::scalar(c)])
                    .expect("runs");
                let mem = it.memory().region(buf).expect("buffer").to_vec();
                (r, mem)
            };
            assert_eq!(
                run(&opt),
                run(&m),
                "case {case} a={a} c={c}\n{m}\n--- after:\n{opt}"
            );
        }
    }
    assert!(removed_total > 150, "only {removed_total} loads removed");
}
