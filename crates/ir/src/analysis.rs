//! Control-flow analyses: predecessors, reverse postorder, dominator tree, natural loops.
//!
//! Dominators are computed with the iterative algorithm of Cooper, Harvey and Kennedy, "A
//! Simple, Fast Dominance Algorithm" (2001), over the reverse postorder.

use std::collections::{HashMap, HashSet};

use crate::entity::{Block, Inst, SecondaryMap};
use crate::function::Function;

/// Predecessors and successors of each placed block.
#[derive(Debug, Default)]
pub struct Cfg {
    /// For each block, the branch instructions into it with their blocks (one entry per
    /// branching instruction, even when it names the block twice).
    preds: SecondaryMap<Block, Vec<(Block, Inst)>>,
    /// For each block, its distinct successors in branch order.
    succs: SecondaryMap<Block, Vec<Block>>,
}

impl Cfg {
    /// Computes the CFG of `func`. Branch targets that are not placed are ignored.
    pub fn new(func: &Function) -> Cfg {
        let mut cfg = Cfg::default();
        for &b in func.layout.blocks() {
            let Some(t) = func.terminator(b) else {
                continue;
            };
            let mut succs = Vec::new();
            for d in func.dfg.insts[t].op.dests() {
                let s = d.block;
                if !func.layout.is_block_placed(s) || succs.contains(&s) {
                    continue;
                }
                succs.push(s);
                cfg.preds[s].push((b, t));
            }
            cfg.succs[b] = succs;
        }
        cfg
    }

    /// The predecessors of `b`.
    pub fn preds(&self, b: Block) -> &[(Block, Inst)] {
        &self.preds[b]
    }

    /// The successors of `b`.
    pub fn succs(&self, b: Block) -> &[Block] {
        &self.succs[b]
    }

    /// The one branch to loop header `h` from the loop's blocks (`in_loop`), if it has one
    /// back edge.
    pub fn single_back_edge(&self, h: Block, in_loop: &HashSet<Block>) -> Option<Inst> {
        let mut back = self.preds(h).iter().filter(|(p, _)| in_loop.contains(p));
        match (back.next(), back.next()) {
            (Some(&(_, latch)), None) => Some(latch),
            _ => None,
        }
    }
}

/// The dominator tree of the blocks reachable from the entry.
#[derive(Debug, Default)]
pub struct DomTree {
    rpo: Vec<Block>,
    /// Reverse-postorder number plus one; 0 for unreachable blocks.
    rpo_number: SecondaryMap<Block, u32>,
    idom: Vec<usize>,
}

