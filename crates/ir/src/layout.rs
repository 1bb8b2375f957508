//! The order of blocks in a function and of instructions in each block.

use crate::entity::{Block, Inst, SecondaryMap};

/// Block order and instruction order. The first block is the entry block.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Layout {
    blocks: Vec<Block>,
    insts: SecondaryMap<Block, Vec<Inst>>,
    inst_block: SecondaryMap<Inst, Option<Block>>,
    placed: SecondaryMap<Block, bool>,
}

impl Layout {
    /// An empty layout.
    pub fn new() -> Self {
        Self::default()
    }

    /// The blocks in order.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// The entry block, if the function has a body.
    pub fn entry_block(&self) -> Option<Block> {
        self.blocks.first().copied()
    }

    /// Whether `block` is placed.
    pub fn is_block_placed(&self, block: Block) -> bool {
        self.placed[block]
    }

    /// Places `block` last.
    pub fn append_block(&mut self, block: Block) {
        assert!(!self.placed[block], "{block} placed twice");
        self.placed[block] = true;
        self.blocks.push(block);
    }

    /// Places `block` right after `after`.
    pub fn insert_block_after(&mut self, block: Block, after: Block) {
        assert!(!self.placed[block], "{block} placed twice");
        let i = self
            .blocks
            .iter()
            .position(|&b| b == after)
            .expect("anchor block not placed");
        self.placed[block] = true;
        self.blocks.insert(i + 1, block);
    }

    /// Places `blocks`, in order, right after `after`.
    pub fn insert_blocks_after(&mut self, blocks: &[Block], after: Block) {
        let i = self
            .blocks
            .iter()
            .position(|&b| b == after)
            .expect("anchor block not placed");
        for &block in blocks {
            assert!(!self.placed[block], "{block} placed twice");
            self.placed[block] = true;
        }
        self.blocks.splice(i + 1..i + 1, blocks.iter().copied());
    }

    /// Removes `block` and its instructions from the layout.
    pub fn remove_block(&mut self, block: Block) {
        if !self.placed[block] {
            return;
        }
        self.placed[block] = false;
        self.blocks.retain(|&b| b != block);
        for inst in std::mem::take(&mut self.insts[block]) {
            self.inst_block[inst] = None;
        }
    }

    /// Removes several blocks and their instructions from the layout at once.
    pub fn remove_blocks(&mut self, blocks: &[Block]) {
        let mut gone = SecondaryMap::<Block, bool>::new();
        for &b in blocks {
            if self.placed[b] {
                gone[b] = true;
                self.placed[b] = false;
                for inst in std::mem::take(&mut self.insts[b]) {
                    self.inst_block[inst] = None;
                }
            }
        }
        self.blocks.retain(|&b| !gone[b]);
    }

    /// The instructions of `block` in order.
    pub fn block_insts(&self, block: Block) -> &[Inst] {
        &self.insts[block]
    }

    /// The last instruction of `block`.
    pub fn last_inst(&self, block: Block) -> Option<Inst> {
        self.insts[block].last().copied()
    }

    /// The block `inst` is placed in.
    pub fn inst_block(&self, inst: Inst) -> Option<Block> {
        self.inst_block[inst]
    }

    /// Places `inst` at the end of `block`.
    pub fn append_inst(&mut self, inst: Inst, block: Block) {
        assert!(self.inst_block[inst].is_none(), "{inst} placed twice");
        self.insts[block].push(inst);
        self.inst_block[inst] = Some(block);
    }

    /// Places `inst` at position `index` of `block`.
    pub fn insert_inst_at(&mut self, inst: Inst, block: Block, index: usize) {
        assert!(self.inst_block[inst].is_none(), "{inst} placed twice");
        self.insts[block].insert(index, inst);
        self.inst_block[inst] = Some(block);
    }

    /// Places `inst` right before `before`.
    pub fn insert_inst_before(&mut self, inst: Inst, before: Inst) {
        let block = self.inst_block[before].expect("anchor instruction not placed");
        let i = self.position(before);
        self.insert_inst_at(inst, block, i);
    }

    /// The position of a placed `inst` in its block.
    pub fn position(&self, inst: Inst) -> usize {
        let block = self.inst_block[inst].expect("instruction not placed");
        self.insts[block]
            .iter()
            .position(|&i| i == inst)
            .expect("layout out of sync")
    }

    /// Removes `inst` from the layout.
    pub fn remove_inst(&mut self, inst: Inst) {
        if let Some(block) = self.inst_block[inst].take() {
            self.insts[block].retain(|&i| i != inst);
        }
    }

    /// Removes the instructions of `block` for which `keep` is false.
    pub fn retain_insts(&mut self, block: Block, mut keep: impl FnMut(Inst) -> bool) {
        let mut removed = Vec::new();
        self.insts[block].retain(|&i| {
            let k = keep(i);
            if !k {
                removed.push(i);
            }
            k
        });
        for i in removed {
            self.inst_block[i] = None;
        }
    }

    /// Removes the instructions of `block` from position `at` on from the layout and returns
    /// them in order.
    pub fn split_off_insts(&mut self, block: Block, at: usize) -> Vec<Inst> {
        let tail = self.insts[block].split_off(at);
        for &i in &tail {
            self.inst_block[i] = None;
        }
        tail
    }

    /// Moves all instructions of `from` to the end of `to`.
    pub fn move_insts(&mut self, from: Block, to: Block) {
        let moved = std::mem::take(&mut self.insts[from]);
        for &i in &moved {
            self.inst_block[i] = Some(to);
        }
        self.insts[to].extend(moved);
    }
}