impl DomTree {
    /// Computes dominators of `func` given its CFG.
    pub fn new(func: &Function, cfg: &Cfg) -> DomTree {
        let Some(entry) = func.layout.entry_block() else {
            return DomTree::default();
        };
        // Iterative DFS for the postorder.
        let mut post = Vec::new();
        let mut seen = SecondaryMap::<Block, bool>::new();
        let mut stack = vec![(entry, 0usize)];
        seen[entry] = true;
        while let Some(&mut (b, ref mut i)) = stack.last_mut() {
            let succs = cfg.succs(b);
            if *i < succs.len() {
                let s = succs[*i];
                *i += 1;
                if !seen[s] {
                    seen[s] = true;
                    stack.push((s, 0));
                }
            } else {
                post.push(b);
                stack.pop();
            }
        }
        post.reverse();
        let rpo = post;
        let mut rpo_number = SecondaryMap::new();
        for (i, &b) in rpo.iter().enumerate() {
            rpo_number[b] = i as u32 + 1;
        }
        const NONE: usize = usize::MAX;
        let mut idom = vec![NONE; rpo.len()];
        idom[0] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for i in 1..rpo.len() {
                let mut new = NONE;
                for &(p, _) in cfg.preds(rpo[i]) {
                    let pn = rpo_number[p];
                    if pn == 0 || idom[pn as usize - 1] == NONE {
                        continue;
                    }
                    let pi = pn as usize - 1;
                    new = if new == NONE {
                        pi
                    } else {
                        intersect(&idom, pi, new)
                    };
                }
                if new != idom[i] {
                    idom[i] = new;
                    changed = true;
                }
            }
        }
        DomTree {
            rpo,
            rpo_number,
            idom,
        }
    }

    fn index(&self, b: Block) -> Option<usize> {
        let n = self.rpo_number[b];
        (n != 0).then(|| n as usize - 1)
    }

    /// The reachable blocks in reverse postorder (the entry first).
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// Whether `b` is reachable from the entry.
    pub fn is_reachable(&self, b: Block) -> bool {
        self.rpo_number[b] != 0
    }

    /// The immediate dominator of `b` (`None` for the entry and unreachable blocks).
    pub fn idom(&self, b: Block) -> Option<Block> {
        let i = self.index(b)?;
        (i != 0).then(|| self.rpo[self.idom[i]])
    }

    /// Whether `a` dominates `b` (every block dominates itself). False when either is
    /// unreachable.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let (Some(ai), Some(bi)) = (self.index(a), self.index(b)) else {
            return false;
        };
        let mut i = bi;
        loop {
            if i == ai {
                return true;
            }
            if i == 0 || i < ai {
                return false;
            }
            i = self.idom[i];
        }
    }

    /// The children of each block in the dominator tree, in reverse postorder.
    pub fn children(&self) -> HashMap<Block, Vec<Block>> {
        let mut c: HashMap<Block, Vec<Block>> = HashMap::new();
        for (i, &b) in self.rpo.iter().enumerate().skip(1) {
            c.entry(self.rpo[self.idom[i]]).or_default().push(b);
        }
        c
    }
}

fn intersect(idom: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while a > b {
            a = idom[a];
        }
        while b > a {
            b = idom[b];
        }
    }
    a
}

/// A natural loop: a header and the blocks that reach a back edge to it without passing it.
#[derive(Debug, Clone)]
pub struct Loop {
    /// The header, which dominates every block of the loop.
    pub header: Block,
    /// The blocks, the header included.
    pub blocks: Vec<Block>,
    /// The loop that contains this one, as an index into `LoopInfo::loops`.
    pub parent: Option<usize>,
}

/// The natural loops of a function, innermost last within each nest.
#[derive(Debug, Default)]
pub struct LoopInfo {
    /// The loops, outer loops before the loops they contain.
    pub loops: Vec<Loop>,
}

impl LoopInfo {
    /// Finds the natural loops: one per header, merging all back edges to it.
    pub fn new(cfg: &Cfg, dom: &DomTree) -> LoopInfo {
        let mut loops = Vec::new();
        // The loop (index plus one) whose walk last took each block: membership in constant
        // time, so finding a loop costs its blocks and their edges.
        let mut taken = SecondaryMap::<Block, usize>::new();
        for &h in dom.rpo() {
            let latches: Vec<Block> = cfg
                .preds(h)
                .iter()
                .map(|&(p, _)| p)
                .filter(|&p| dom.dominates(h, p))
                .collect();
            if latches.is_empty() {
                continue;
            }
            let stamp = loops.len() + 1;
            taken[h] = stamp;
            let mut blocks = vec![h];
            let mut work = latches;
            while let Some(b) = work.pop() {
                if taken[b] == stamp || !dom.is_reachable(b) {
                    continue;
                }
                taken[b] = stamp;
                blocks.push(b);
                work.extend(cfg.preds(b).iter().map(|&(p, _)| p));
            }
            loops.push(Loop {
                header: h,
                blocks,
                parent: None,
            });
        }
        // Headers in reverse postorder put outer loops first, and natural loops with distinct
        // headers are nested or disjoint: the parent is the last earlier loop that contains
        // the header, which a sweep marking each loop's blocks in order finds.
        let mut innermost = SecondaryMap::<Block, usize>::new();
        for (i, l) in loops.iter_mut().enumerate() {
            l.parent = innermost[l.header].checked_sub(1);
            for &b in &l.blocks {
                innermost[b] = i + 1;
            }
        }
        LoopInfo { loops }
    }
}
